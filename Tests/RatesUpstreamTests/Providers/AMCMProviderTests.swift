import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("AMCM adapter")
struct AMCMProviderTests {
    let provider = AMCMProvider(today: { Day("2026-05-24")! })
    let file = "amcm-macau/00_api_v1.0_cms_financial_info_Begin=20260518_End=20260522_QueryType=1.json"

    func parse(_ body: [UInt8]? = nil) throws -> [ProviderPublication] {
        try provider.parse(try body ?? ProviderFixture.bytes(file), of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? { ProviderFixture.error(body, provider) }

    @Test("reads 18–22 May 2026: 5 days of 17 currencies, the liquidity indicator LIQ skipped")
    func readsTheWeek() throws {
        let publications = try parse()
        #expect(publications.map(\.day.description) == ["2026-05-18", "2026-05-19", "2026-05-20", "2026-05-21", "2026-05-22"])
        #expect(publications.allSatisfy { $0.quotes.count == 17 && $0["LIQ"] == nil })
        #expect(publications[0].codes == ["AUD", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "HKD", "JPY", "KRW", "MYR", "NOK", "NZD", "SEK", "SGD", "TWD", "USD"])
    }

    @Test("figures are usdMean as written: MOP per unit, JPY and KRW per 100, trailing zeros kept")
    func figures() throws {
        let publications = try parse()
        #expect(ProviderFixture.quote("AUD", on: "2026-05-22", in: publications) == quote("AUD", "5.7635"))
        #expect(ProviderFixture.quote("GBP", on: "2026-05-22", in: publications) == quote("GBP", "10.8350"))
        #expect(ProviderFixture.quote("HKD", on: "2026-05-22", in: publications) == quote("HKD", "1.0300"))
        #expect(ProviderFixture.quote("JPY", on: "2026-05-22", in: publications) == quote("JPY", "5.0727", unit: 100))
        #expect(ProviderFixture.quote("KRW", on: "2026-05-22", in: publications) == quote("KRW", "0.5400", unit: 100))
        #expect(ProviderFixture.quote("USD", on: "2026-05-18", in: publications) == quote("USD", "8.0643"))
    }

    @Test("the last seven days for latest; 90-day spans for a range, days as YYYYMMDD")
    func requests() {
        let root = "https://www.amcm.gov.mo/api/v1.0/cms/financial_info?"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: root + "Begin=20260517&End=20260524&QueryType=1")])
        #expect(provider.requests(for: .range(Day("2026-05-18")!, Day("2026-05-22")!)).map(\.url) == [root + "Begin=20260518&End=20260522&QueryType=1"])
        let year = provider.requests(for: .range(Day("2025-01-01")!, Day("2025-12-31")!))
        #expect(year.count == 5)
        #expect(year.first?.url == root + "Begin=20250101&End=20250331&QueryType=1")
        #expect(year.last?.url == root + "Begin=20251227&End=20251231&QueryType=1")
        #expect(year.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(AMCMProvider(baseURL: "http://127.0.0.1:9/amcm", today: { Day("2026-05-24")! }).requests(for: .latest)[0].url
            == "http://127.0.0.1:9/amcm/api/v1.0/cms/financial_info?Begin=20260517&End=20260524&QueryType=1")
    }

    @Test("a figure that is not a decimal, a zero, a figure as a number, a fractional unit reject the answer")
    func badFigures() throws {
        let day = Day("2026-05-22")!
        let comma = try ProviderFixture.edited(file, replacing: "\"usdMean\":\"5.7635\"", with: "\"usdMean\":\"5,7635\"")
        #expect(error(comma) == .invalidRate(currency: CurrencyCode("AUD")!, day: day, text: "5,7635"))
        let zero = try ProviderFixture.edited(file, replacing: "\"usdMean\":\"5.7635\"", with: "\"usdMean\":\"0.0000\"")
        #expect(error(zero) == .invalidRate(currency: CurrencyCode("AUD")!, day: day, text: "0.0000"))
        let number = try ProviderFixture.edited(file, replacing: "\"usdMean\":\"5.7635\"", with: "\"usdMean\":5.7635")
        #expect(error(number)?.isLayout(of: "AMCM") == true)
        let unit = try ProviderFixture.edited(file, replacing: "\"currency\":\"JPY\",\"unit\":100.0", with: "\"currency\":\"JPY\",\"unit\":100.5")
        #expect(error(unit)?.isLayout(of: "AMCM") == true)
        let noUnit = try ProviderFixture.edited(file, replacing: "\"currency\":\"JPY\",\"unit\":100.0", with: "\"currency\":\"JPY\",\"unit\":0.0")
        #expect(error(noUnit)?.isLayout(of: "AMCM") == true)
    }

    @Test("a currency twice, a bad code, a day that does not exist or is not at midnight reject the answer")
    func badRecords() throws {
        let twice = try ProviderFixture.edited(file, replacing: "\"currency\":\"CAD\"", with: "\"currency\":\"AUD\"")
        #expect(error(twice) == .duplicateCurrency(CurrencyCode("AUD")!, day: Day("2026-05-22")!))
        let code = try ProviderFixture.edited(file, replacing: "\"currency\":\"CAD\"", with: "\"currency\":\"Cad\"")
        #expect(error(code) == .invalidCurrencyCode("Cad", day: Day("2026-05-22")!))
        let day = try ProviderFixture.edited(file, replacing: "\"date\":\"2026-05-22 00:00:00\"", with: "\"date\":\"2026-05-32 00:00:00\"")
        #expect(error(day) == .invalidDay("2026-05-32"))
        let time = try ProviderFixture.edited(file, replacing: "\"date\":\"2026-05-22 00:00:00\"", with: "\"date\":\"2026-05-22 09:00:00\"")
        #expect(error(time) == .invalidDay("2026-05-22 09:00:00"))
        let failed = try ProviderFixture.edited(file, replacing: "\"message\":\"OK\"", with: "\"message\":\"Error\"")
        #expect(error(failed)?.isLayout(of: "AMCM") == true)
    }

    @Test("an answer without records, a span of weekends and holidays only, is no publication")
    func noRecords() throws {
        // The recording with its records taken out, its envelope ("message":"OK", "code", "type") kept.
        let text = try #require(String(validating: try ProviderFixture.bytes(file), as: UTF8.self))
        let start = try #require(text.range(of: "\"data\":["))
        let end = try #require(text.range(of: "}],\"code\":", options: .backwards))
        let empty = String(text[..<start.upperBound]) + String(text[text.index(after: end.lowerBound)...])
        #expect(empty.hasSuffix("\"data\":[],\"code\":0,\"type\":\"Success\"}"))
        #expect(try parse(Array(empty.utf8)).isEmpty)
    }

    @Test("a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        #expect(error(try ProviderFixture.truncated(file))?.isLayout(of: "AMCM") == true)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file)) {
            #expect(error(cut) != nil, "a cut at \(cut.count) bytes parsed")
        }
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "AMCM") == true)
        #expect(error([]) == .empty)
    }
}
