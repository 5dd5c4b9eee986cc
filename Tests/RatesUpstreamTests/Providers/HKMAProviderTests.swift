import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("HKMA adapter")
struct HKMAProviderTests {
    let provider = HKMAProvider()
    static let endpoint = "https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily"
    let request = ProviderRequest(url: endpoint + "?choose=end_of_day&from=2026-02-25&offset=0&pagesize=100&sortby=end_of_day&sortorder=desc&to=2026-02-28")
    static let file = "hkma-hongkong/er-eeri-daily_2026-02-25_2026-02-28.json"

    @Test("reads 2026-02-25..28: 17 currencies a day plus the SDR where published, HKD per 1 unit, no indices or legacy currencies")
    func recordedDays() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.file), of: request)
        #expect(publications.map(\.day) == ["2026-02-25", "2026-02-26", "2026-02-27", "2026-02-28"].map(day))
        #expect(publications.map(\.quotes.count) == [18, 18, 18, 17])
        let saturday = publications[3]
        #expect(saturday["XDR"] == nil, "null on 2026-02-28")
        #expect(saturday["USD"] == quote("USD", "7.8245"), "printed 7.8245000000000005")
        #expect(saturday["JPY"] == quote("JPY", "0.05012"))
        #expect(saturday["IDR"] == quote("IDR", "0.0004666"))
        #expect(saturday["EUR"] == quote("EUR", "9.245"))
        #expect(publications[2]["USD"] == quote("USD", "7.825"))
        #expect(publications[2]["XDR"] == quote("XDR", "10.75757525"))
        #expect(publications[0]["CNY"] == quote("CNY", "1.13945"))
        #expect(publications.allSatisfy { $0["DEM"] == nil && $0["FRF"] == nil && $0["HKD"] == nil })
        #expect(publications[0].codes == [
            "AUD", "CAD", "CHF", "CNY", "EUR", "GBP", "IDR", "INR", "JPY", "KRW", "MYR", "PHP", "SGD", "THB", "TWD", "USD", "XDR", "ZAR",
        ])
    }

    @Test("rejects a rate replaced by garbage, a legacy currency with a zero rate, an unknown field and a bad day")
    func rejectsBadRecords() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        let saturday = day("2026-02-28")
        let garbage = try #require(ProviderFixture.replacing(#""usd":7.8245000000000005"#, with: #""usd":"7.82 HKD""#, in: bytes))
        #expect(ProviderFixture.error(garbage, provider, request: request) == .invalidRate(currency: CurrencyCode("USD")!, day: saturday, text: "7.82 HKD"))
        let zero = try #require(ProviderFixture.replacing(#""dem":null"#, with: #""dem":0"#, in: bytes))
        #expect(ProviderFixture.error(zero, provider, request: request) == .invalidRate(currency: CurrencyCode("DEM")!, day: saturday, text: "0"))
        let unknown = try #require(ProviderFixture.replacing(#""special_drawing_rights":null"#, with: #""sdr_rate":1.0"#, in: bytes))
        #expect(ProviderFixture.error(unknown, provider, request: request)?.isUnexpectedLayout == true)
        let duplicate = try #require(ProviderFixture.replacing(#""gbp":10.549"#, with: #""usd":10.549"#, in: bytes))
        #expect(ProviderFixture.error(duplicate, provider, request: request)?.isUnexpectedLayout == true, "a key twice in a record")
        let twice = try #require(ProviderFixture.replacing(#""end_of_day":"2026-02-27""#, with: #""end_of_day":"2026-02-28""#, in: bytes))
        #expect(ProviderFixture.error(twice, provider, request: request) == .duplicateDay(saturday))
        let badDay = try #require(ProviderFixture.replacing(#""end_of_day":"2026-02-28""#, with: #""end_of_day":"2026-02-29""#, in: bytes))
        #expect(ProviderFixture.error(badDay, provider, request: request) == .invalidDay("2026-02-29"))
    }

    @Test("rejects truncated answers, an HTML error page, an empty body and a failure header")
    func rejectsWrongAnswers() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        for prefix in ProviderFixture.truncations(of: bytes, stride: 97) {
            #expect(ProviderFixture.error(prefix, provider, request: request)?.isUnexpectedLayout == true, "prefix of \(prefix.count) bytes")
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: request)?.isUnexpectedLayout == true)
        #expect(ProviderFixture.error([], provider, request: request) == .empty)
        let failure = #"{"header":{"success":false,"err_code":"0208","err_msg":"Invalid date range"},"result":{"datasize":0,"records":[]}}"#
        #expect(ProviderFixture.error(Array(failure.utf8), provider, request: request) == .unexpectedLayout(provider: "HKMA", "the answer reports failure: \"Invalid date range\""))
        let none = #"{"header":{"success":true,"err_code":"0000","err_msg":"No error found"},"result":{"datasize":0,"records":[]}}"#
        #expect(ProviderFixture.error(Array(none.utf8), provider, request: request) == .empty)
    }

    @Test("asks for the ten newest days, and a range in spans of 1000 days")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == [Self.endpoint + "?offset=0&pagesize=10&sortby=end_of_day&sortorder=desc"])
        #expect(provider.requests(for: .range(day("2026-02-25"), day("2026-02-28"))).map(\.url) == [
            Self.endpoint + "?choose=end_of_day&from=2026-02-25&to=2026-02-28&offset=0&pagesize=1000&sortby=end_of_day&sortorder=desc"
        ])
        #expect(provider.requests(for: .range(day("2020-01-01"), day("2026-02-28"))).count == 3)
        #expect(provider.key == "HKMA" && provider.pivot.rawValue == "HKD" && provider.schedule.cadence == .monthly)
    }
}
