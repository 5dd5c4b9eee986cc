import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BNM adapter")
struct BNMProviderTests {
    let provider = BNMProvider()
    let latest = ProviderRequest(url: "https://api.bnm.gov.my/public/exchange-rate?session=0900", headers: ["Accept": "application/vnd.BNM.API.v1+json"])
    static func month(_ code: String) -> ProviderRequest {
        ProviderRequest(
            url: "https://api.bnm.gov.my/public/exchange-rate/\(code)/year/2026/month/3?session=0900",
            headers: ["Accept": "application/vnd.BNM.API.v1+json"], subject: code)
    }
    static let latestFile = "bnm-malaysia/exchange-rate_session0900_latest_2026-03-19.json"

    @Test("reads the 09:00 session of 2026-03-19: 27 currencies, MYR per `unit` units, doubles read back as four-decimal figures")
    func recordedLatest() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.latestFile), of: latest)
        #expect(publications.map(\.day) == [day("2026-03-19")])
        let rates = try #require(publications.first)
        #expect(rates.quotes.count == 27)
        #expect(rates["USD"] == quote("USD", "3.93"), "printed 3.9300000000000002")
        #expect(rates["EUR"] == quote("EUR", "4.5093"), "printed 4.5092999999999996")
        #expect(rates["INR"] == quote("INR", "4.2244", unit: 100))
        #expect(rates["JPY"] == quote("JPY", "2.4596", unit: 100))
        #expect(rates["SAR"] == quote("SAR", "104.6828", unit: 100))
        #expect(rates["IDR"] == quote("IDR", "0.0231", unit: 100))
        #expect(rates["VND"] == quote("VND", "0.0149", unit: 100))
        #expect(rates["XDR"] == quote("XDR", "5.3538"), "the bank's SDR, which has only a middle rate")
        #expect(rates["SDR"] == nil && rates["MYR"] == nil)
        #expect(rates.quotes.filter { $0.unit == 100 }.count == 15)
    }

    @Test("reads one currency's month: 14 days of INR per 100 and of the SDR as XDR")
    func recordedMonths() throws {
        let inr = try provider.parse(ProviderFixture.bytes("bnm-malaysia/exchange-rate_INR_2026-03_session0900.json"), of: Self.month("INR"))
        #expect(inr.count == 14)
        #expect(inr.first?.day == day("2026-03-02") && inr.last?.day == day("2026-03-19"))
        #expect(inr.allSatisfy { $0.quotes.count == 1 })
        #expect(inr.first?["INR"] == quote("INR", "4.2964", unit: 100))
        #expect(inr[5]["INR"] == quote("INR", "4.3167", unit: 100))
        #expect(inr.last?["INR"] == quote("INR", "4.2244", unit: 100))
        let sdr = try provider.parse(ProviderFixture.bytes("bnm-malaysia/exchange-rate_SDR_2026-03_session0900.json"), of: Self.month("SDR"))
        #expect(sdr.map(\.day) == inr.map(\.day))
        #expect(sdr.first?["XDR"] == quote("XDR", "5.3795"))
        #expect(sdr.last?["XDR"] == quote("XDR", "5.3538"))
    }

    @Test("a currency's month without any session (\"rate\":[]) is no publication")
    func emptyMonth() throws {
        // The INR month of March 2026 with its rates taken out, as the API answers a month not yet begun.
        let text = String(decoding: try ProviderFixture.bytes("bnm-malaysia/exchange-rate_INR_2026-03_session0900.json"), as: UTF8.self)
        let open = try #require(text.range(of: #""rate":["#))
        let close = try #require(text.range(of: "}]", options: .backwards))
        let empty = String(text[..<open.upperBound]) + "]" + String(text[close.upperBound...])
        #expect(empty.contains(#""unit":100,"rate":[]},"meta":"#))
        #expect(try provider.parse(Array(empty.utf8), of: Self.month("INR")).isEmpty)
    }

    @Test("takes the exact midpoint of buying and selling where the middle rate is null")
    func midpoint() throws {
        let bytes = try ProviderFixture.bytes(Self.latestFile)
        let noMiddle = try #require(ProviderFixture.replacing(
            #""buying_rate":3.927,"selling_rate":3.9329999999999998,"middle_rate":3.9300000000000002"#,
            with: #""buying_rate":3.927,"selling_rate":3.9329999999999998,"middle_rate":null"#, in: bytes))
        #expect(try provider.parse(noMiddle, of: latest).first?["USD"] == quote("USD", "3.930"), "(3.927 + 3.933) / 2")
        let nothing = try #require(ProviderFixture.replacing(
            #""buying_rate":3.927,"selling_rate":3.9329999999999998,"middle_rate":3.9300000000000002"#,
            with: #""buying_rate":null,"selling_rate":null,"middle_rate":null"#, in: bytes))
        #expect(ProviderFixture.error(nothing, provider, request: latest) == .invalidRate(currency: CurrencyCode("USD")!, day: day("2026-03-19"), text: "null"))
    }

    @Test("rejects a rate replaced by garbage, a duplicated currency, another quote basis, another currency's month and a bad day")
    func rejectsBadRates() throws {
        let bytes = try ProviderFixture.bytes(Self.latestFile)
        let day19 = day("2026-03-19")
        let garbage = try #require(ProviderFixture.replacing(#""middle_rate":3.9300000000000002"#, with: #""middle_rate":"RM3.93""#, in: bytes))
        #expect(ProviderFixture.error(garbage, provider, request: latest) == .invalidRate(currency: CurrencyCode("USD")!, day: day19, text: "RM3.93"))
        let duplicate = try #require(ProviderFixture.replacing(#""currency_code":"EUR""#, with: #""currency_code":"USD""#, in: bytes))
        #expect(ProviderFixture.error(duplicate, provider, request: latest) == .duplicateCurrency(CurrencyCode("USD")!, day: day19))
        let inverse = try #require(ProviderFixture.replacing(#""quote":"rm""#, with: #""quote":"fx""#, in: bytes))
        #expect(ProviderFixture.error(inverse, provider, request: latest)?.isUnexpectedLayout == true)
        let inr = try ProviderFixture.bytes("bnm-malaysia/exchange-rate_INR_2026-03_session0900.json")
        #expect(ProviderFixture.error(inr, provider, request: Self.month("SDR"))?.isUnexpectedLayout == true)
        let badDay = try #require(ProviderFixture.replacing(#""date":"2026-03-19""#, with: #""date":"19/03/2026""#, in: bytes))
        #expect(ProviderFixture.error(badDay, provider, request: latest) == .invalidDay("19/03/2026"))
    }

    @Test("rejects truncated answers, an HTML error page and an empty body")
    func rejectsWrongAnswers() throws {
        let bytes = try ProviderFixture.bytes(Self.latestFile)
        for prefix in ProviderFixture.truncations(of: bytes, stride: 131) {
            #expect(ProviderFixture.error(prefix, provider, request: latest)?.isUnexpectedLayout == true, "prefix of \(prefix.count) bytes")
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: latest)?.isUnexpectedLayout == true)
        #expect(ProviderFixture.error([], provider, request: latest) == .empty)
        #expect(ProviderFixture.error(Array(#"{"data":[],"meta":{"quote":"rm","session":"0900"}}"#.utf8), provider, request: latest) == .empty)
    }

    @Test("asks for the latest session with the API's Accept header, and a range per currency and month")
    func requests() {
        #expect(provider.requests(for: .latest) == [latest])
        let range = provider.requests(for: .range(day("2026-02-20"), day("2026-03-19")))
        #expect(range.count == 27 * 2)
        #expect(range.filter { $0.subject == "INR" }.map(\.url) == [
            "https://api.bnm.gov.my/public/exchange-rate/INR/year/2026/month/2?session=0900",
            "https://api.bnm.gov.my/public/exchange-rate/INR/year/2026/month/3?session=0900",
        ])
        #expect(range.contains(Self.month("SDR")))
        #expect(range.allSatisfy { $0.headers == ["Accept": "application/vnd.BNM.API.v1+json"] })
        #expect(provider.requests(for: .range(day("2025-12-31"), day("2026-01-01"))).filter { $0.subject == "USD" }.map(\.url) == [
            "https://api.bnm.gov.my/public/exchange-rate/USD/year/2025/month/12?session=0900",
            "https://api.bnm.gov.my/public/exchange-rate/USD/year/2026/month/1?session=0900",
        ])
        #expect(provider.key == "BNM" && provider.pivot.rawValue == "MYR" && provider.country == "MY")
    }
}
