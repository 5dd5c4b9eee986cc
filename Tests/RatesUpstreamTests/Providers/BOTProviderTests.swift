import Foundation
import RatesCore
import Testing

@testable import RatesUpstream

@Suite("BOT adapter")
struct BOTProviderTests {
    let provider = BOTProvider(apiKey: "test-key")
    static let endpoint = "https://gateway.api.bot.or.th/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/"
    static let headers = ["Authorization": "test-key", "Accept": "application/json"]
    let request = ProviderRequest(url: endpoint + "?start_period=2026-04-01&end_period=2026-04-03", headers: headers)
    static let file = "bot-thailand/DAILY_AVG_EXG_RATE_2026-04-01_2026-04-03.json"

    @Test("reads 2026-04-01..03: 3 days of 19 currencies, THB per 1 unit, the yen per 100 and the rupiah per 1000 as their names say")
    func recordedDays() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.file), of: request)
        #expect(publications.map(\.day) == ["2026-04-01", "2026-04-02", "2026-04-03"].map(day))
        #expect(publications.allSatisfy { $0.quotes.count == 19 })
        let first = publications[0]
        #expect(first["USD"] == quote("USD", "32.6266000"))
        #expect(first["EUR"] == quote("EUR", "37.6819000"))
        #expect(first["JPY"] == quote("JPY", "20.5513000", unit: 100))
        #expect(first["IDR"] == quote("IDR", "1.9282000", unit: 1000))
        #expect(publications[2]["USD"] == quote("USD", "32.6448000"))
        #expect(publications[2]["PHP"] == quote("PHP", "0.5399000"))
        #expect(publications.allSatisfy { $0.quotes.filter { $0.unit != 1 }.map(\.currency.rawValue).sorted() == ["IDR", "JPY"] })
    }

    @Test("takes the exact midpoint where mid_rate is empty, and skips a currency with no rate at all")
    func emptyMid() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        let usd = #""buying_transfer":"32.4714000","selling":"32.7817000","mid_rate":"32.6266000""#
        let noMid = try #require(ProviderFixture.replacing(usd, with: #""buying_transfer":"32.4714000","selling":"32.7817000","mid_rate":"""#, in: bytes))
        #expect(try provider.parse(noMid, of: request).first?["USD"] == quote("USD", "32.6265500"), "(32.4714000 + 32.7817000) / 2")
        let none = try #require(ProviderFixture.replacing(usd, with: #""buying_transfer":"","selling":"","mid_rate":"""#, in: bytes))
        let publications = try provider.parse(none, of: request)
        #expect(publications.first?["USD"] == nil && publications.first?.quotes.count == 18)
    }

    @Test("rejects a rate replaced by garbage, a duplicated currency, an unreadable unit and a bad day")
    func rejectsBadRows() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        let first = day("2026-04-01")
        let garbage = try #require(ProviderFixture.replacing(#""mid_rate":"32.6266000""#, with: #""mid_rate":"32.62 baht""#, in: bytes))
        #expect(ProviderFixture.error(garbage, provider, request: request) == .invalidRate(currency: CurrencyCode("USD")!, day: first, text: "32.62 baht"))
        let duplicate = try #require(ProviderFixture.replacing(#""currency_id":"EUR""#, with: #""currency_id":"USD""#, in: bytes))
        #expect(ProviderFixture.error(duplicate, provider, request: request) == .duplicateCurrency(CurrencyCode("USD")!, day: day("2026-04-03")), "the answer lists the newest day first")
        let unit = try #require(ProviderFixture.replacing("(100 YEN)", with: "(100YEN)", in: bytes))
        #expect(ProviderFixture.error(unit, provider, request: request)?.isUnexpectedLayout == true)
        let badDay = try #require(ProviderFixture.replacing(#""period":"2026-04-01""#, with: #""period":"2026-04""#, in: bytes))
        #expect(ProviderFixture.error(badDay, provider, request: request) == .invalidDay("2026-04"))
    }

    @Test("rejects truncated answers, an HTML error page, an empty body and a gateway error")
    func rejectsWrongAnswers() throws {
        let bytes = try ProviderFixture.bytes(Self.file)
        for prefix in ProviderFixture.truncations(of: bytes, stride: 613) {
            #expect(ProviderFixture.error(prefix, provider, request: request)?.isUnexpectedLayout == true, "prefix of \(prefix.count) bytes")
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: request)?.isUnexpectedLayout == true)
        #expect(ProviderFixture.error([], provider, request: request) == .empty)
        #expect(ProviderFixture.error(Array(#"{"httpCode":"401","httpMessage":"Unauthorized","moreInformation":"Invalid token"}"#.utf8), provider, request: request)?.isUnexpectedLayout == true)
    }

    @Test("reads the unit a currency name states")
    func units() throws {
        #expect(try BOTProvider.unit(in: "USA : DOLLAR (USD) ") == 1)
        #expect(try BOTProvider.unit(in: "JAPAN : YEN (100 YEN) (JPY) ") == 100)
        #expect(try BOTProvider.unit(in: "INDONESIA : RUPIAH (1,000 RUPIAH) (IDR)") == 1000)
        #expect(throws: UpstreamDataError.self) { try BOTProvider.unit(in: "X : Y (100 A) (10 B) (XYZ)") }
    }

    @Test("sends the API key, asks for a range in one request and for the ten days up to today for the latest")
    func requests() {
        #expect(provider.requests(for: .range(day("2026-04-01"), day("2026-04-03"))) == [request])
        let fixed = BOTProvider(apiKey: "test-key", today: { Day("2026-04-05")! })
        #expect(fixed.requests(for: .latest) == [
            ProviderRequest(url: Self.endpoint + "?start_period=2026-03-27&end_period=2026-04-05", headers: Self.headers)
        ])
        #expect(provider.needsAPIKey && provider.key == "BOT" && provider.pivot.rawValue == "THB" && provider.country == "TH")
    }
}
