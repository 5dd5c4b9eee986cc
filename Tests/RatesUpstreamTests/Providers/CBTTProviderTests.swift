import RatesCore
import RatesUpstream
import Testing

@Suite("CBTT adapter")
struct CBTTProviderTests {
    let provider = CBTTProvider(today: { Day("2026-09-08")! })
    let file = "cbtt-trinidad/01_2026-2026.json"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads 2026: 169 days with rates of 251, the exact midpoint of buying and selling, one-sided currencies skipped")
    func year() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 169)
        #expect(publications.first?.day == Day("2026-01-02"))
        #expect(publications.last?.day == Day("2026-09-08"))
        #expect(publications.map(\.quotes.count).reduce(0, +) == 1202)
        let last = try #require(publications.last)
        #expect(last.codes == ["BBD", "CAD", "EUR", "GBP", "GYD", "JMD", "USD"], "CHF has no buying rate that day")
        #expect(last["USD"] == quote("USD", "6.75145"))
        #expect(last["EUR"] == quote("EUR", "8.5837"))
        #expect(last["JMD"] == quote("JMD", "0.0421"))
        // Buying above selling: the midpoint all the same.
        #expect(ProviderFixture.quote("EUR", on: "2026-01-05", in: publications) == quote("EUR", "8.8607"))
        #expect(ProviderFixture.quote("CHF", on: "2026-01-05", in: publications) == nil)
    }

    @Test("asks for the years of the window")
    func requests() {
        let base = "https://www.central-bank.org.tt/wp-json/rates/v1/forex-rate/"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: base + "2026-2026")])
        #expect(provider.requests(for: .range(Day("2024-12-30")!, Day("2026-01-05")!)) == [ProviderRequest(url: base + "2024-2026")])
        #expect(CBTTProvider(today: { Day("2026-01-03")! }).requests(for: .latest)[0].url == base + "2025-2026")
    }

    @Test("rejects a value that is not a decimal, a day twice, a bad day, an unknown column")
    func alteredValues() throws {
        let day = Day("2026-09-08")!
        let value = try ProviderFixture.edited(file, replacing: #""USD_Buying":"6.7039""#, with: #""USD_Buying":"6.70 39x""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "6.70 39x"))
        let twice = try ProviderFixture.edited(file, replacing: #""famedate":"2026-09-07""#, with: #""famedate":"2026-09-08""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateDay(day))
        let date = try ProviderFixture.edited(file, replacing: #""famedate":"2026-09-08""#, with: #""famedate":"2026-09-31""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-09-31"))
        let column = try ProviderFixture.edited(file, replacing: #""JMD_Selling":"0.0430""#, with: #""JMD_Selling":"0.0430","JPY_Buying":"0.0460""#)
        #expect(ProviderFixture.error { try parse(column) }?.isLayout(of: "CBTT") == true)
    }

    @Test("rejects truncations, an HTML error page and an empty body; a span without rows is no publication")
    func notTheAnswer() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 2999) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(try parse(Array(#"{"cbttdailyforexrates":{"famedate":null,"USD_Buying":null}}"#.utf8)).isEmpty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try [file]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: CBTTProvider()).count }
        #expect(counts == [169])
    }
}
