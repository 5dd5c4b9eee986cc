import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("CBU adapter")
struct CBUProviderTests {
    let provider = CBUProvider()
    static func request(_ day: String) -> ProviderRequest {
        ProviderRequest(url: "https://cbu.uz/en/arkhiv-kursov-valyut/json/all/\(day)/")
    }
    static func file(_ day: String) -> String { "cbu-uzbekistan/json_all_\(day).json" }

    @Test("reads the rates of 2026-04-01, 02 and 03: 75 currencies each, UZS per `Nominal` units, texts as published")
    func recordedDays() throws {
        var all: [ProviderPublication] = []
        for date in ["2026-04-01", "2026-04-02", "2026-04-03"] {
            let publications = try provider.parse(ProviderFixture.bytes(Self.file(date)), of: Self.request(date))
            #expect(publications.map(\.day) == [day(date)])
            #expect(publications.first?.quotes.count == 75)
            all += publications
        }
        #expect(all[0]["USD"] == quote("USD", "12194.21"))
        #expect(all[0]["EUR"] == quote("EUR", "13984.32"))
        #expect(all[0]["IDR"] == quote("IDR", "7.18", unit: 10))
        #expect(all[0]["IRR"] == quote("IRR", "0.09", unit: 10))
        #expect(all[0]["VND"] == quote("VND", "4.63", unit: 10))
        #expect(all[0]["XDR"] == quote("XDR", "16557.42"))
        #expect(all[1]["USD"] == quote("USD", "12142.10"), "the published trailing zero is kept")
        #expect(all[2]["JPY"] == quote("JPY", "76.14"))
        #expect(all.allSatisfy { $0["UZS"] == nil })
    }

    @Test("rejects a rate replaced by garbage, a rate as a number, a duplicated currency, a bad nominal and a bad day")
    func rejectsBadRows() throws {
        let bytes = try ProviderFixture.bytes(Self.file("2026-04-01"))
        let request = Self.request("2026-04-01")
        let first = day("2026-04-01")
        let garbage = try #require(ProviderFixture.replacing(#""Rate":"12194.21""#, with: #""Rate":"12 194,21 sum""#, in: bytes))
        #expect(ProviderFixture.error(garbage, provider, request: request) == .invalidRate(currency: CurrencyCode("USD")!, day: first, text: "12 194,21 sum"))
        let number = try #require(ProviderFixture.replacing(#""Rate":"12194.21""#, with: #""Rate":12194.21"#, in: bytes))
        #expect(ProviderFixture.error(number, provider, request: request)?.isUnexpectedLayout == true)
        let duplicate = try #require(ProviderFixture.replacing(#""Ccy":"EUR""#, with: #""Ccy":"USD""#, in: bytes))
        #expect(ProviderFixture.error(duplicate, provider, request: request) == .duplicateCurrency(CurrencyCode("USD")!, day: first))
        let nominal = try #require(ProviderFixture.replacing(#""Nominal":"10""#, with: #""Nominal":"1O""#, in: bytes))
        #expect(ProviderFixture.error(nominal, provider, request: request)?.isUnexpectedLayout == true)
        let badDay = try #require(ProviderFixture.replacing(#""Date":"01.04.2026""#, with: #""Date":"31.04.2026""#, in: bytes))
        #expect(ProviderFixture.error(badDay, provider, request: request) == .invalidDay("31.04.2026"))
    }

    @Test("rejects truncated answers, an HTML error page and an empty body")
    func rejectsWrongAnswers() throws {
        let bytes = try ProviderFixture.bytes(Self.file("2026-04-02"))
        let request = Self.request("2026-04-02")
        for prefix in ProviderFixture.truncations(of: bytes, stride: 509) {
            #expect(ProviderFixture.error(prefix, provider, request: request)?.isUnexpectedLayout == true, "prefix of \(prefix.count) bytes")
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: request)?.isUnexpectedLayout == true)
        #expect(ProviderFixture.error([], provider, request: request) == .empty)
    }

    @Test("a day the archive has no rates for, answered [], is no publication")
    func noRates() throws {
        #expect(try provider.parse(Array("[]".utf8), of: Self.request("2026-04-04")).isEmpty)
    }

    @Test("reads days back to 1994-07-01, the archive's first; an earlier day is refused")
    func history() throws {
        // An archive day from before 1999 has the same layout: the recording of 2026-04-01 with every row dated 1994-07-01.
        let recorded = String(decoding: try ProviderFixture.bytes(Self.file("2026-04-01")), as: UTF8.self)
        let old = recorded.replacingOccurrences(of: #""Date":"01.04.2026""#, with: #""Date":"01.07.1994""#)
        let publications = try provider.parse(Array(old.utf8), of: Self.request("1994-07-01"))
        #expect(publications.map(\.day) == [day("1994-07-01")])
        #expect(publications.first?.quotes.count == 75)
        #expect(publications.first?["USD"] == quote("USD", "12194.21"))
        let before = recorded.replacingOccurrences(of: #""Date":"01.04.2026""#, with: #""Date":"30.06.1994""#)
        #expect(ProviderFixture.error(Array(before.utf8), provider, request: Self.request("1994-06-30")) == .dayOutOfRange(day("1994-06-30")))
    }

    @Test("asks for today's rates, and for a range one working day at a time")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == ["https://cbu.uz/en/arkhiv-kursov-valyut/json/"])
        #expect(provider.requests(for: .range(day("2026-04-01"), day("2026-04-07"))) == [
            "2026-04-01", "2026-04-02", "2026-04-03", "2026-04-06", "2026-04-07",
        ].map(Self.request))
        #expect(provider.key == "CBU" && provider.pivot.rawValue == "UZS" && provider.country == "UZ")
    }
}
