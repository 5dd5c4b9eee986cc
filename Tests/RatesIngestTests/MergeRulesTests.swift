import RatesCore
import RatesIngest
import Testing

/// The merge's rules at their edges, on publications made for each case: where a value is kept or
/// left out, which one wins, what a peg or a fixed conversion rate gives.
@Suite("Merge rules: consensus, freshness, precedence, pegs")
struct MergeRulesTests {
    /// Three or four providers' values of USD, the first given precedence over the others.
    func usd(_ values: [String], date: String = "2026-03-02") -> (publications: [ProviderDay], policy: MergePolicy) {
        let keys = ["AAA", "BBB", "CCC", "DDD"].prefix(values.count)
        let publications = zip(keys, values).map { perEuro($0, date, ["USD": $1]) }
        return (publications, MergePolicy(precedence: keys.map { .provider($0) }, pegs: []))
    }

    @Test("among sources that agree, a value 0.74% from the median is kept and wins by precedence; one 0.76% from it is flagged and reported")
    func tightSpreadEdges() throws {
        let near = usd(["1.0074", "1.000", "1.000"])
        let kept = RatesMerge.merge(day: day("2026-03-02"), publications: near.publications, policy: near.policy)
        #expect(kept.exclusions.isEmpty)
        #expect(kept[code("USD")]?.provider == "AAA")

        let far = usd(["1.0076", "1.000", "1.000"])
        let flagged = RatesMerge.merge(day: day("2026-03-02"), publications: far.publications, policy: far.policy)
        #expect(flagged[code("USD")]?.provider == "BBB", "the first value not flagged, by precedence")
        #expect(flagged.exclusions.map(\.provider) == ["AAA"])
        let deviation = try #require(flagged.exclusions.first?.deviation)
        #expect(abs(deviation - 0.0076) < 1e-9)
    }

    @Test("where the sources spread widely the bound is 3 robust deviations: 0.9% is kept among values 0.5% apart, 1.1% never is")
    func robustSpread() throws {
        // Median 1.000; absolute deviations 0.009, 0.005, 0, 0.005, 0.005: MAD 0.005, 3 × 1.4826 × 0.005 = 2.2%, capped at 1%.
        let spread = ["AAA": "1.009", "BBB": "0.995", "CCC": "1.000", "DDD": "1.005", "EEE": "0.995"]
        let policy = MergePolicy(precedence: ["AAA", "BBB", "CCC", "DDD", "EEE"], pegs: [])
        let publications = spread.map { perEuro($0.key, "2026-03-02", ["USD": $0.value]) }
        let kept = RatesMerge.merge(day: day("2026-03-02"), publications: publications, policy: policy)
        #expect(kept.exclusions.isEmpty && kept[code("USD")]?.provider == "AAA")

        var wider = spread
        wider["AAA"] = "1.011"
        let flagged = RatesMerge.merge(day: day("2026-03-02"), publications: wider.map { perEuro($0.key, "2026-03-02", ["USD": $0.value]) }, policy: policy)
        #expect(flagged.exclusions.map(\.provider) == ["AAA"], "past the 1% cap")
        #expect(flagged[code("USD")]?.provider == "BBB")
    }

    @Test("a source that speaks for the currency is flagged only past 5%: 4.9% from the median still wins, 5.1% does not")
    func speakingSourceEdges() throws {
        let policy = MergePolicy(precedence: ["AAA", .issuer, "BBB", "CCC"], pegs: [])
        func merged(_ first: String) -> MergedDay {
            let publications = zip(["AAA", "BBB", "CCC"], [first, "1.000", "1.000"]).map { perEuro($0, "2026-03-02", ["USD": $1]) }
            return RatesMerge.merge(day: day("2026-03-02"), publications: publications, policy: policy)
        }
        #expect(merged("1.049")[code("USD")]?.provider == "AAA" && merged("1.049").exclusions.isEmpty)
        #expect(merged("1.051")[code("USD")]?.provider == "BBB")
        #expect(merged("1.051").exclusions.map(\.provider) == ["AAA"])
    }

