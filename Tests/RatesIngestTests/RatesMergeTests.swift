import Foundation
import RatesCore
import RatesIngest
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("Provider merge on recorded publications")
struct RatesMergeTests {
    @Test("the precedence is the registry's, tier by tier: the ECB, the currency's issuer, its peg, BDI, Europe, elsewhere, the USD series, history, periodic figures")
    func precedenceFromTheRegistry() throws {
        let precedence = MergePolicy.defaultPrecedence
        #expect(Array(precedence.prefix(4)) == ["ECB", .issuer, .peg, "BDI"])
        let keys = precedence.compactMap { if case .provider(let key) = $0 { key } else { nil } }
        #expect(keys.count == ProviderRegistry.keys.count && Set(keys) == Set(ProviderRegistry.keys), "every source once")
        let entries = try keys.map { try #require(ProviderRegistry.entry($0)) }
        #expect(entries.map(\.tier) == entries.map(\.tier).sorted(), "tier by tier")
        let registryOrder = Dictionary(uniqueKeysWithValues: ProviderRegistry.keys.enumerated().map { ($1, $0) })
        for (earlier, later) in zip(entries, entries.dropFirst()) where earlier.tier == later.tier {
            #expect(registryOrder[earlier.key]! < registryOrder[later.key]!, "within a tier, the registry's order: \(earlier.key), \(later.key)")
        }
        // The order among the first sources stays as it was set.
        let first: [String] = [
            "ECB", "BDI", "NBP", "CNB", "DNB", "NB", "RB", "MNB", "BNR", "SBI", "NBU", "NBRB", "CBR", "TCMB", "NBG", "BOE",
            "BANXICO", "BCB", "BNM", "BOC", "BOI", "BOT", "CBU", "FBIL", "HKMA", "NBK", "RBA", "FRED", "BOJ", "IMF",
        ]
        #expect(keys.filter(first.contains) == first)
    }

    @Test("the ECB wins every currency it quotes, its figure served as published")
    func ecbWinsItsCurrencies() throws {
        let ecb = try Recorded.ecb("2026-03-02")
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: [try Recorded.nbp("2026-03-02"), try Recorded.cnb("2026-03-02"), ecb])
        for quote in ecb.quotes {
            let rate = try #require(merged[quote.currency])
            #expect(rate.provider == "ECB", "\(quote.currency)")
            #expect(rate.value.description == quote.value, "\(quote.currency): the published digits, trailing zeros included")
            #expect(rate.source == quote && rate.route == .perEuro && rate.day == day("2026-03-02"))
        }
        #expect(merged[code("USD")]?.value.description == "1.1698")
        #expect(merged[.euro] == nil, "EUR is the base, not a merged currency")
    }

    @Test("PLN is the NBP's EUR mid when the ECB is not asked, and the ECB's otherwise")
    func plnFromTheNBP() throws {
        let nbp = try Recorded.nbp("2026-03-02")
        let withoutECB = RatesMerge.merge(day: day("2026-03-02"), publications: [nbp, try Recorded.cnb("2026-03-02")])
        let pln = try #require(withoutECB[code("PLN")])
        #expect(pln.provider == "NBP", "the currency's own central bank comes before the CNB")
        #expect(pln.value.description == "4.2304", "PLN per EUR is the NBP's EUR mid, as published")
        #expect(pln.source == nbp.quote(of: .euro) && pln.route == .perEuro)
        let czk = try #require(withoutECB[code("CZK")])
        let cnbEuro = try Recorded.cnb("2026-03-02").quote(of: .euro)
        #expect(czk.provider == "CNB" && czk.source == cnbEuro, "CZK is the CNB's EUR fixing")

        let withECB = RatesMerge.merge(day: day("2026-03-02"), publications: [nbp, try Recorded.ecb("2026-03-02")])
        #expect(withECB[code("PLN")]?.provider == "ECB")
        let ecbPLN = try #require(withECB[code("PLN")])
        #expect(isClose(ecbPLN.value, pln.value, within: 0.005))
    }

