import RatesCore
import RatesUpstream
import Testing

@Suite("NRB adapter")
struct NRBProviderTests {
    let provider = NRBProvider(today: { Day("2026-04-05")! })
    let file = "nrb-nepal/00_api_forex_v1_rates_from=2026-04-01_page=1_per_page=100_to=2026-04-05.json"
    let day = Day("2026-04-01")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads 2026-04-01 to 2026-04-05: 22 currencies a day, the exact midpoint of buying and selling per unit")
    func days() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-04-01", "2026-04-02", "2026-04-03", "2026-04-04", "2026-04-05"])
        #expect(publications.allSatisfy { $0.quotes.count == 22 })
        let first = try #require(publications.first)
        #expect(first.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        #expect(first["USD"] == quote("USD", "151.74"))
        #expect(first["INR"] == quote("INR", "160.075", unit: 100))
        #expect(first["JPY"] == quote("JPY", "9.51", unit: 10))
        #expect(first["KRW"] == quote("KRW", "9.94", unit: 100))
        #expect(first["THB"] == quote("THB", "4.615"))
        #expect(first["AUD"] == quote("AUD", "104.305"))
    }

    @Test("asks for one page of at most 100 days; the newest publication as the last seven days")
    func requests() {
        let base = "https://www.nrb.org.np/api/forex/v1/rates"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: base + "?from=2026-03-29&to=2026-04-05&per_page=100&page=1")])
        #expect(
            provider.requests(for: .range(Day("2026-01-01")!, Day("2026-04-30")!)).map(\.url) == [
                base + "?from=2026-01-01&to=2026-04-10&per_page=100&page=1",
                base + "?from=2026-04-11&to=2026-04-30&per_page=100&page=1",
            ])
    }

    @Test("rejects a value that is not a decimal, a currency twice, a bad code, unit or day, an answer of several pages")
    func alteredValues() throws {
        let value = try ProviderFixture.edited(file, replacing: #""buy":"151.44""#, with: #""buy":"151.4.4""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "151.4.4"))
        let twice = try ProviderFixture.edited(file, replacing: #""iso3":"EUR""#, with: #""iso3":"USD""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let code = try ProviderFixture.edited(file, replacing: #""iso3":"EUR""#, with: #""iso3":"eur""#)
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("eur", day: day))
        let unit = try ProviderFixture.edited(file, replacing: #""unit":100"#, with: #""unit":"one hundred""#)
        #expect(ProviderFixture.error { try parse(unit) }?.isLayout(of: "NRB") == true)
        let date = try ProviderFixture.edited(file, replacing: #""date":"2026-04-01""#, with: #""date":"2026-04-31""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-04-31"))
        let pages = try ProviderFixture.edited(file, replacing: #""pages":1"#, with: #""pages":2"#)
        #expect(ProviderFixture.error { try parse(pages) }?.isLayout(of: "NRB") == true)
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notTheAnswer() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 89) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try [file]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: NRBProvider()).count }
        #expect(counts == [5])
    }
}