    @Test("the consensus is judged on the same day's values: last week's figures do not move the median")
    func sameDayConsensus() throws {
        let policy = MergePolicy(precedence: ["AAA", "BBB", "CCC", "DDD", "OLD"], pegs: [])
        let today = ["AAA": "1.015", "BBB": "1.000", "CCC": "1.000", "DDD": "1.001"].map { perEuro($0.key, "2026-03-05", ["USD": $0.value]) }
        // Two days old, within the freshness tolerance: with them the median would be 1.008, AAA 0.7% from it and the bound 1%.
        let old = [perEuro("OLD", "2026-03-03", ["USD": "1.020"]), perEuro("OLDER", "2026-03-03", ["USD": "1.022"])]
        let merged = RatesMerge.merge(day: day("2026-03-05"), publications: today + old, policy: policy)
        #expect(merged.exclusions.map(\.provider).contains("AAA"), "1.5% from the same-day median of 1.0005")
        #expect(merged[code("USD")]?.provider == "BBB")
    }

    @Test("before the euro, sources' values per EUR are per different euros: none is flagged or measured; from 1999 they are")
    func noConsensusBeforeTheEuro() throws {
        let policy = MergePolicy(precedence: ["AAA", "BBB", "CCC"], pegs: [])
        func publications(_ date: String) -> [ProviderDay] {
            zip(["AAA", "BBB", "CCC"], ["1.70", "1.60", "1.61"]).map { perEuro($0, date, ["USD": $1]) }
        }
        let before = RatesMerge.merge(day: day("1998-12-31"), publications: publications("1998-12-31"), policy: policy)
        #expect(before.exclusions.isEmpty && before[code("USD")]?.provider == "AAA")
        #expect(RatesMerge.sameDayDeviations(day: day("1998-12-31"), publications: publications("1998-12-31")).isEmpty)
        let after = RatesMerge.merge(day: day("1999-01-04"), publications: publications("1999-01-04"), policy: policy)
        #expect(after.exclusions.map(\.provider) == ["AAA"] && after[code("USD")]?.provider == "BBB")
        #expect(RatesMerge.sameDayDeviations(day: day("1999-01-04"), publications: publications("1999-01-04")).count == 3)
    }

    @Test("with an even number of values the median is the mean of the middle two")
    func evenCount() throws {
        let four = usd(["1.20", "1.03", "1.03", "1.04"])
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: four.publications, policy: four.policy)
        let exclusion = try #require(merged.exclusions.first)
        #expect(merged.exclusions.count == 1 && exclusion.provider == "AAA")
        #expect(abs(exclusion.median - 1.035) < 1e-12, "(1.03 + 1.04) / 2")
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

    @Test("a currency the ECB does not quote comes from its issuer, not from Banca d'Italia")
    func issuerBeforeBDI() throws {
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

    @Test("a peg beats every source that does not speak for its currency, and never takes part in the consensus check")
    func pegBeatsOtherSources() throws {
        let ecb = perEuro("ECB", "2026-03-02", ["USD": "1.1698"])
        // Three sources' indicative dirhams, up to 5% off parity (3.6725 × 1.1698 = 4.2960905).
        let others = ["AAA": "4.08", "BBB": "4.10", "CCC": "4.09"].map { perEuro($0.key, "2026-03-02", ["AED": $0.value]) }
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: [ecb] + others)
        let aed = try #require(merged[code("AED")])
        #expect(aed.provider == FixedParity.pegProvider && aed.value == ExactDecimal("4.2960905"))
        #expect(merged.exclusions.isEmpty, "the three agree with each other; the peg does not vote")
    }

    @Test("the issuer's figure beats its currency's peg")
    func issuerBeatsPeg() throws {
        let ecb = perEuro("ECB", "2026-03-02", ["USD": "1.1698", "HKD": "9.1450"])
        // The Monetary Authority of Macao quotes per pataca: 9.42 MOP per EUR (the peg would give 9.1450 × 1.03 = 9.41935).
        let amcm = ProviderDay(
            provider: "AMCM", pivot: code("MOP"), day: day("2026-03-02"),
            quotes: [PublishedQuote(currency: .euro, value: "9.42", direction: .pivotPerUnits)])
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: [ecb, amcm])
        #expect(merged[code("MOP")]?.provider == "AMCM" && merged[code("MOP")]?.value == ExactDecimal("9.42"))
        let silent = RatesMerge.merge(day: day("2026-03-02"), publications: [ecb])
        #expect(silent[code("MOP")]?.provider == FixedParity.pegProvider && silent[code("MOP")]?.value == ExactDecimal("9.41935"))
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
