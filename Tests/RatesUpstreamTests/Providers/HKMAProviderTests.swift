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
    }

    @Test("a page without records is no publication")
    func noRecords() throws {
        let none = #"{"header":{"success":true,"err_code":"0000","err_msg":"No error found"},"result":{"datasize":0,"records":[]}}"#
        #expect(try provider.parse(Array(none.utf8), of: request).isEmpty)
    }

    @Test("a record with no currency's figure, only indices, is no publication for its day; the others read")
    func recordWithoutCurrencies() throws {
        // The recording with one more record in front: the Saturday's with every currency null, as the
        // bulletin writes a day it has indices but no rates for.
        let all = String(decoding: try ProviderFixture.bytes(Self.file), as: UTF8.self)
        let start = all.range(of: #"{"end_of_day":"2026-02-28""#)!
        let end = all[start.lowerBound...].range(of: "}")!.upperBound
        var record = String(all[start.lowerBound..<end]).replacingOccurrences(of: "2026-02-28", with: "2026-03-01")
        for field in ["usd", "gbp", "jpy", "cad", "aud", "sgd", "twd", "chf", "cny", "krw", "thb", "myr", "eur", "php", "inr", "idr", "zar"] {
            record = record.replacingOccurrences(of: #""\#(field)":[0-9.]+"#, with: #""\#(field)":null"#, options: .regularExpression)
        }
        #expect(record.contains(#""usd":null,"gbp":null"#) && record.contains(#""neeri_2020_trade_wgt":101.2"#))
        let body = all.replacingCharacters(in: start.lowerBound..<start.lowerBound, with: record + ",")
        let publications = try provider.parse(Array(body.utf8), of: request)
        #expect(publications.map(\.day) == ["2026-02-25", "2026-02-26", "2026-02-27", "2026-02-28"].map(day))
        #expect(publications[3]["USD"] == quote("USD", "7.8245"))
    }

    @Test("reads days back to 1981-01-02, the series' first; an earlier day is refused")
    func history() throws {
        // A range from before 1999 is answered in the same records: the recording's Saturday dated on the series' first day.
        let bytes = try ProviderFixture.bytes(Self.file)
        let old = try #require(ProviderFixture.replacing(#""end_of_day":"2026-02-28""#, with: #""end_of_day":"1981-01-02""#, in: bytes))
        let publications = try provider.parse(old, of: request)
        #expect(publications.first?.day == day("1981-01-02"))
        #expect(publications.first?["USD"] == quote("USD", "7.8245"))
        let before = try #require(ProviderFixture.replacing(#""end_of_day":"2026-02-28""#, with: #""end_of_day":"1980-12-31""#, in: bytes))
        #expect(ProviderFixture.error(before, provider, request: request) == .dayOutOfRange(day("1980-12-31")))
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
