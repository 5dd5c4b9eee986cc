import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("NBK adapter")
struct NBKProviderTests {
    let provider = NBKProvider()
    let file = "nbk-kazakhstan/get_rates_01.04.2026.xml"
    let day = Day("2026-04-01")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the rates of 2026-04-01, 04-02 and 04-03: 39 currencies each, KZT per quant units")
    func threeDays() throws {
        var days: [ProviderPublication] = []
        for name in ["get_rates_01.04.2026.xml", "get_rates_02.04.2026.xml", "get_rates_03.04.2026.xml"] {
            days += try parse(ProviderFixture.bytes("nbk-kazakhstan/" + name))
        }
        #expect(days.map(\.day) == [Day("2026-04-01")!, Day("2026-04-02")!, Day("2026-04-03")!])
        #expect(days.allSatisfy { $0.quotes.count == 39 && $0.quotes.allSatisfy { $0.direction == .pivotPerUnits } })
        let dollar = PublishedQuote(currency: CurrencyCode("USD")!, value: "478.77", direction: .pivotPerUnits)
        #expect(ProviderFixture.quote("USD", in: days[0]) == dollar)
        #expect(ProviderFixture.quote("EUR", in: days[1])?.value == "551.06")
        #expect(ProviderFixture.quote("AMD", in: days[0]).map { [$0.value, "\($0.unit)"] } == ["12.72", "10"])
        #expect(ProviderFixture.quote("KRW", in: days[2]).map { [$0.value, "\($0.unit)"] } == ["31.15", "100"])
        #expect(ProviderFixture.quote("IRR", in: days[0]).map { [$0.value, "\($0.unit)"] } == ["0.4", "1000"])
        // Two decimals at most, as published: the yen per 1 unit.
        #expect(ProviderFixture.quote("JPY", in: days[0])?.value == "3")
        #expect(ProviderFixture.quote("JPY", in: days[2])?.value == "2.96")
        #expect(ProviderFixture.quote("XDR", in: days[0])?.value == "650.07")
    }

    @Test("asks for today in Almaty as the latest, and for a range one day per Monday to Friday")
    func requests() throws {
        let latest = try #require(provider.requests(for: .latest).first?.url)
        let almaty = Day(containing: Date(), utcOffset: 5 * 3600)
        let (year, month, dayOfMonth) = almaty.parts
        let expected = String(format: "%02d.%02d.%04d", dayOfMonth, month, year)
        #expect(latest == "https://nationalbank.kz/rss/get_rates.cfm?fdate=" + expected)
        #expect(
            provider.requests(for: .range(Day("2026-04-03")!, Day("2026-04-06")!)).map(\.url) == [
                "https://nationalbank.kz/rss/get_rates.cfm?fdate=03.04.2026",
                "https://nationalbank.kz/rss/get_rates.cfm?fdate=06.04.2026",
            ])
    }

    @Test("rejects a rate that is not a decimal, a currency listed twice, an item without quant, a bad date")
    func badRows() throws {
        let garbage = try ProviderFixture.edited(file, replacing: "<description>478.77</description>", with: "<description>-478.77</description>")
        #expect(ProviderFixture.error { try parse(garbage) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "-478.77"))
        let twice = try ProviderFixture.edited(file, replacing: "<title>AUD</title>", with: "<title>USD</title>")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let noQuant = try ProviderFixture.edited(file, replacing: "<quant>1000</quant>", with: "")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(noQuant) }))
        let date = try ProviderFixture.edited(file, replacing: "<date>01.04.2026</date>", with: "<date>2026-04-01</date>")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-04-01"))
    }

    @Test("rejects a truncated answer, an HTML error page, an empty body and a day without items")
    func notTheRates() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(ProviderFixture.error { try parse(Array("<rates><date>05.04.2026</date></rates>".utf8)) } == .emptyDay(Day("2026-04-05")!))
    }
}
