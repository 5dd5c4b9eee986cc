import Foundation
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

    @Test("a side blank or zero, as older years write a side without deals, leaves the currency out that day")
    func blankOrZeroSide() throws {
        // The bank's 1996 rows have "GYD_Buying":"0.0000","GYD_Selling":"0.0000": the recording's last day written so.
        // Its USD buying side is made blank too.
        let all = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let start = all.range(of: #"{"famedate":"2026-09-08""#)!.lowerBound
        let day = all[start...]
            .replacingOccurrences(of: #""GYD_Buying":"0.0315","GYD_Selling":"0.0329""#, with: #""GYD_Buying":"0.0000","GYD_Selling":"0.0000""#)
            .replacingOccurrences(of: #""USD_Buying":"6.7039""#, with: #""USD_Buying":"""#)
        #expect(day.contains(#""GYD_Buying":"0.0000""#) && day.contains(#""USD_Buying":"""#))
        let last = try #require(try parse(Array((all[..<start] + day).utf8)).last)
        #expect(last.day == Day("2026-09-08")!)
        #expect(last.codes == ["BBD", "CAD", "EUR", "GBP", "JMD"])
        #expect(last["JMD"] == quote("JMD", "0.0421"))
    }

    @Test("a span without rows, one object with the span as its famedate and every figure null, is no publication")
    func spanWithoutRows() throws {
        // The bank's answer for a span it has no rows of: the recording's first row (every figure null) alone,
        // as an object instead of an array, its famedate the span.
        let all = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let row = String(all[all.range(of: "[")!.upperBound...].prefix { $0 != "}" }) + "}"
        let span = #"{"cbttdailyforexrates":"# + row.replacingOccurrences(of: #""famedate":"2026-01-01""#, with: #""famedate":"2027-2027""#) + "}"
        #expect(span.hasPrefix(#"{"cbttdailyforexrates":{"famedate":"2027-2027","USD_Buying":null,"#))
        #expect(try parse(Array(span.utf8)).isEmpty)
        // An object with a figure in it is no such answer.
        let figure = span.replacingOccurrences(of: #""USD_Buying":null"#, with: #""USD_Buying":"6.7017""#)
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(Array(figure.utf8)) }))
    }

    @Test("the whole history reads from 1991, the series' first year; a row dated before it is left out")
    func history() throws {
        // `…/forex-rate/all` answers every year since 1991 in the same rows: the recording's first day with rates dated 1991-01-02.
        let old = try ProviderFixture.edited(file, replacing: #""famedate":"2026-01-02""#, with: #""famedate":"1991-01-02""#)
        let publications = try parse(old)
        #expect(publications.count == 169)
        #expect(publications.first?.day == Day("1991-01-02"))
        #expect(publications.first?["USD"] == quote("USD", "6.75045"))
        let before = try ProviderFixture.edited(file, replacing: #""famedate":"2026-01-02""#, with: #""famedate":"1990-12-31""#)
        let kept = try parse(before)
        #expect(kept.count == 168)
        #expect(kept.first?.day == Day("2026-01-05"))
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try [file]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: CBTTProvider()).count }
        #expect(counts == [169])
    }
}
