import RatesCore
import RatesIngest
import Testing

/// The merge's rules at their edges, on publications made for each case: where a value is kept or
/// left out, which one wins, what a peg or a fixed conversion rate gives.
@Suite("Merge rules: consensus, freshness, precedence, pegs")
struct MergeRulesTests {
    /// One EUR-pivot publication of `provider` on `date` valuing each currency at its figure (units per 1 EUR).
    func perEuro(_ provider: String, _ date: String, _ figures: [String: String]) -> ProviderDay {
        ProviderDay(
            provider: provider, pivot: .euro, day: day(date),
            quotes: figures.map { PublishedQuote(currency: code($0.key), value: $0.value, direction: .unitsPerPivot) })
    }

    /// Three or four providers' values of USD, the first given precedence over the others.
    func usd(_ values: [String], date: String = "2026-03-02") -> (publications: [ProviderDay], policy: MergePolicy) {
        let keys = ["AAA", "BBB", "CCC", "DDD"].prefix(values.count)
        let publications = zip(keys, values).map { perEuro($0, date, ["USD": $1]) }
        return (publications, MergePolicy(precedence: keys.map { .provider($0) }, pegs: []))
    }

    @Test("a value 4.9% from the median is kept and wins by precedence; one 5.1% from it is left out and reported")
    func thresholdEdges() throws {
        let near = usd(["1.049", "1.000", "1.000"])
        let kept = RatesMerge.merge(day: day("2026-03-02"), publications: near.publications, policy: near.policy)
        #expect(kept.exclusions.isEmpty)
        #expect(kept[code("USD")]?.provider == "AAA")

        let far = usd(["1.051", "1.000", "1.000"])
        let excluded = RatesMerge.merge(day: day("2026-03-02"), publications: far.publications, policy: far.policy)
        #expect(excluded[code("USD")]?.provider == "BBB", "the first kept value by precedence")
        #expect(excluded.exclusions.map(\.provider) == ["AAA"])
        let deviation = try #require(excluded.exclusions.first?.deviation)
        #expect(abs(deviation - 0.051) < 1e-9)
    }

