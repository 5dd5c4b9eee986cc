import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BOC adapter")
struct BOCProviderTests {
    let provider = BOCProvider()
    let request = ProviderRequest(url: "https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?start_date=2026-03-12")
    static let file = "boc-canada/valet_group_FX_RATES_DAILY_start-2026-03-12.json"

    @Test("reads FX_RATES_DAILY from 2026-03-12: 5 days of 23 currencies, CAD per 1 unit, value texts as published")
    func recordedGroup() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.file), of: request)
        #expect(publications.map(\.day) == ["2026-03-12", "2026-03-13", "2026-03-16", "2026-03-17", "2026-03-18"].map(day))
        #expect(publications.allSatisfy { $0.quotes.count == 23 })
        #expect(publications[0].codes == [
            "AUD", "BRL", "CHF", "CNY", "EUR", "GBP", "HKD", "IDR", "INR", "JPY", "KRW", "MXN", "NOK", "NZD", "PEN", "RUB", "SAR", "SEK",
            "SGD", "TRY", "TWD", "USD", "ZAR",
        ])
        #expect(publications[0]["USD"] == quote("USD", "1.3617"))
        #expect(publications[0]["JPY"] == quote("JPY", "0.008550"))
        #expect(publications[2]["IDR"] == quote("IDR", "0.000080"))
        #expect(publications[4]["USD"] == quote("USD", "1.3706"))
        #expect(publications[4]["EUR"] == quote("EUR", "1.5774"))
        #expect(publications[4]["TRY"] == quote("TRY", "0.03100"))
        #expect(publications[4]["GBP"] == quote("GBP", "1.8258"))
        // Listed in seriesDetail, not observed in 2026.
        #expect(publications.allSatisfy { $0["MYR"] == nil && $0["THB"] == nil && $0["VND"] == nil })
    }

    @Test("rejects a value replaced by garbage, a duplicated series, an unknown series, a missing v and a bad day")
    func rejectsBadObservations() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        let twelfth = day("2026-03-12")
        let usd = #""FXUSDCAD": {"#
        let garbage = try #require(ProviderFixture.replacing(#""v": "0.9661""#, with: #""v": "n/a""#, in: bytes))
        #expect(ProviderFixture.error(garbage, provider, request: request) == .invalidRate(currency: CurrencyCode("AUD")!, day: twelfth, text: "n/a"))
        let zero = try #require(ProviderFixture.replacing(#""v": "0.9661""#, with: #""v": "0.0000""#, in: bytes))
        #expect(ProviderFixture.error(zero, provider, request: request) == .invalidRate(currency: CurrencyCode("AUD")!, day: twelfth, text: "0.0000"))
        // A currency twice in one observation is a duplicate key, which the reader refuses.
        let duplicate = try #require(ProviderFixture.replacing(#""FXEURCAD": {"#, with: usd, in: observations(bytes)))
        #expect(ProviderFixture.error(duplicate, provider, request: request)?.isUnexpectedLayout == true)
        let unknown = try #require(ProviderFixture.replacing(#""FXUSDCAD": {"#, with: #""IEXE0101": {"#, in: observations(bytes)))
        #expect(ProviderFixture.error(unknown, provider, request: request)?.isUnexpectedLayout == true)
        let lowercase = try #require(ProviderFixture.replacing(#""FXUSDCAD": {"#, with: #""FXusdCAD": {"#, in: observations(bytes)))
        #expect(ProviderFixture.error(lowercase, provider, request: request) == .invalidCurrencyCode("usd", day: twelfth))
        let noValue = try #require(ProviderFixture.replacing(#""v": "0.9661""#, with: #""value": "0.9661""#, in: bytes))
        #expect(ProviderFixture.error(noValue, provider, request: request)?.isUnexpectedLayout == true)
        let badDay = try #require(ProviderFixture.replacing(#""d": "2026-03-13""#, with: #""d": "13/03/2026""#, in: bytes))
        #expect(ProviderFixture.error(badDay, provider, request: request) == .invalidDay("13/03/2026"))
    }

    @Test("rejects truncated answers, an HTML error page, an empty body and an answer without observations")
    func rejectsWrongAnswers() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        for prefix in ProviderFixture.truncations(of: bytes, stride: 211) {
            #expect(ProviderFixture.error(prefix, provider, request: request)?.isUnexpectedLayout == true, "prefix of \(prefix.count) bytes")
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: request)?.isUnexpectedLayout == true)
        #expect(ProviderFixture.error([], provider, request: request) == .empty)
        #expect(ProviderFixture.error(Array(#"{"message": "Series not found"}"#.utf8), provider, request: request)?.isUnexpectedLayout == true)
    }

    @Test("a range without a business day (no observations) is no publication")
    func noObservations() throws {
        // The recorded answer with its observations taken out, as Valet answers a weekend or 25–26 December.
        let text = String(decoding: try ProviderFixture.bytes(Self.file), as: UTF8.self)
        let open = try #require(text.range(of: #""observations": ["#))
        let empty = String(text[..<open.upperBound]) + "]\n}\n"
        #expect(try provider.parse(Array(empty.utf8), of: request).isEmpty)
        #expect(try provider.parse(Array(empty.utf8), of: provider.requests(for: .range(Day("2026-12-25")!, Day("2026-12-27")!))[0]).isEmpty)
    }

    @Test("asks for the most recent observation, and for a range in one request")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == [
            "https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?recent=1"
        ])
        #expect(provider.requests(for: .range(day("2026-01-01"), day("2026-03-18"))).map(\.url) == [
            "https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?start_date=2026-01-01&end_date=2026-03-18"
        ])
        #expect(provider.key == "BOC" && provider.pivot.rawValue == "CAD" && provider.country == "CA")
    }

    /// The answer from its `observations` on, so an edit does not hit `seriesDetail` first.
    func observations(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let start = text.range(of: "\"observations\"")!.lowerBound
        return Array(("{" + text[start...]).utf8)
    }
}
