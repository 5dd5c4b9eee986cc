import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BOM adapter")
struct BOMProviderTests {
    let provider = BOMProvider(today: { Day("2026-05-22")! })
    let file = "bom-mongolia/00_en_currency-rate-movement_data_e1323986.json"

    func parse(_ body: [UInt8]? = nil) throws -> [ProviderPublication] {
        try provider.parse(try body ?? ProviderFixture.bytes(file), of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? { ProviderFixture.error(body, provider) }

    @Test("reads 19–22 May 2026: 36 figures a day, the SDR as XDR, gold and silver skipped")
    func readsTheWeek() throws {
        let publications = try parse()
        #expect(publications.map(\.day.description) == ["2026-05-19", "2026-05-20", "2026-05-21", "2026-05-22"])
        #expect(publications.allSatisfy { $0.quotes.count == 36 && $0["XAU"] == nil && $0["XAG"] == nil && $0["SDR"] == nil })
        #expect(publications[3]["XDR"] == quote("XDR", "4887.93"))
    }

    @Test("figures are MNT per 1 unit as written, thousands commas dropped, two decimals even for small units")
    func figures() throws {
        let may22 = try #require(try parse().last)
        #expect(may22["USD"] == quote("USD", "3576.42"))
        #expect(may22["KWD"] == quote("KWD", "11657.17"))
        #expect(may22["CHF"] == quote("CHF", "4549.00"))
        #expect(may22["JPY"] == quote("JPY", "22.47"))
        #expect(may22["IDR"] == quote("IDR", "0.20"))
        #expect(may22["KPW"] == quote("KPW", "27.51"))
    }

    @Test("one POST of the range as JSON; latest is the last seven days")
    func requests() {
        let range = provider.requests(for: .range(Day("2026-05-19")!, Day("2026-05-22")!))
        #expect(range == [
            ProviderRequest(
                url: "https://www.mongolbank.mn/en/currency-rate-movement/data", method: .post,
                headers: ["Content-Type": "application/json", "Accept": "application/json"], body: #"{"startDate":"2026-05-19","endDate":"2026-05-22"}"#)
        ])
        #expect(provider.requests(for: .latest).map(\.body) == [#"{"startDate":"2026-05-15","endDate":"2026-05-22"}"#])
    }

    @Test("a figure that is not a decimal, a currency twice, a bad code or day rejects the answer; an empty figure is none")
    func badFigures() throws {
        let day = Day("2026-05-22")!
        let comma = try ProviderFixture.edited(file, replacing: "\"USD\":\"3,576.42\"", with: "\"USD\":\"3576,42\"")
        #expect(error(comma) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "3576,42"))
        let dash = try ProviderFixture.edited(file, replacing: "\"USD\":\"3,576.42\"", with: "\"USD\":\"-\"")
        #expect(error(dash) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "-"))
        let number = try ProviderFixture.edited(file, replacing: "\"USD\":\"3,576.42\"", with: "\"USD\":3576.42")
        #expect(error(number)?.isLayout(of: "BOM") == true)
        let twice = try ProviderFixture.edited(file, replacing: "\"JPY\":\"22.47\"", with: "\"XDR\":\"22.47\"")
        #expect(error(twice) == .duplicateCurrency(CurrencyCode("XDR")!, day: day))
        let code = try ProviderFixture.edited(file, replacing: "\"JPY\":\"22.47\"", with: "\"JPYX\":\"22.47\"")
        #expect(error(code) == .invalidCurrencyCode("JPYX", day: day))
        let badDay = try ProviderFixture.edited(file, replacing: "\"RATE_DATE\":\"2026-05-22\"", with: "\"RATE_DATE\":\"22.05.2026\"")
        #expect(error(badDay) == .invalidDay("22.05.2026"))
        let empty = try ProviderFixture.edited(file, replacing: "\"USD\":\"3,576.42\"", with: "\"USD\":\"\"")
        #expect(try parse(empty).last?["USD"] == nil)
    }

    @Test("no success, a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        let failed = try ProviderFixture.edited(file, replacing: "\"success\":true", with: "\"success\":false")
        #expect(error(failed)?.isLayout(of: "BOM") == true)
        #expect(error(try ProviderFixture.truncated(file))?.isLayout(of: "BOM") == true)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file)) {
            #expect(error(cut) != nil, "a cut at \(cut.count) bytes parsed")
        }
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BOM") == true)
        #expect(error([]) == .empty)
    }

    @Test("a range without a rate (\"data\":[]) is no publication")
    func noDays() throws {
        // The recorded answer with its days taken out, as the bank answers a weekend or a holiday.
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let open = try #require(text.range(of: #""data":["#))
        let close = try #require(text.range(of: #"],"langData""#))
        let empty = String(text[..<open.upperBound]) + String(text[close.lowerBound...])
        #expect(try parse(Array(empty.utf8)).isEmpty)
    }
}
