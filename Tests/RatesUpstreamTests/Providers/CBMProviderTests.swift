import RatesCore
import RatesUpstream
import Testing

@Suite("CBM adapter")
struct CBMProviderTests {
    let provider = CBMProvider()
    let file = "cbm-myanmar/00_api_latest.json"
    let day = Day("2026-04-09")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the table of 2026-04-09: 38 currencies, kyats per unit, six of them per 100 units")
    func latestTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 1)
        let table = try #require(publications.first)
        #expect(table.day == day)
        #expect(table.quotes.count == 38)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        // Trailing zeros stay as published.
        #expect(table["USD"] == quote("USD", "2100.00"))
        #expect(table["EUR"] == quote("EUR", "2449.65"))
        #expect(table["KWD"] == quote("KWD", "6851.55"))
        #expect(table["JPY"] == quote("JPY", "1321.88", unit: 100))
        #expect(table["VND"] == quote("VND", "7.98", unit: 100))
        #expect(table["LKR"] == quote("LKR", "6.66"))
        #expect(table.quotes.filter { $0.unit == 100 }.map(\.currency.rawValue).sorted() == ["IDR", "JPY", "KHR", "KRW", "LAK", "VND"])
    }

    @Test("asks for the latest table, and for a range one history table per Monday to Friday")
    func requests() {
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: "https://forex.cbm.gov.mm/api/latest")])
        // 2026-04-04 is a Saturday.
        let range = provider.requests(for: .range(Day("2026-04-04")!, Day("2026-04-08")!))
        #expect(
            range.map(\.url) == [
                "https://forex.cbm.gov.mm/api/history/06-04-2026",
                "https://forex.cbm.gov.mm/api/history/07-04-2026",
                "https://forex.cbm.gov.mm/api/history/08-04-2026",
            ])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(CBMProvider(baseURL: "http://127.0.0.1:8080/cbm").requests(for: .latest)[0].url == "http://127.0.0.1:8080/cbm/api/latest")
    }

    @Test("a figure with commas between groups of three digits reads as the same digits without them")
    func groupedFigures() throws {
        // The API's tables of 2016 and 2021 write figures of a thousand and more so ("USD":"1,300.0",
        // "KWD":"4,243.9"); this one is the 2026 recording with two figures written that way.
        var body = try ProviderFixture.edited(file, replacing: #""USD":"2100.00""#, with: #""USD":"2,100.00""#)
        body = try #require(ProviderFixture.replacing(#""KWD":"6851.55""#, with: #""KWD":"6,851.55""#, in: body))
        let table = try #require(try parse(body).first)
        #expect(table.quotes.count == 38)
        #expect(table["USD"] == quote("USD", "2100.00"))
        #expect(table["KWD"] == quote("KWD", "6851.55"))
        // A whole number with a grouping comma is a thousand times the digits before it, not a fraction.
        let whole = try ProviderFixture.edited(file, replacing: #""USD":"2100.00""#, with: #""USD":"2,100""#)
        #expect(try parse(whole).first?["USD"] == quote("USD", "2100"))
    }

    @Test("rejects a value that is not a decimal, a misplaced grouping comma, a decimal comma, a currency twice, a bad code and a bad timestamp")
    func alteredValues() throws {
        let value = try ProviderFixture.edited(file, replacing: #""USD":"2100.00""#, with: #""USD":"2100.0x""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "2100.0x"))
        let group = try ProviderFixture.edited(file, replacing: #""USD":"2100.00""#, with: #""USD":"21,00.00""#)
        #expect(ProviderFixture.error { try parse(group) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "21,00.00"))
        let comma = try ProviderFixture.edited(file, replacing: #""USD":"2100.00""#, with: #""USD":"2100,00""#)
        #expect(ProviderFixture.error { try parse(comma) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "2100,00"))
        let twice = try ProviderFixture.edited(file, replacing: #""IDR":"#, with: #""USD":"#)
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(twice) }))
        let code = try ProviderFixture.edited(file, replacing: #""IDR":"#, with: #""Idr":"#)
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("Idr", day: day))
        let stamp = try ProviderFixture.edited(file, replacing: #""timestamp":"1775721600""#, with: #""timestamp":"2026-04-09""#)
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(stamp) }))
        let zero = try ProviderFixture.edited(file, replacing: #""LAK":"9.52""#, with: #""LAK":"0.00""#)
        #expect(ProviderFixture.error { try parse(zero) } == .invalidRate(currency: CurrencyCode("LAK")!, day: day, text: "0.00"))
    }

    @Test("rejects every truncation, an HTML error page, an empty body and a table without rates")
    func notTheTable() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 17) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(ProviderFixture.error { try parse(Array(#"{"timestamp":"1775721600","rates":{}}"#.utf8)) } == .emptyDay(day))
        #expect(try parse(Array(#"{"timestamp":"1775721600","rates":[]}"#.utf8)).isEmpty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try ["cbm-myanmar/00_api_latest.json"]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: CBMProvider()).count }
        #expect(counts == [1])
    }
}