    @Test("with an even number of values the median is the mean of the middle two")
    func evenCount() throws {
        let four = usd(["1.20", "1.00", "1.02", "1.04"])
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: four.publications, policy: four.policy)
        let exclusion = try #require(merged.exclusions.first)
        #expect(merged.exclusions.count == 1 && exclusion.provider == "AAA")
        #expect(abs(exclusion.median - 1.03) < 1e-12, "(1.02 + 1.04) / 2")
        #expect(exclusion.providerCount == 4)
        #expect(merged[code("USD")]?.provider == "BBB")
    }

    @Test("when every value is far from the median, the currency keeps its precedence winner and the others are reported")
    func allExcludedKeepsTheWinner() throws {
        let clusters = usd(["2.0", "1.0", "2.0", "1.0"])
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: clusters.publications, policy: clusters.policy)
        let usd = try #require(merged[code("USD")], "consensus never deletes a currency")
        #expect(usd.provider == "AAA" && usd.value == ExactDecimal("2.0"))
        #expect(Set(merged.exclusions.map(\.provider)) == ["BBB", "CCC", "DDD"])
        #expect(merged.exclusions.allSatisfy { abs($0.deviation - 1.0 / 3.0) < 1e-12 })
    }

    @Test("freshness before precedence: a six-day-old value of a higher tier loses to a same-day one, and does not vote")
    func freshnessBeforePrecedence() throws {
        let policy = MergePolicy(precedence: ["OLD", "NEW", "TWO", "THREE"], pegs: [])
        let stale = perEuro("OLD", "2026-03-02", ["USD": "1.50"])
        let fresh = ["NEW": "1.10", "TWO": "1.11", "THREE": "1.12"].map { perEuro($0.key, "2026-03-08", ["USD": $0.value]) }
        let merged = RatesMerge.merge(day: day("2026-03-08"), publications: [stale] + fresh, policy: policy)
        #expect(merged[code("USD")]?.provider == "NEW")
        #expect(merged.exclusions.isEmpty, "the old value takes no part in the consensus check either")

        let friday = perEuro("OLD", "2026-03-06", ["USD": "1.11"])
        let monday = perEuro("NEW", "2026-03-09", ["USD": "1.10"])
        let weekend = RatesMerge.merge(day: day("2026-03-09"), publications: [friday, monday], policy: policy)
        #expect(weekend[code("USD")]?.provider == "OLD", "three days old still competes, by precedence")
    }

    @Test("a currency the ECB does not quote comes from its own central bank, not from Banca d'Italia")
    func ownBankBeforeBDI() throws {
        let bdi = perEuro("BDI", "2026-03-02", ["UAH": "45.0", "USD": "1.17"])
        let nbu = ProviderDay(
            provider: "NBU", pivot: code("UAH"), day: day("2026-03-02"),
            quotes: [PublishedQuote(currency: .euro, value: "46.0", direction: .pivotPerUnits)])
        let ecb = perEuro("ECB", "2026-03-02", ["USD": "1.1698"])
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: [bdi, nbu, ecb])
        #expect(merged[code("UAH")]?.provider == "NBU")
        #expect(merged[code("UAH")]?.value == ExactDecimal("46.0"))
        #expect(merged[code("USD")]?.provider == "ECB")
    }

    @Test("a pegged currency no provider publishes is the anchor's value times the declared rate, named as a peg")
    func pegs() throws {
        let ecb = perEuro("ECB", "2026-03-02", ["USD": "1.1698", "GBP": "0.8644"])
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: [ecb])
        let aed = try #require(merged[code("AED")])
        #expect(aed.provider == FixedParity.pegProvider)
        #expect(aed.value == ExactDecimal("4.2960905"), "1.1698 × 3.6725 = 4.29609050, exactly")
        #expect(aed.source == FixedParity.peg(of: code("AED"))!.quote)
        #expect(merged[code("FKP")]?.value == ExactDecimal("0.8644"), "1:1 with GBP")
        #expect(merged[code("XOF")]?.value == ExactDecimal("655.957"), "a peg to the euro is its rate, as declared")
        #expect(merged[code("MOP")] == nil, "its anchor, HKD, has no value that day")
    }

    @Test("a published figure wins over a peg, and a peg never takes part in the consensus check")
    func publishedBeatsPeg() throws {
        let ecb = perEuro("ECB", "2026-03-02", ["USD": "1.1698"])
        let cbuae = perEuro("AAA", "2026-03-02", ["AED": "4.40"])
        let other = perEuro("BBB", "2026-03-02", ["AED": "4.29"])
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: [ecb, cbuae, other])
        #expect(merged[code("AED")]?.provider == "AAA")
        #expect(merged.exclusions.isEmpty, "two published values: no check, the peg does not make a third")
    }

    @Test("a day before the euro: a Deutsche Mark source is expressed through the mark's conversion rate, 1.95583 per EUR")
    func beforeTheEuro() throws {
        let bbk = ProviderDay(
            provider: "BBK", pivot: code("DEM"), day: day("1990-01-02"),
            quotes: [
                PublishedQuote(currency: code("USD"), value: "1.6895", direction: .pivotPerUnits),
                PublishedQuote(currency: code("JPY"), value: "1.1745", unit: 100, direction: .pivotPerUnits),
            ])
        let merged = RatesMerge.merge(day: day("1990-01-02"), publications: [bbk], policy: MergePolicy(pegs: []))
        #expect(merged[code("DEM")]?.value == ExactDecimal("1.95583"))
        #expect(merged[code("USD")]?.value == ExactDecimal("1.15763835454276413"), "1.95583 / 1.6895, one rounding to 18 digits")
        #expect(merged[code("JPY")]?.value == ExactDecimal("166.524478501489996"), "195.583 / 1.1745")
        #expect(merged[code("USD")]?.route == .throughFixedRate(parity: FixedParity.perEuro(code("DEM"))!.quote))
    }
}
