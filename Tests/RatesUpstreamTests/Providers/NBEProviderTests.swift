import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("NBE adapter")
struct NBEProviderTests {
    let provider = NBEProvider(today: { Day("2026-05-19")! })
    let first = "nbe-ethiopia/00_api_filter-exchange-rates_date=2026-05-18.json"
    let second = "nbe-ethiopia/01_api_filter-exchange-rates_date=2026-05-19.json"
    let day = Day("2026-05-18")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the days of 2026-05-18 and 2026-05-19: 19 currencies each, weighted averages in birr per unit")
    func days() throws {
        let monday = try #require(try parse(ProviderFixture.bytes(first)).first)
        #expect(monday.day == day)
        #expect(monday.quotes.count == 19)
        #expect(monday.quotes.allSatisfy { $0.direction == .pivotPerUnits && $0.unit == 1 })
        #expect(monday["USD"] == quote("USD", "157.227"))
        #expect(monday["XDR"] == quote("XDR", "216.8414"))
        #expect(monday["JPY"] == quote("JPY", "0.9965"))
        #expect(monday["ZAR"] == quote("ZAR", "9.487"))
        let tuesday = try parse(ProviderFixture.bytes(second))
        #expect(tuesday.map(\.day) == [Day("2026-05-19")!])
        #expect(tuesday.first?["CNY"] == quote("CNY", "23.2418"))
    }

    @Test("asks for one day per Monday to Friday; the newest publication as the last week's working days")
    func requests() {
        let base = "https://api.nbe.gov.et/api/filter-exchange-rates?date="
        // 2026-05-16 is a Saturday.
        #expect(provider.requests(for: .range(Day("2026-05-16")!, Day("2026-05-19")!)).map(\.url) == [base + "2026-05-18", base + "2026-05-19"])
        #expect(
            provider.requests(for: .latest).map(\.url) == ["2026-05-13", "2026-05-14", "2026-05-15", "2026-05-18", "2026-05-19"].map { base + $0 })
        #expect(provider.requests(for: .latest).allSatisfy { $0.method == .get && $0.body == nil })
    }

    @Test("a row whose weighted average is null, empty or zero has no figure and is left out; a day of such rows is no publication")
    func noWeightedAverage() throws {
        // Around the float (July to September 2024) some currencies had buying and selling rates but no
        // weighted average: three of 2026-05-18's rows given such values.
        var body = try ProviderFixture.edited(first, replacing: #""weighted_average":"515.7075""#, with: #""weighted_average":null"#)
        body = try #require(ProviderFixture.replacing(#""weighted_average":"0.9965""#, with: #""weighted_average":"""#, in: body))
        body = try #require(ProviderFixture.replacing(#""weighted_average":"9.487""#, with: #""weighted_average":"0.0000""#, in: body))
        let monday = try #require(try parse(body).first)
        #expect(monday.day == day)
        #expect(monday.quotes.count == 16)
        #expect(monday["KWD"] == nil && monday["JPY"] == nil && monday["ZAR"] == nil)
        #expect(monday["USD"] == quote("USD", "157.227"))
        // Every row without a weighted average: the day has none.
        let none = String(decoding: try ProviderFixture.bytes(first), as: UTF8.self)
            .replacingOccurrences(of: #""weighted_average":"[0-9.]+""#, with: #""weighted_average":null"#, options: .regularExpression)
        #expect(try parse(Array(none.utf8)) == [])
    }

    @Test("rejects a value that is not a decimal, a currency twice, a bad code or day, an answer that failed")
    func alteredValues() throws {
        let value = try ProviderFixture.edited(first, replacing: #""weighted_average":"157.227""#, with: #""weighted_average":"-157.227""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "-157.227"))
        let twice = try ProviderFixture.edited(first, replacing: #""code":"KWD""#, with: #""code":"JPY""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("JPY")!, day: day))
        let code = try ProviderFixture.edited(first, replacing: #""code":"KWD""#, with: #""code":"KWDX""#)
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("KWDX", day: day))
        let date = try ProviderFixture.edited(first, replacing: #""date":"2026-05-18""#, with: #""date":"18/05/2026""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("18/05/2026"))
        let failed = try ProviderFixture.edited(first, replacing: #""success":true"#, with: #""success":false"#)
        #expect(ProviderFixture.error { try parse(failed) }?.isLayout(of: "NBE") == true)
    }

    @Test("rejects every truncation, an HTML error page and an empty body; a day without rates is no publication")
    func notTheDay() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(first), stride: 53) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(try parse(Array(#"{"success":true,"message":"OK","status":200,"data":[]}"#.utf8)).isEmpty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try [first, second]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: NBEProvider()).count }
        #expect(counts == [1, 1])
    }
}
