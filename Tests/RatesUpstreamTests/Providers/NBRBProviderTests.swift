import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("NBRB adapter")
struct NBRBProviderTests {
    let provider = NBRBProvider()
    let latest = ProviderRequest(url: "https://api.nbrb.by/exrates/rates?periodicity=0")
    static let file = "nbrb-belarus/rates_periodicity0_2026-03-17.json"

    @Test("reads the daily rates of 2026-03-17: 30 currencies, BYN per `Cur_Scale` units, trailing zeros kept")
    func recordedDay() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.file), of: latest)
        #expect(publications.map(\.day) == [day("2026-03-17")])
        let rates = try #require(publications.first)
        #expect(rates.quotes.count == 30)
        #expect(rates["AUD"] == quote("AUD", "2.0700"))
        #expect(rates["USD"] == quote("USD", "2.9463"))
        #expect(rates["EUR"] == quote("EUR", "3.3741"))
        #expect(rates["JPY"] == quote("JPY", "1.8494", unit: 100))
        #expect(rates["RUB"] == quote("RUB", "3.6709", unit: 100))
        #expect(rates["VND"] == quote("VND", "11.2071", unit: 100_000))
        #expect(rates["IRR"] == quote("IRR", "0.2229", unit: 100_000))
        #expect(rates["XDR"] == quote("XDR", "4.0009"))
        #expect(rates["BYN"] == nil)
        #expect(rates.quotes.filter { $0.unit != 1 }.count == 20)
    }

    @Test("an answer of a Saturday, whose rates repeat Friday's, is no publication")
    func weekend() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        let saturday = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "2026-03-17T00:00:00", with: "2026-03-14T00:00:00")
        #expect(try provider.parse(Array(saturday.utf8), of: latest) == [])
    }

    @Test("reads a currency's dynamics: its working days, the code and scale taken from its Cur_ID, weekends left out")
    func dynamics() throws {
        let dollar = try provider.parse(ProviderFixture.bytes("nbrb-belarus/rates_dynamics_440_AUD_2026-03-01_2026-03-17.json"), of: latest)
        #expect(dollar.count == 12)
        #expect(dollar.first?.day == day("2026-03-02") && dollar.last?.day == day("2026-03-17"))
        #expect(!dollar.contains { $0.day == day("2026-03-07") || $0.day == day("2026-03-08") })
        #expect(dollar.allSatisfy { $0.quotes.count == 1 })
        #expect(ProviderFixture.quote("AUD", on: "2026-03-02", in: dollar) == quote("AUD", "2.0297"))
        // The day's figure as the daily list of 2026-03-17 gives it, trailing zeros kept.
        #expect(ProviderFixture.quote("AUD", on: "2026-03-17", in: dollar) == quote("AUD", "2.0700"))
        let yen = try provider.parse(ProviderFixture.bytes("nbrb-belarus/rates_dynamics_508_JPY_2026-03-01_2026-03-17.json"), of: latest)
        #expect(yen.count == 12)
        #expect(ProviderFixture.quote("JPY", on: "2026-03-02", in: yen) == quote("JPY", "1.8285", unit: 100))
        #expect(ProviderFixture.quote("JPY", on: "2026-03-17", in: yen) == quote("JPY", "1.8494", unit: 100))
        // Every ID of the daily list is in the table, with the list's code and scale.
        let list = try provider.parse(ProviderFixture.bytes(Self.file), of: latest)[0]
        #expect(NBRBProvider.currencies.count == list.quotes.count)
        #expect(list.quotes.allSatisfy { quote in NBRBProvider.currencies.values.contains { $0.code == quote.currency && $0.scale == quote.unit } })
    }

    @Test("rejects a dynamics row of an unknown Cur_ID, a figure that is not a number; a day before the 2016 redenomination")
    func dynamicsRejected() throws {
        let file = "nbrb-belarus/rates_dynamics_440_AUD_2026-03-01_2026-03-17.json"
        let unknown = try ProviderFixture.edited(file, replacing: #"{"Cur_ID":440,"Date":"2026-03-02"#, with: #"{"Cur_ID":145,"Date":"2026-03-02"#)
        #expect(ProviderFixture.error(unknown, provider, request: latest)?.isUnexpectedLayout == true)
        let garbage = try ProviderFixture.edited(file, replacing: #""Cur_OfficialRate":2.0297"#, with: #""Cur_OfficialRate":"2.02.97""#)
        #expect(ProviderFixture.error(garbage, provider, request: latest) == .invalidRate(currency: CurrencyCode("AUD")!, day: day("2026-03-02"), text: "2.02.97"))
        // The daily list dated 2016-06-30, the last day of the old rouble.
        let old = String(decoding: try ProviderFixture.bytes(Self.file), as: UTF8.self).replacingOccurrences(of: "2026-03-17T00:00:00", with: "2016-06-30T00:00:00")
        #expect(ProviderFixture.error(Array(old.utf8), provider, request: latest) == .dayOutOfRange(day("2016-06-30")))
        #expect(provider.historyStart == day("2016-07-01"))
    }

    @Test("rejects a rate replaced by garbage, a duplicated currency, a scale that is not a number and a bad day")
    func rejectsBadRates() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        let tuesday = day("2026-03-17")
        let garbage = try #require(ProviderFixture.replacing(#""Cur_OfficialRate":2.9463"#, with: #""Cur_OfficialRate":"2,94 BYN""#, in: bytes))
        #expect(ProviderFixture.error(garbage, provider, request: latest) == .invalidRate(currency: CurrencyCode("USD")!, day: tuesday, text: "2,94 BYN"))
        let null = try #require(ProviderFixture.replacing(#""Cur_OfficialRate":2.9463"#, with: #""Cur_OfficialRate":null"#, in: bytes))
        #expect(ProviderFixture.error(null, provider, request: latest) == .invalidRate(currency: CurrencyCode("USD")!, day: tuesday, text: "null"))
        let duplicate = try #require(ProviderFixture.replacing(#""Cur_Abbreviation":"EUR""#, with: #""Cur_Abbreviation":"USD""#, in: bytes))
        #expect(ProviderFixture.error(duplicate, provider, request: latest) == .duplicateCurrency(CurrencyCode("USD")!, day: tuesday))
        let scale = try #require(ProviderFixture.replacing(#""Cur_Scale":1000,"#, with: #""Cur_Scale":-1000,"#, in: bytes))
        #expect(ProviderFixture.error(scale, provider, request: latest)?.isUnexpectedLayout == true)
        let badDay = try #require(ProviderFixture.replacing("2026-03-17T00:00:00", with: "17.03.2026", in: bytes))
        #expect(ProviderFixture.error(badDay, provider, request: latest) == .invalidDay("17.03.2026"))
    }

    @Test("rejects truncated answers, an HTML error page and an empty body; an empty list is no publication")
    func rejectsWrongAnswers() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        for prefix in ProviderFixture.truncations(of: bytes, stride: 89) {
            #expect(ProviderFixture.error(prefix, provider, request: latest)?.isUnexpectedLayout == true, "prefix of \(prefix.count) bytes")
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: latest)?.isUnexpectedLayout == true)
        #expect(ProviderFixture.error([], provider, request: latest) == .empty)
        #expect(try provider.parse(Array("[]".utf8), of: latest) == [])
    }

    @Test("asks for today's rates, and for a range one working day at a time")
    func requests() {
        #expect(provider.requests(for: .latest) == [latest])
        #expect(provider.requests(for: .range(day("2026-03-13"), day("2026-03-17"))).map(\.url) == [
            "https://api.nbrb.by/exrates/rates?periodicity=0&ondate=2026-03-13",
            "https://api.nbrb.by/exrates/rates?periodicity=0&ondate=2026-03-16",
            "https://api.nbrb.by/exrates/rates?periodicity=0&ondate=2026-03-17",
        ])
        #expect(provider.key == "NBRB" && provider.pivot.rawValue == "BYN" && provider.country == "BY")
    }
}
