import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("NBG adapter")
struct NBGProviderTests {
    let provider = NBGProvider()
    static func request(_ day: String) -> ProviderRequest {
        ProviderRequest(url: "https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/?date=\(day)")
    }
    static func file(_ day: String) -> String { "nbg-georgia/currencies_date-\(day).json" }

    @Test("reads the answer for Monday 2026-03-02: the 42 rates valid from Saturday 2026-02-28, GEL per `quantity` units")
    func mondayAnswer() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.file("2026-03-02")), of: Self.request("2026-03-02"))
        #expect(publications.map(\.day) == [day("2026-02-28")])
        let rates = try #require(publications.first)
        #expect(rates.quotes.count == 42)
        #expect(rates["USD"] == quote("USD", "2.6759"))
        #expect(rates["EUR"] == quote("EUR", "3.1581"))
        #expect(rates["AED"] == quote("AED", "7.2853", unit: 10))
        #expect(rates["AMD"] == quote("AMD", "7.0960", unit: 1000), "the published trailing zero is kept")
        #expect(rates["JPY"] == quote("JPY", "1.7157", unit: 100))
        #expect(rates["IRR"] == quote("IRR", "0.0204", unit: 10000))
        #expect(rates["UAH"] == quote("UAH", "0.6204", unit: 10))
        #expect(rates["GEL"] == nil)
    }

    @Test("answers for 2026-03-03 and for the holiday after it are both the set valid from 2026-03-03")
    func holiday() throws {
        let tuesday = try provider.parse(ProviderFixture.bytes(Self.file("2026-03-03")), of: Self.request("2026-03-03"))
        let wednesday = try provider.parse(ProviderFixture.bytes(Self.file("2026-03-04")), of: Self.request("2026-03-04"))
        #expect(tuesday.map(\.day) == [day("2026-03-03")])
        #expect(tuesday == wednesday)
        #expect(tuesday.first?.quotes.count == 42)
        #expect(tuesday.first?["USD"] == quote("USD", "2.6922"))
        #expect(tuesday.first?["RUB"] == quote("RUB", "3.4826", unit: 100))
    }

    @Test("a currency valid from an earlier day is read under the set's day; a day before 1999 is read (history from 1995-10-14)")
    func validityAndHistory() throws {
        let bytes = try ProviderFixture.bytes(Self.file("2026-03-03"))
        let request = Self.request("2026-03-03")
        // The first currency's rate kept from the Saturday before, as a currency the bank did not reset keeps its validity.
        let kept = try #require(ProviderFixture.replacing(#""validFromDate":"2026-03-03T00:00:00.000Z""#, with: #""validFromDate":"2026-02-28T00:00:00.000Z""#, in: bytes))
        let publications = try provider.parse(kept, of: request)
        #expect(publications.map(\.day) == [day("2026-03-03")] && publications[0].quotes.count == 42)
        // The set dated 1998-03-03, every currency's validity with it.
        let old = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "2026-03-03T00:00:00.000Z", with: "1998-03-03T00:00:00.000Z")
        let set = try #require(try provider.parse(Array(old.utf8), of: request).first)
        #expect(set.day == day("1998-03-03") && set["USD"] == quote("USD", "2.6922"))
        let older = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "2026-03-03T00:00:00.000Z", with: "1995-10-13T00:00:00.000Z")
        #expect(ProviderFixture.error(Array(older.utf8), provider, request: request) == .dayOutOfRange(day("1995-10-13")))
    }

    @Test("rejects a rate replaced by garbage, a duplicated currency, a quantity that is not a number, a validity after the set's day and a bad day")
    func rejectsBadCurrencies() throws {
        let bytes = try ProviderFixture.bytes(Self.file("2026-03-03"))
        let request = Self.request("2026-03-03")
        let third = day("2026-03-03")
        let garbage = try #require(ProviderFixture.replacing(#""diffFormated":"0.0163","rate":2.6922"#, with: #""diffFormated":"0.0163","rate":"2.69 GEL""#, in: bytes))
        #expect(ProviderFixture.error(garbage, provider, request: request) == .invalidRate(currency: CurrencyCode("USD")!, day: third, text: "2.69 GEL"))
        let duplicate = try #require(ProviderFixture.replacing(#""code":"EUR""#, with: #""code":"USD""#, in: bytes))
        #expect(ProviderFixture.error(duplicate, provider, request: request) == .duplicateCurrency(CurrencyCode("USD")!, day: third))
        let quantity = try #require(ProviderFixture.replacing(#""quantity":1000"#, with: #""quantity":1000.5"#, in: bytes))
        #expect(ProviderFixture.error(quantity, provider, request: request)?.isUnexpectedLayout == true)
        let validity = try #require(ProviderFixture.replacing(#""validFromDate":"2026-03-03T00:00:00.000Z""#, with: #""validFromDate":"2026-03-04T00:00:00.000Z""#, in: bytes))
        #expect(ProviderFixture.error(validity, provider, request: request)?.isUnexpectedLayout == true)
        let badDay = try #require(ProviderFixture.replacing(#"[{"date":"2026-03-03T00:00:00.000Z""#, with: #"[{"date":"2026-03-03T12:00:00.000Z""#, in: bytes))
        #expect(ProviderFixture.error(badDay, provider, request: request) == .invalidDay("2026-03-03T12:00:00.000Z"))
    }

    @Test("rejects truncated answers, an HTML error page, an empty body and a set without currencies; an empty list is no publication")
    func rejectsWrongAnswers() throws {
        let bytes = try ProviderFixture.bytes(Self.file("2026-03-02"))
        let request = Self.request("2026-03-02")
        for prefix in ProviderFixture.truncations(of: bytes, stride: 173) {
            #expect(ProviderFixture.error(prefix, provider, request: request)?.isUnexpectedLayout == true, "prefix of \(prefix.count) bytes")
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: request)?.isUnexpectedLayout == true)
        #expect(ProviderFixture.error([], provider, request: request) == .empty)
        #expect(try provider.parse(Array("[]".utf8), of: request) == [])
        #expect(ProviderFixture.error(Array(#"[{"date":"2026-03-03T00:00:00.000Z","currencies":[]}]"#.utf8), provider, request: request) == .emptyDay(day("2026-03-03")))
    }

    @Test("asks for today's rates, and for a range one day at a time without Sundays")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == ["https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/"])
        #expect(provider.requests(for: .range(day("2026-02-27"), day("2026-03-04"))) == [
            "2026-02-27", "2026-02-28", "2026-03-02", "2026-03-03", "2026-03-04",
        ].map(Self.request))
        #expect(provider.requests(for: .range(day("2026-03-04"), day("2026-03-03"))).isEmpty)
        #expect(provider.key == "NBG" && provider.pivot.rawValue == "GEL" && provider.country == "GE")
    }
}
