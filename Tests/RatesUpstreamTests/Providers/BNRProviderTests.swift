import RatesCore
import RatesUpstream
import Testing

@Suite("BNR adapter")
struct BNRProviderTests {
    let provider = BNRProvider()
    let year = "bnr-romania/nbrfxrates2026.xml"
    let daily = "bnr-romania/nbrfxrates_2016-12-02.xml"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the 2026 file to 2026-08-19: 157 days of 36 currencies in lei per multiplier units, gold left out")
    func yearFile() throws {
        let publications = try parse(ProviderFixture.bytes(year))
        #expect(publications.count == 157)
        #expect(publications.first?.day == Day("2026-01-05"))
        #expect(publications.last?.day == Day("2026-08-19"))
        #expect(publications.allSatisfy { $0.quotes.count == 36 })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits } })
        #expect(publications.allSatisfy { ProviderFixture.quote("XAU", in: $0) == nil })
        let second = publications.first { $0.day == Day("2026-03-02") }
        let euro = PublishedQuote(currency: CurrencyCode("EUR")!, value: "5.0972", direction: .pivotPerUnits)
        #expect(ProviderFixture.quote("EUR", in: second) == euro)
        #expect(ProviderFixture.quote("USD", in: second)?.value == "4.3430")
        #expect(ProviderFixture.quote("HUF", in: second).map { [$0.value, "\($0.unit)"] } == ["1.3459", "100"])
        #expect(ProviderFixture.quote("XDR", in: second)?.value == "5.9527")
        #expect(ProviderFixture.quote("USD", in: publications.last)?.value == "4.5190")
        // HUF, IDR, ISK, JPY and KRW are quoted per 100 units every day.
        #expect(publications.allSatisfy { $0.quotes.filter { $0.unit == 100 }.map(\.currency.rawValue) == ["HUF", "IDR", "ISK", "JPY", "KRW"] })
    }

    @Test("reads the daily file of 2016-12-02 in the older namespace: 30 currencies")
    func dailyFile() throws {
        let publications = try parse(ProviderFixture.bytes(daily))
        #expect(publications.map(\.day) == [Day("2016-12-02")!])
        #expect(publications.first?.quotes.count == 30)
        #expect(ProviderFixture.quote("EUR", in: publications.first)?.value == "4.5125")
        #expect(ProviderFixture.quote("JPY", in: publications.first).map { [$0.value, "\($0.unit)"] } == ["3.7224", "100"])
    }

    @Test("asks for the latest day's file, and for a range the yearly file of each year it touches")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == ["https://curs.bnr.ro/nbrfxrates.xml"])
        #expect(
            provider.requests(for: .range(Day("2024-12-30")!, Day("2026-01-02")!)).map(\.url) == [
                "https://curs.bnr.ro/files/xml/years/nbrfxrates2024.xml",
                "https://curs.bnr.ro/files/xml/years/nbrfxrates2025.xml",
                "https://curs.bnr.ro/files/xml/years/nbrfxrates2026.xml",
            ])
        #expect(provider.requests(for: .range(Day("2026-03-02")!, Day("2026-03-06")!)).count == 1)
    }

    @Test("rejects a value that is not a decimal, a currency listed twice, a multiplier that is not a number")
    func badRows() throws {
        let day = Day("2016-12-02")!
        let garbage = try ProviderFixture.edited(daily, replacing: ">4.2393</Rate>", with: ">4,23,93</Rate>")
        #expect(ProviderFixture.error { try parse(garbage) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "4,23,93"))
        let twice = try ProviderFixture.edited(daily, replacing: "<Rate currency=\"AED\">", with: "<Rate currency=\"USD\">")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let multiplier = try ProviderFixture.edited(daily, replacing: "\"JPY\" multiplier=\"100\"", with: "\"JPY\" multiplier=\"\"")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(multiplier) }))
        let origin = try ProviderFixture.edited(daily, replacing: "<OrigCurrency>RON</OrigCurrency>", with: "<OrigCurrency>EUR</OrigCurrency>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(origin) }))
        let date = try ProviderFixture.edited(daily, replacing: "<Cube date=\"2016-12-02\">", with: "<Cube date=\"02.12.2016\">")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("02.12.2016"))
    }

    @Test("rejects a truncated year file, an HTML error page and an empty body")
    func notTheFile() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(year)) }))
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }
}