    @Test("a currency the NBP derives through its EUR mid: USD per EUR = 4.2304 / 3.6056, one rounding to 18 digits")
    func derivedThroughTheProvidersEuro() throws {
        let nbp = try Recorded.nbp("2026-03-02")
        let usd = try #require(RatesMerge.merge(day: day("2026-03-02"), publications: [nbp])[code("USD")])
        #expect(usd.value.description == "1.17328599955624584", "4.2304 / 3.6056 rounded half away from zero to 18 digits")
        #expect(usd.provider == "NBP" && usd.day == day("2026-03-02"))
        #expect(usd.source == nbp.quote(of: code("USD")) && usd.route == .throughEuro(euro: nbp.quote(of: .euro)!))
    }

    @Test("a currency the ECB does not quote comes from its own central bank: RUB from the Bank of Russia")
    func rubFromTheCBR() throws {
        let cbr = try Recorded.cbr()
        let merged = RatesMerge.merge(day: day("2026-04-25"), publications: [try Recorded.ecb("2026-04-24"), cbr])
        let rub = try #require(merged[code("RUB")])
        #expect(rub.provider == "CBR" && rub.route == .perEuro && rub.source.currency == .euro)
        let euroMid = try #require(cbr.quote(of: .euro).flatMap { ExactDecimal($0.value) })
        #expect(rub.value == euroMid, "RUB per EUR is the Bank of Russia's EUR figure, as published")
        #expect(merged[code("USD")]?.provider == "ECB" && merged[code("USD")]?.day == day("2026-04-24"), "the ECB's Friday carried to Saturday")
    }

    @Test("a currency only Banca d'Italia quotes comes from it, as published, unless a peg speaks for it")
    func onlyBDI() throws {
        let bdi = try Recorded.bdi("2026-02-10")
        let ecb = try Recorded.ecb("2026-02-10")
        let merged = RatesMerge.merge(day: day("2026-02-10"), publications: [ecb, bdi, try Recorded.cnb("2026-02-10")])
        let afn = try #require(merged[code("AFN")])
        #expect(afn.provider == "BDI" && afn.value.description == "75.2664" && afn.route == .perEuro)
        #expect(merged[code("USD")]?.provider == "ECB")
        let onlyBDI = Set(bdi.quotes.map(\.currency)).subtracting(ecb.quotes.map(\.currency)).subtracting([code("CZK")])
        #expect(onlyBDI.count > 100)
        let pegged = Set(FixedParity.pegs.map(\.currency))
        #expect(!onlyBDI.isDisjoint(with: pegged), "BDI quotes pegged currencies too")
        for currency in onlyBDI {
            #expect(merged[currency]?.provider == (pegged.contains(currency) ? FixedParity.pegProvider : "BDI"), "\(currency)")
        }
    }

    @Test(
        "a currency quoted per 1 unit by the NBP and per 100 or 1000 by the CNB gets the same value per EUR within 0.5%",
        arguments: ["JPY", "IDR", "INR", "KRW", "THB"])
    func perOneAndPerHundredAgree(_ currency: String) throws {
        let nbp = try Recorded.nbp("2026-03-02")
        let cnb = try Recorded.cnb("2026-03-02")
        #expect(nbp.quote(of: code(currency))?.unit == 1)
        let fromNBP = try #require(RatesMerge.merge(day: day("2026-03-02"), publications: [nbp])[code(currency)])
        let fromCNB = try #require(RatesMerge.merge(day: day("2026-03-02"), publications: [cnb])[code(currency)])
        let fromECB = try #require(RatesMerge.merge(day: day("2026-03-02"), publications: [try Recorded.ecb("2026-03-02")])[code(currency)])
        #expect(isClose(fromNBP.value, fromCNB.value, within: 0.005), "\(fromNBP.value) vs \(fromCNB.value)")
        #expect(isClose(fromCNB.value, fromECB.value, within: 0.005), "\(fromCNB.value) vs \(fromECB.value)")
    }

