import RatesCore
import RatesUpstream
import Testing

@Suite("CBC adapter")
struct CBCProviderTests {
    let provider = CBCProvider()
    let file = "cbc-taiwan/00_API_DataAPI_Get_FileName=BP01D01.txt"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the daily series since 1993-01-05: 8241 days, NTD read as TWD, XXX/USD as units per USD and USD/XXX as USD per unit")
    func series() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 8241)
        #expect(publications.first?.day == Day("1993-01-05")!)
        #expect(publications.last?.day == Day("2026-02-26")!)
        let newest = try #require(publications.last)
        #expect(newest.codes == ["AUD", "CAD", "CNY", "EUR", "GBP", "HKD", "IDR", "JPY", "KRW", "MYR", "PHP", "SGD", "THB", "TWD", "VND"])
        #expect(newest["TWD"] == quote("TWD", "31.251", .unitsPerPivot))
        #expect(newest["GBP"] == quote("GBP", "1.3547", .pivotPerUnits))
        #expect(newest["EUR"] == quote("EUR", "1.1816", .pivotPerUnits))
        #expect(newest["AUD"] == quote("AUD", "0.7123", .pivotPerUnits))
        // Trailing zeros stay as published.
        #expect(newest["IDR"] == quote("IDR", "16755.0", .unitsPerPivot))
        #expect(newest["THB"]?.value == "31.060")
        let first = try #require(publications.first)
        #expect(first.codes == ["AUD", "CAD", "CNY", "DEM", "FRF", "GBP", "HKD", "IDR", "JPY", "KRW", "MYR", "NLG", "SGD", "THB", "TWD"])
        #expect(first["DEM"] == quote("DEM", "1.6255", .unitsPerPivot))
        #expect(first["SGD"]?.value == "1.6560")
    }

    @Test("reads a label with white space around it: the pair is its last seven characters but spaces")
    func labelSpaces() throws {
        // The recorded labels are spaced unevenly (` 菲律賓披索PHP/USD` has a leading space); the yen's given a trailing one.
        let recorded = try parse(ProviderFixture.bytes(file))
        let spaced = try ProviderFixture.edited(file, replacing: #""data":"日圓JPY/USD""#, with: #""data":"日圓JPY/USD ""#)
        #expect(try parse(spaced) == recorded)
        #expect(recorded.last?["PHP"] != nil)
    }

    @Test("asks for the whole file, for the newest publication and for a range alike")
    func requests() {
        let url = "https://cpx.cbc.gov.tw/API/DataAPI/Get?FileName=BP01D01"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: url)])
        let range = provider.requests(for: .range(Day("2026-02-02")!, Day("2026-02-27")!))
        #expect(range == [ProviderRequest(url: url)])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(CBCProvider(baseURL: "http://127.0.0.1:8080/cbc").requests(for: .latest)[0].url == "http://127.0.0.1:8080/cbc/API/DataAPI/Get?FileName=BP01D01")
    }

    @Test("rejects a value that is not a decimal, a currency twice, a code ISO does not list, a bad or repeated day, a short row")
    func alteredFields() throws {
        let day = Day("2026-02-26")!
        let value = try ProviderFixture.edited(file, replacing: "\"31.251\",\"156.05\"", with: "\"31.251\",\"156,05\"")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("JPY")!, day: day, text: "156,05"))
        let number = try ProviderFixture.edited(file, replacing: "\"31.251\",\"156.05\"", with: "\"31.251\",156.05")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(number) }))
        let twice = try ProviderFixture.edited(file, replacing: "港幣HKD/USD", with: "港幣JPY/USD")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(twice) }))
        let code = try ProviderFixture.edited(file, replacing: "日圓JPY/USD", with: "日圓JPX/USD")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(code) }))
        let noDollar = try ProviderFixture.edited(file, replacing: "日圓JPY/USD", with: "日圓JPY/EUR")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(noDollar) }))
        let date = try ProviderFixture.edited(file, replacing: "\"20260226\"", with: "\"20260230\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("20260230"))
        let repeated = try ProviderFixture.edited(file, replacing: "\"20260226\"", with: "\"20260225\"")
        #expect(ProviderFixture.error { try parse(repeated) } == .duplicateDay(Day("2026-02-25")!))
        let short = try ProviderFixture.edited(file, replacing: ",\"26074.5\"]", with: "]")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(short) }))
    }

    @Test("rejects truncated bodies, an HTML error page, an empty body and a series without rows")
    func notTheFile() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 49999) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let rowless = #"{"meta":{},"data":{"dataSets":[],"structure":{"Table1":[{"data":"新台幣NTD/USD"}]}}}"#
        #expect(ProviderFixture.error { try parse(Array(rowless.utf8)) } == .empty)
    }
}
