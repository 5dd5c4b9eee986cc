import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("RB adapter")
struct RBProviderTests {
    let provider = RBProvider()
    let request = ProviderRequest(url: "https://api.riksbank.se/swea/v1/Observations/ByGroup/130/2026-03-24/2026-03-28")
    static let file = "riksbank-sweden/swea_ByGroup130_2026-03-24_2026-03-28.json"

    @Test("reads group 130 of 2026-03-24..28: 4 days of 29 currencies, SEK per 1 unit, SEKETT left out")
    func recordedGroup() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.file), of: request)
        #expect(publications.map(\.day) == ["2026-03-24", "2026-03-25", "2026-03-26", "2026-03-27"].map(day))
        #expect(publications.allSatisfy { $0.quotes.count == 29 })
        let first = publications[0]
        #expect(first["AUD"] == quote("AUD", "6.5"))
        #expect(first["USD"] == quote("USD", "9.35344"))
        #expect(first["EUR"] == quote("EUR", "10.8238"))
        #expect(first["JPY"] == quote("JPY", "0.05885"))
        #expect(first["IDR"] == quote("IDR", "0.00055"))
        #expect(first["KRW"] == quote("KRW", "0.00624"))
        #expect(publications[3]["EUR"] == quote("EUR", "10.878"))
        #expect(publications[3]["USD"] == quote("USD", "9.44517"))
        #expect(publications.allSatisfy { $0["SEK"] == nil && $0["ETT"] == nil })
    }

    @Test("rejects a value replaced by garbage, a duplicated observation, an unknown series and a bad day")
    func rejectsBadObservations() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        let first = day("2026-03-24")
        let aud = #"{"seriesId":"SEKAUDPMI","date":"2026-03-24","value":6.5}"#
        let garbage = try #require(ProviderFixture.replacing(aud, with: #"{"seriesId":"SEKAUDPMI","date":"2026-03-24","value":"6.5.0"}"#, in: bytes))
        #expect(ProviderFixture.error(garbage, provider, request: request) == .invalidRate(currency: CurrencyCode("AUD")!, day: first, text: "6.5.0"))
        let exponent = try #require(ProviderFixture.replacing(aud, with: #"{"seriesId":"SEKAUDPMI","date":"2026-03-24","value":6.5e0}"#, in: bytes))
        #expect(ProviderFixture.error(exponent, provider, request: request) == .invalidRate(currency: CurrencyCode("AUD")!, day: first, text: "6.5e0"))
        let duplicate = try #require(ProviderFixture.replacing(#"{"seriesId":"SEKAUDPMI","date":"2026-03-25""#, with: #"{"seriesId":"SEKAUDPMI","date":"2026-03-24""#, in: bytes))
        #expect(ProviderFixture.error(duplicate, provider, request: request) == .duplicateCurrency(CurrencyCode("AUD")!, day: first))
        let unknown = try #require(ProviderFixture.replacing(#""seriesId":"SEKAUDPMI""#, with: #""seriesId":"SEKAUDPMIMEDEL""#, in: bytes))
        #expect(ProviderFixture.error(unknown, provider, request: request)?.isUnexpectedLayout == true)
        let badDay = try #require(ProviderFixture.replacing(#""date":"2026-03-24""#, with: #""date":"24/03/2026""#, in: bytes))
        #expect(ProviderFixture.error(badDay, provider, request: request) == .invalidDay("24/03/2026"))
    }

    @Test("a day before 1999 is read (history from 1993): the euro series' figure is the ECU, the rouble's before 1998 the old rouble")
    func predecessors() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        // The first day's euro and Australian dollar observations dated 1997-12-30, and the dollar's turned into the rouble's
        // of that day, as the group's answers of 1997 hold them.
        var edited = try #require(ProviderFixture.replacing(
            #"{"seriesId":"SEKEURPMI","date":"2026-03-24""#, with: #"{"seriesId":"SEKEURPMI","date":"1997-12-30""#, in: bytes))
        edited = try #require(ProviderFixture.replacing(
            #"{"seriesId":"SEKAUDPMI","date":"2026-03-24""#, with: #"{"seriesId":"SEKAUDPMI","date":"1997-12-30""#, in: edited))
        edited = try #require(ProviderFixture.replacing(
            #"{"seriesId":"SEKUSDPMI","date":"2026-03-24""#, with: #"{"seriesId":"SEKRUBPMI","date":"1997-12-30""#, in: edited))
        let publications = try provider.parse(edited, of: request)
        let old = try #require(publications.first)
        #expect(old.day == day("1997-12-30"))
        #expect(old.codes == ["AUD", "RUR", "XEU"])
        #expect(old["XEU"] == quote("XEU", "10.8238"))
        #expect(old["RUR"] == quote("RUR", "9.35344"))
        #expect(old["AUD"] == quote("AUD", "6.5"))
        #expect(ProviderFixture.quote("EUR", on: "2026-03-25", in: publications) == quote("EUR", "10.7715"))
        #expect(provider.historyStart == day("1993-01-04"))
        let before = try #require(ProviderFixture.replacing(#""date":"2026-03-24""#, with: #""date":"1992-12-30""#, in: bytes))
        #expect(ProviderFixture.error(before, provider, request: request) == .dayOutOfRange(day("1992-12-30")))
    }

    @Test("an observation without a value is left out, and an empty list is no publication")
    func noValue() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        let null = try #require(ProviderFixture.replacing(#"{"seriesId":"SEKAUDPMI","date":"2026-03-24","value":6.5}"#, with: #"{"seriesId":"SEKAUDPMI","date":"2026-03-24","value":null}"#, in: bytes))
        let publications = try provider.parse(null, of: request)
        #expect(publications[0].quotes.count == 28 && publications[0]["AUD"] == nil)
        #expect(try provider.parse(Array("[]".utf8), of: request) == [])
    }

    @Test("rejects truncated answers, an HTML error page, an empty body and an error object")
    func rejectsWrongAnswers() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        for prefix in ProviderFixture.truncations(of: bytes, stride: 157) {
            #expect(ProviderFixture.error(prefix, provider, request: request)?.isUnexpectedLayout == true, "prefix of \(prefix.count) bytes")
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: request)?.isUnexpectedLayout == true)
        #expect(ProviderFixture.error([], provider, request: request) == .empty)
        #expect(ProviderFixture.error(Array(#"{"statusCode": 429, "message": "Rate limit is exceeded."}"#.utf8), provider, request: request)?.isUnexpectedLayout == true)
    }

    @Test("asks for the latest observations of group 130, and for a range in one request")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == ["https://api.riksbank.se/swea/v1/Observations/Latest/ByGroup/130"])
        #expect(provider.requests(for: .range(day("2026-03-24"), day("2026-03-28"))) == [request])
        #expect(provider.key == "RB" && provider.pivot.rawValue == "SEK" && provider.country == "SE")
    }
}