    @Test("JPY through the CNB's per-100 fixing is one quotient of the two published figures, its unit an exponent shift")
    func perHundredIsAnExponentShift() throws {
        let cnb = try Recorded.cnb("2026-03-02")
        let jpy = try #require(cnb.quote(of: code("JPY")))
        let euro = try #require(cnb.quote(of: .euro))
        #expect(jpy.unit == 100)
        let (euroFigure, jpyFigure) = (try #require(ExactDecimal(euro.value)), try #require(ExactDecimal(jpy.value)))
        let expected = try #require(ExactDecimal.quotient(euroFigure, jpyFigure, significantDigits: 18))
        let value = try #require(RatesMerge.merge(day: day("2026-03-02"), publications: [cnb])[code("JPY")]).value
        #expect(value == expected.shifted(byPowerOfTen: 2))
    }

    @Test("a provider without an EUR quote goes through USD and the ECB of its own day")
    func bridgeThroughTheECB() throws {
        let nbp = try Recorded.nbp("2026-03-02")
        let ecb = try Recorded.ecb("2026-03-02")
        let withoutEuro = nbp.editing("EUR") { _ in nil }
        let merged = RatesMerge.merge(day: day("2026-03-04"), publications: [withoutEuro], ecb: [try Recorded.ecb("2026-03-04"), ecb])
        let viaEuro = RatesMerge.merge(day: day("2026-03-02"), publications: [nbp])
        let nbpUSD = try #require(nbp.quote(of: code("USD")))
        let ecbUSD = try #require(ecb.quote(of: code("USD")))
        let pln = try #require(merged[code("PLN")])
        #expect(pln.route == .throughECB(via: nil, ecb: ecbUSD) && pln.source == nbpUSD && pln.day == day("2026-03-02"))
        // PLN per EUR = (PLN per USD) × (USD per EUR of the ECB) = 3.6056 × 1.1698, exactly.
        #expect(pln.value == ExactDecimal("4.21783088"))
        let gbp = try #require(merged[code("GBP")])
        #expect(gbp.route == .throughECB(via: nbpUSD, ecb: ecbUSD))
        let gbpViaEuro = try #require(viaEuro[code("GBP")])
        #expect(isClose(gbp.value, gbpViaEuro.value, within: 0.005))
        #expect(merged[code("USD")] != nil, "USD itself: 3.6056 × 1.1698 / 3.6056, one quotient")
        #expect(merged[code("USD")]?.value == ExactDecimal("1.1698"))

        let noECBThatDay = RatesMerge.merge(day: day("2026-03-04"), publications: [withoutEuro], ecb: [try Recorded.ecb("2026-03-04")])
        #expect(noECBThatDay.rates.isEmpty, "the bridge never mixes the provider's day with another ECB day")
    }

    @Test("a source whose EUR figure is no market rate goes through USD and the ECB although it quotes EUR: TTD per EUR 7.88, not the CBTT's 9.31")
    func bridgeThroughTheECBDespiteAnEuroQuote() throws {
        let cbtt = try Recorded.cbtt("2026-04-30")
        let ecb = try Recorded.ecb("2026-04-30")
        #expect(cbtt.bridgesThroughECB && cbtt.quote(of: .euro)?.value == "9.30865", "the bank's EUR average that day")
        let merged = RatesMerge.merge(day: day("2026-04-30"), publications: [cbtt], ecb: [ecb])
        let ttd = try #require(merged[code("TTD")])
        // TTD per EUR = (TTD per USD, the midpoint of 6.7143 and 6.7564) × (USD per EUR of the ECB, 1.1702), exactly.
        #expect(ttd.value == ExactDecimal("7.88170657"))
        #expect(ttd.route == .throughECB(via: nil, ecb: try #require(ecb.quote(of: code("USD")))))
        // The same figures through the bank's own EUR average would be 18% off.
        var throughItsEuro = cbtt
        throughItsEuro.bridgesThroughECB = false
        let off = try #require(RatesMerge.merge(day: day("2026-04-30"), publications: [throughItsEuro], ecb: [ecb])[code("TTD")])
        #expect(off.value == ExactDecimal("9.30865") && !isClose(off.value, ttd.value, within: 0.15))
        #expect(RatesMerge.merge(day: day("2026-04-30"), publications: [cbtt]).rates.isEmpty, "without the ECB's day, nothing")
    }

    @Test("a publication 3 days old is used with its own day; one 8 days old is not")
    func carryForward() throws {
        let nbp = try Recorded.nbp("2026-03-02")
        let policy = MergePolicy(pegs: [])
        let threeDays = RatesMerge.merge(day: day("2026-03-05"), publications: [nbp], policy: policy)
        #expect(threeDays[code("PLN")]?.day == day("2026-03-02"))
        #expect(threeDays.rates.count == 32, "31 currencies besides EUR, and PLN")
        #expect(threeDays.rates.allSatisfy { $0.day == day("2026-03-02") })
        #expect(RatesMerge.merge(day: day("2026-03-09"), publications: [nbp], policy: policy).rates.count == 32, "7 days old is the limit")
        #expect(RatesMerge.merge(day: day("2026-03-10"), publications: [nbp]).rates.isEmpty, "8 days old: nothing, no peg either")
        #expect(RatesMerge.merge(day: day("2026-03-10"), publications: [nbp], policy: MergePolicy(carryForwardDays: 8, pegs: [])).rates.count == 32)
    }

    @Test("each provider's newest publication not after the merged day is the one used")
    func newestWithinTheWindow() throws {
        let days = ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"]
        let all = try days.map(Recorded.nbp)
        let merged = RatesMerge.merge(day: day("2026-03-04"), publications: all.shuffled())
        #expect(merged[code("USD")]?.day == day("2026-03-04"))
        #expect(merged[code("USD")]?.source == all[2].quote(of: code("USD")))
        #expect(RatesMerge.merge(day: day("2026-03-01"), publications: all).rates.isEmpty, "publications after the merged day do not count")
    }

    @Test("real publications of one day: the figures of the ECB and the issuers are never flagged, and none is more than 2% from the others")
    func realDataAgrees() throws {
        let merges = try ["2026-03-02", "2026-03-05"].map { date in
            RatesMerge.merge(day: day(date), publications: [try Recorded.ecb(date), try Recorded.nbp(date), try Recorded.cnb(date)])
        } + [
            RatesMerge.merge(
                day: day("2026-02-10"), publications: [try Recorded.ecb("2026-02-10"), try Recorded.bdi("2026-02-10"), try Recorded.cnb("2026-02-10")])
        ]
        for merged in merges {
            for exclusion in merged.exclusions {
                #expect(exclusion.provider != "ECB" && exclusion.currency != code("PLN") && exclusion.currency != code("CZK"), "\(exclusion)")
                #expect(exclusion.deviation < 0.02, "fixings a few hours apart, not a misread figure: \(exclusion)")
                #expect(merged[exclusion.currency]?.provider == "ECB", "a flagged value is not served where the ECB has one")
            }
        }
    }

    @Test("an inverted quote among three providers is excluded and reported; the next provider by precedence is used")
    func invertedQuoteExcluded() throws {
        let date = "2026-03-02"
        // The NBP's USD read the wrong way round: 3.6056 USD per 1 PLN instead of 3.6056 PLN per 1 USD.
        let inverted = try Recorded.nbp(date).editing("USD") { $0.invertedDirection }
        let policy = MergePolicy(precedence: ["NBP", "ECB", .issuer, "CNB"])
        let merged = RatesMerge.merge(day: day(date), publications: [try Recorded.ecb(date), inverted, try Recorded.cnb(date)], policy: policy)

        #expect(merged[code("USD")]?.provider == "ECB", "the NBP would win USD, but its value is left out")
        #expect(merged[code("GBP")]?.provider == "NBP", "the NBP's other figures are still used")
        let exclusion = try #require(merged.exclusions.first)
        #expect(merged.exclusions.count == 1)
        #expect(exclusion.day == day(date) && exclusion.currency == code("USD") && exclusion.provider == "NBP")
        #expect(exclusion.rate.value.description == "15.25313024", "3.6056 × 4.2304, exactly")
        #expect(exclusion.providerCount == 3)
        let cnbUSD = try #require(RatesMerge.merge(day: day(date), publications: [try Recorded.cnb(date)])[code("USD")])
        #expect(exclusion.median == cnbUSD.value.approximation || exclusion.median == 1.1698, "the median of three is one of the two sane values")
        #expect(exclusion.deviation > 10)
    }

    @Test("the merge depends on the publications, not their order; every served rate is a provider's own value, never an excluded one")
    func orderAndTraceability() throws {
        let inverted = try Recorded.nbp("2026-03-02").editing("USD") { $0.invertedDirection }
        // The CNB of 2026-02-27 is older than its 2026-03-02 one, so it is ignored wherever it comes.
        let publications = [try Recorded.ecb("2026-03-02"), inverted, try Recorded.cnb("2026-03-02"), try Recorded.cnb("2026-02-27")]
        let policy = MergePolicy(precedence: ["NBP", "CNB", "ECB"])
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: publications, policy: policy)
        var generator = SplitMix64(seed: 2026)
        for _ in 0..<20 {
            #expect(RatesMerge.merge(day: day("2026-03-02"), publications: publications.shuffled(using: &generator), policy: policy) == merged)
        }
        let candidates = Set(publications.flatMap { $0.perEuroRates(ecb: publications[0]) })
        #expect(merged.rates.filter { $0.provider != FixedParity.pegProvider }.allSatisfy(candidates.contains))
        #expect(merged.exclusions.allSatisfy { !merged.rates.contains($0.rate) })
    }

