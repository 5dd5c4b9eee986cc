import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("NBU adapter")
struct NBUProviderTests {
    let provider = NBUProvider()
    let range = ProviderRequest(
        url: "https://bank.gov.ua/NBU_Exchange/exchange_site?start=20260301&end=20260316&sort=exchangedate&order=asc&json")
    let latest = ProviderRequest(url: "https://bank.gov.ua/NBUStatService/v1/statdirectory/exchange")
    static let jsonFile = "nbu-ukraine/exchange_site_2026-03-01_2026-03-16.json"
    static let xmlFile = "nbu-ukraine/statdirectory_exchange_2019-02-18.xml"

    @Test("reads exchange_site of 2026-03-01..16: 11 working days of 41 currencies and 4 metals, UAH per `units` units (metals per troy ounce), no weekends")
    func recordedRange() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.jsonFile), of: range)
        #expect(publications.map(\.day) == [
            "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12",
            "2026-03-13", "2026-03-16",
        ].map(day))
        #expect(publications.allSatisfy { $0.quotes.count == 45 })
        let monday = publications[0]
        #expect(monday["USD"] == quote("USD", "43.0996"))
        #expect(monday["EUR"] == quote("EUR", "50.8661"))
        #expect(monday["JPY"] == quote("JPY", "2.7646", unit: 10))
        #expect(monday["HUF"] == quote("HUF", "13.5049", unit: 100))
        #expect(monday["KRW"] == quote("KRW", "2.9897", unit: 100))
        #expect(monday["VND"] == quote("VND", "1.6541", unit: 1000))
        #expect(monday["XDR"] == quote("XDR", "59.2492"))
        #expect(publications[3]["USD"] == quote("USD", "43.717"), "as the JSON writes it, without a trailing zero")
        #expect(publications[10]["USD"] == quote("USD", "44.1381"))
        // The bank's accounting prices of the metals, UAH per troy ounce (ISO 4217's unit), as published.
        #expect(monday["XAU"] == quote("XAU", "223573.57"))
        #expect(monday["XAG"] == quote("XAG", "3867.74"))
        #expect(monday["XPT"] == quote("XPT", "102139.16"))
        #expect(monday["XPD"] == quote("XPD", "78219.31"))
        #expect(publications.allSatisfy { $0["UAH"] == nil })
    }

    @Test("reads the statistics directory's XML of 2019-02-18: 57 currencies per 1 unit and 4 metals per troy ounce")
    func recordedLatest() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.xmlFile), of: latest)
        #expect(publications.map(\.day) == [day("2019-02-18")])
        let rates = try #require(publications.first)
        #expect(rates.quotes.count == 61)
        #expect(rates["AUD"] == quote("AUD", "19.374292"))
        #expect(rates["JPY"] == quote("JPY", "0.2465338"))
        #expect(rates["KRW"] == quote("KRW", "0.0241713"))
        #expect(rates["USD"] == quote("USD", "27.247894"))
        #expect(rates["EUR"] == quote("EUR", "30.681129"))
        #expect(rates["XAU"] == quote("XAU", "35912.724"))
        #expect(rates["XPT"] == quote("XPT", "21307.853"))
    }

    @Test("rejects a rate replaced by garbage, a duplicated currency, units that are not a number and a bad day")
    func rejectsBadRows() throws {
        let bytes = try ProviderFixture.bytes(Self.jsonFile)
        let monday = day("2026-03-02")
        let mondayUSD = #""exchangedate":"02.03.2026","r030":840,"cc":"USD","txt":"Долар США","enname":"US Dollar","rate":43.0996"#
        let garbage = try #require(ProviderFixture.replacing(mondayUSD, with: mondayUSD.replacingOccurrences(of: "43.0996", with: "\"43.0996 UAH\""), in: bytes))
        #expect(ProviderFixture.error(garbage, provider, request: range) == .invalidRate(currency: CurrencyCode("USD")!, day: monday, text: "43.0996 UAH"))
        let duplicate = try #require(ProviderFixture.replacing(#""exchangedate":"02.03.2026","r030":978,"cc":"EUR""#, with: #""exchangedate":"02.03.2026","r030":978,"cc":"USD""#, in: bytes))
        #expect(ProviderFixture.error(duplicate, provider, request: range) == .duplicateCurrency(CurrencyCode("USD")!, day: monday))
        let units = try #require(ProviderFixture.replacing(#""units":10,"#, with: #""units":"ten","#, in: bytes))
        #expect(ProviderFixture.error(units, provider, request: range)?.isUnexpectedLayout == true)
        let oddUnits = try #require(ProviderFixture.replacing(#""cc":"JPY","txt":"Єна","enname":"Yen","rate":2.7646,"units":10"#, with: #""cc":"JPY","txt":"Єна","enname":"Yen","rate":2.7646,"units":12"#, in: bytes))
        #expect(ProviderFixture.error(oddUnits, provider, request: range) == .invalidRate(currency: CurrencyCode("JPY")!, day: monday, text: "2.7646"))
        let badDay = try #require(ProviderFixture.replacing(#""exchangedate":"02.03.2026""#, with: #""exchangedate":"2026-03-02""#, in: bytes))
        #expect(ProviderFixture.error(badDay, provider, request: range) == .invalidDay("2026-03-02"))
        let xml = try ProviderFixture.bytes(Self.xmlFile)
        let xmlGarbage = try #require(ProviderFixture.replacing("<rate>27.247894</rate>", with: "<rate>27,24x</rate>", in: xml))
        #expect(ProviderFixture.error(xmlGarbage, provider, request: latest) == .invalidRate(currency: CurrencyCode("USD")!, day: day("2019-02-18"), text: "27,24x"))
    }

    @Test("rejects truncated answers, an HTML error page and an empty body, in JSON and in XML")
    func rejectsWrongAnswers() throws {
        let bytes = try ProviderFixture.bytes(Self.jsonFile)
        for prefix in ProviderFixture.truncations(of: bytes, stride: 4001) {
            #expect(ProviderFixture.error(prefix, provider, request: range)?.isUnexpectedLayout == true, "prefix of \(prefix.count) bytes")
        }
        for prefix in try ProviderFixture.truncations(of: ProviderFixture.bytes(Self.xmlFile), stride: 997) {
            #expect(ProviderFixture.error(prefix, provider, request: latest) != nil, "prefix of \(prefix.count) bytes")
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: range)?.isUnexpectedLayout == true)
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: latest) != nil)
        #expect(ProviderFixture.error([], provider, request: range) == .empty)
        #expect(ProviderFixture.error([], provider, request: latest) != nil)
        #expect(ProviderFixture.error(Array("[]".utf8), provider, request: range) == .empty)
    }

    @Test("asks the statistics directory for the latest rates, and exchange_site for a range in one request")
    func requests() {
        #expect(provider.requests(for: .latest) == [latest])
        #expect(provider.requests(for: .range(day("2026-03-01"), day("2026-03-16"))) == [range])
        #expect(provider.key == "NBU" && provider.pivot.rawValue == "UAH" && provider.country == "UA")
    }
}
