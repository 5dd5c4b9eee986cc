import RatesCore
import RatesIngest
import Testing

/// Who speaks for a currency, and the rank a source earns for it: the issuer whatever its pivot, the
/// rank measured from same-day deviations, and a figure kept in its own pivot until it is used.
@Suite("Merge: the issuer first, ranks earned per currency, figures in their own pivot")
struct SourceRankTests {
    /// A USD-pivot publication: each figure units per 1 USD.
    func perDollar(_ provider: String, _ date: String, _ figures: [String: String], validityDays: Int? = nil) -> ProviderDay {
        ProviderDay(
            provider: provider, pivot: code("USD"), day: day(date),
            quotes: figures.map { PublishedQuote(currency: code($0.key), value: $0.value, direction: .unitsPerPivot) }, validityDays: validityDays)
    }

    @Test("the issuer speaks for its currency though it quotes per USD: the CBC's TWD beats the RBA's and HKMA's")
    func issuerQuotingPerDollar() throws {
        // The CBC quotes TWD and EUR per USD: TWD per EUR = 31.50 / (1 / 1.17) → 36.855.
        let cbc = ProviderDay(
            provider: "CBC", pivot: code("USD"), day: day("2026-03-02"),
            quotes: [
                PublishedQuote(currency: code("TWD"), value: "31.50", direction: .unitsPerPivot),
                PublishedQuote(currency: .euro, value: "1.17", direction: .pivotPerUnits),
            ])
        let rba = perEuro("RBA", "2026-03-02", ["TWD": "36.70"])
        let hkma = perEuro("HKMA", "2026-03-02", ["TWD": "36.75"])
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: [rba, hkma, cbc])
        let twd = try #require(merged[code("TWD")])
        #expect(twd.provider == "CBC", "the issuer, though the RBA and HKMA stand before the USD series in the tiers")
        #expect(twd.value == ExactDecimal("36.855"))
        #expect(merged.exclusions.isEmpty, "0.4% from the others: an issuer is flagged past 5% only")
    }

    @Test("a source whose figures for a currency typically sit 2% from the others ranks below every source that does not; at 0.2% it keeps its place")
    func rankEarnedAndLost() throws {
        // CBG ranks before CBN in the registry; neither issues KES.
        let publications = [perEuro("CBG", "2026-03-20", ["KES": "152.0"]), perEuro("CBN", "2026-03-20", ["KES": "151.0"])]
        let unjudged = RatesMerge.merge(day: day("2026-03-20"), publications: publications)
        #expect(unjudged[code("KES")]?.provider == "CBG")

        func standing(_ deviation: Double, days: [String]) -> SourceStanding {
            SourceStanding(days.map { SameDayDeviation(provider: "CBG", currency: code("KES"), day: day($0), deviation: deviation) })
        }
        let off = standing(0.02, days: ["2026-03-16", "2026-03-17", "2026-03-18"])
        #expect(RatesMerge.merge(day: day("2026-03-20"), publications: publications, standing: off)[code("KES")]?.provider == "CBN")
        let close = standing(0.002, days: ["2026-03-16", "2026-03-17", "2026-03-18"])
        #expect(RatesMerge.merge(day: day("2026-03-20"), publications: publications, standing: close)[code("KES")]?.provider == "CBG")
        let tooFew = standing(0.02, days: ["2026-03-17", "2026-03-18"])
        #expect(RatesMerge.merge(day: day("2026-03-20"), publications: publications, standing: tooFew)[code("KES")]?.provider == "CBG", "two samples judge nothing")
        let outOfWindow = standing(0.02, days: ["2026-03-01", "2026-03-02", "2026-03-06"])
        #expect(RatesMerge.merge(day: day("2026-03-20"), publications: publications, standing: outOfWindow)[code("KES")]?.provider == "CBG", "older than 14 days")
        #expect(off.measure(of: "CBG", for: code("KES"), on: day("2026-03-17")) == nil, "only publications up to the day count")
    }

    @Test("an issuer is never demoted by its standing")
    func issuerKeepsItsPlace() throws {
        let cbk = ProviderDay(
            provider: "CBK", pivot: code("KES"), day: day("2026-03-20"),
            quotes: [PublishedQuote(currency: .euro, value: "151.5", direction: .pivotPerUnits)])
        let others = perEuro("CBN", "2026-03-20", ["KES": "151.0"])
        let standing = SourceStanding(["2026-03-16", "2026-03-17", "2026-03-18"].map {
            SameDayDeviation(provider: "CBK", currency: code("KES"), day: day($0), deviation: 0.05)
        })
        #expect(RatesMerge.merge(day: day("2026-03-20"), publications: [others, cbk], standing: standing)[code("KES")]?.provider == "CBK")
    }

    @Test("same-day deviations: each source's distance from the median of the others of that day; carried-forward figures are not measured")
    func sameDayDeviations() throws {
        let publications = [
            perEuro("AAA", "2026-03-20", ["KES": "153.0"]), perEuro("BBB", "2026-03-20", ["KES": "150.0"]),
            perEuro("CCC", "2026-03-20", ["KES": "150.0"]), perEuro("OLD", "2026-03-19", ["KES": "200.0"]),
        ]
        let deviations = RatesMerge.sameDayDeviations(day: day("2026-03-20"), publications: publications)
        let byProvider = Dictionary(uniqueKeysWithValues: deviations.map { ($0.provider, $0.deviation) })
        #expect(Set(byProvider.keys) == ["AAA", "BBB", "CCC"])
        #expect(abs(byProvider["AAA"]! - 0.02) < 1e-12, "153 against the others' 150")
        #expect(abs(byProvider["BBB"]! - 1.5 / 151.5) < 1e-12, "150 against the median of 153 and 150, 151.5")
        #expect(RatesMerge.sameDayDeviations(day: day("2026-03-20"), publications: Array(publications.prefix(2))).isEmpty, "two sources judge nothing")
    }

    @Test("a periodic source's figure carried forward goes per EUR through the merged day's value of its pivot: a dollar peg stays at par")
    func periodicFigureStaysInItsPivot() throws {
        // A quarterly dollar series: BSD 1.0 per USD and EUR 0.85 per USD on its day (USD per EUR 1.1764…).
        let ust = perDollar("UST", "2026-03-31", ["BSD": "1.0", "EUR": "0.85"], validityDays: 92)
        let ecb = perEuro("ECB", "2026-04-30", ["USD": "1.1698"])
        let merged = RatesMerge.merge(day: day("2026-04-30"), publications: [ust, ecb])
        let bsd = try #require(merged[code("BSD")])
        #expect(bsd.provider == "UST" && bsd.day == day("2026-03-31"))
        #expect(bsd.value == ExactDecimal("1.1698"), "1.0 BSD per USD × the day's 1.1698 USD per EUR")
        #expect(bsd.route == .throughMergedPivot(pivot: ExactDecimal("1.1698")))
        let onItsDay = RatesMerge.merge(day: day("2026-03-31"), publications: [ust])
        #expect(onItsDay[code("BSD")]?.route == .throughEuro(euro: ust.quote(of: .euro)!), "on its own day, through its own EUR figure")
    }

    @Test("a part of a publication that arrives alone goes through the merged value of its pivot")
    func partAloneThroughMergedPivot() throws {
        // The Bank of Russia's table of the day before (with EUR), and the metals alone on the day: gold in roubles per gram.
        let table = ProviderDay(
            provider: "CBR", pivot: code("RUB"), day: day("2026-03-02"),
            quotes: [PublishedQuote(currency: .euro, value: "90.0", direction: .pivotPerUnits)], inParts: true)
        let metals = ProviderDay(
            provider: "CBR", pivot: code("RUB"), day: day("2026-03-03"),
            quotes: [PublishedQuote(currency: code("XAU"), value: "9000", direction: .pivotPerUnits)], inParts: true)
        let merged = RatesMerge.merge(day: day("2026-03-03"), publications: [table, metals], policy: MergePolicy(pegs: []))
        let gold = try #require(merged[code("XAU")], "valued though the day has no EUR figure of its own")
        #expect(gold.value == ExactDecimal("0.01") && gold.day == day("2026-03-03"), "90 RUB per EUR / 9000 RUB per unit")
        #expect(merged[code("RUB")]?.day == day("2026-03-02"))
    }
}