    @Test("with only two providers there is no consensus check")
    func noConsensusBelowThree() throws {
        let inverted = try Recorded.nbp("2026-03-02").editing("USD") { $0.invertedDirection }
        let merged = RatesMerge.merge(day: day("2026-03-02"), publications: [try Recorded.ecb("2026-03-02"), inverted])
        #expect(merged.exclusions.isEmpty)
        #expect(merged[code("USD")]?.provider == "ECB")
    }

    @Test("precedence is configurable: Banca d'Italia first takes USD from the ECB")
    func configurablePrecedence() throws {
        let publications = [try Recorded.ecb("2026-02-10"), try Recorded.bdi("2026-02-10"), try Recorded.cnb("2026-02-10")]
        let standard = RatesMerge.merge(day: day("2026-02-10"), publications: publications)
        #expect(standard[code("USD")]?.provider == "ECB")
        let bdiFirst = RatesMerge.merge(
            day: day("2026-02-10"), publications: publications, policy: MergePolicy(precedence: ["BDI", "ECB", .issuer]))
        #expect(bdiFirst[code("USD")]?.provider == "BDI")
        #expect(bdiFirst[code("USD")]?.value.description == "1.1894")
        #expect(bdiFirst[code("CZK")]?.provider == "BDI")
        let cnbFirst = RatesMerge.merge(
            day: day("2026-02-10"), publications: publications, policy: MergePolicy(precedence: [.issuer, "ECB"]))
        #expect(cnbFirst[code("CZK")]?.provider == "CNB", "the CNB issues CZK")
        #expect(cnbFirst[code("USD")]?.provider == "ECB")
        #expect(cnbFirst[code("AFN")]?.provider == "BDI", "a provider the list does not name still counts, after the named ones")
    }
}
