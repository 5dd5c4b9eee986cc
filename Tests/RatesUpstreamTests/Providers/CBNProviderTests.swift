import RatesCore
import RatesUpstream
import Testing

@Suite("CBN adapter")
struct CBNProviderTests {
    let provider = CBNProvider()
    let file = "cbn-nigeria/00_api_GetAllExchangeRates.json"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads six days of 12 currencies each: central rates, currency names made codes, WAUA skipped")
    func allRates() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-05-14", "2026-05-15", "2026-05-18", "2026-05-19", "2026-05-20", "2026-05-21"])
        #expect(publications.allSatisfy { $0.quotes.count == 12 })
        let newest = try #require(publications.last)
        #expect(newest.codes == ["AED", "CHF", "CNY", "DKK", "EUR", "GBP", "JPY", "SAR", "USD", "XDR", "XOF", "ZAR"])
        #expect(newest["USD"] == quote("USD", "1371.8079"))
        #expect(newest["XDR"] == quote("XDR", "1884.0410"))
        // Trailing zeros stay as published.
        #expect(newest["XOF"] == quote("XOF", "2.4200"))
        #expect(ProviderFixture.quote("GBP", on: "2026-05-14", in: publications) == quote("GBP", "1850.7066"))
    }

    @Test("skips a row without a central rate")
    func noCentralRate() throws {
        let body = try ProviderFixture.edited(file, replacing: #""centralrate":"1371.8079""#, with: #""centralrate":"""#)
        let newest = try #require(try parse(body).last)
        #expect(newest.quotes.count == 11)
        #expect(newest["USD"] == nil)
    }

    @Test("asks for the one list whatever the window")
    func requests() {
        let url = "https://www.cbn.gov.ng/api/GetAllExchangeRates"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: url)])
        #expect(provider.requests(for: .range(Day("2026-05-01")!, Day("2026-05-21")!)) == [ProviderRequest(url: url)])
        #expect(
            CBNProvider(baseURL: "http://127.0.0.1:8080/cbn").requests(for: .latest)[0].url == "http://127.0.0.1:8080/cbn/api/GetAllExchangeRates")
    }

    @Test("rejects a value that is not a decimal, a currency twice, an unknown currency name and a bad day")
    func alteredValues() throws {
        let day = Day("2026-05-21")!
        let value = try ProviderFixture.edited(file, replacing: #""centralrate":"1371.8079""#, with: #""centralrate":"1371.80.79""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "1371.80.79"))
        let twice = try ProviderFixture.edited(file, replacing: #""currency":"EURO""#, with: #""currency":"US DOLLAR""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let unknown = try ProviderFixture.edited(file, replacing: #""currency":"EURO""#, with: #""currency":"EUROPEAN CURRENCY""#)
        #expect(ProviderFixture.error { try parse(unknown) }?.isLayout(of: "CBN") == true)
        let date = try ProviderFixture.edited(file, replacing: #""ratedate":"2026-05-21""#, with: #""ratedate":"2026-02-30""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-02-30"))
        let missing = try ProviderFixture.edited(file, replacing: #","centralrate":"2.4200""#, with: "")
        #expect(ProviderFixture.error { try parse(missing) }?.isLayout(of: "CBN") == true)
    }

    @Test("rejects every truncation, an HTML error page, an empty body and an empty list")
    func notTheList() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 97) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(ProviderFixture.error { try parse(Array("[]".utf8)) } == .empty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try ["cbn-nigeria/00_api_GetAllExchangeRates.json"]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: CBNProvider()).count }
        #expect(counts == [6])
    }
}
