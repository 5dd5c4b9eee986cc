import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("NBP adapter")
struct NBPProviderTests {
    let provider = NBPProvider()
    let tableA = ProviderRequest(url: "https://api.nbp.pl/api/exchangerates/tables/A/2026-03-01/2026-03-05/?format=json", subject: "A")
    let tableB = ProviderRequest(url: "https://api.nbp.pl/api/exchangerates/tables/B/2026-03-01/2026-03-05/?format=json", subject: "B")
    let gold = ProviderRequest(url: "https://api.nbp.pl/api/cenyzlota/2026-03-01/2026-03-05/?format=json", subject: "gold")
    static let fileA = "nbp-poland/tables_A_2026-03-01_2026-03-05.json"
    static let goldFile = "nbp-poland/cenyzlota_2026-03-01_2026-03-05.json"
    static let fileB = "nbp-poland/tables_B_2026-03-01_2026-03-05.json"

    @Test("reads tables A of 2026-03-02 to 2026-03-05: 4 days of 32 currencies, PLN per 1 unit")
    func tableAFile() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.fileA), of: tableA)
        #expect(publications.map(\.day) == [day("2026-03-02"), day("2026-03-03"), day("2026-03-04"), day("2026-03-05")])
        #expect(publications.allSatisfy { $0.quotes.count == 32 })
        let first = publications[0]
        #expect(first["USD"] == quote("USD", "3.6056"))
        #expect(first["CAD"] == quote("CAD", "2.6410"), "the published trailing zero is kept")
        #expect(first["EUR"] == quote("EUR", "4.2304"))
        #expect(first["JPY"] == quote("JPY", "0.022963"))
        #expect(first["THB"] == quote("THB", "0.1146"))
        #expect(first["HUF"] == quote("HUF", "0.011155"))
        #expect(first["XDR"] == quote("XDR", "4.9266"))
        #expect(first["PLN"] == nil)
        #expect(publications[2]["JPY"] == quote("JPY", "0.02339"))
        #expect(publications[3]["USD"] == quote("USD", "3.6771"))
        #expect(publications[3]["CAD"] == quote("CAD", "2.6950"))
    }

    @Test("reads table B of 2026-03-04: 116 other currencies, the rial at 0.0000028 PLN per 1 unit")
    func tableBFile() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.fileB), of: tableB)
        #expect(publications.map(\.day) == [day("2026-03-04")])
        let table = try #require(publications.first)
        #expect(table.quotes.count == 116)
        #expect(table["AFN"] == quote("AFN", "0.056626"))
        #expect(table["IRR"] == quote("IRR", "0.0000028"))
        #expect(table["LBP"] == quote("LBP", "0.000041"))
        #expect(table["PAB"] == quote("PAB", "3.6770"))
        #expect(table["ZWG"] == quote("ZWG", "0.1429"))
        #expect(table["BAM"] == quote("BAM", "2.1801"))
        let tableAOfTheDay = try provider.parse(ProviderFixture.bytes(Self.fileA), of: tableA)[2]
        #expect(Set(table.codes).isDisjoint(with: tableAOfTheDay.codes), "tables A and B of a day name different currencies")
    }

    @Test("a 404 (the API's answer for a span without data) is no publication, for the tables and the gold price alike")
    func noData() {
        let requests = provider.requests(for: .range(day("2012-12-24"), day("2012-12-30")))
        #expect(requests.count == 3, "tables A and B and the gold price")
        for request in requests {
            #expect(provider.meansNoPublication(httpStatus: 404, for: request))
            #expect(!provider.meansNoPublication(httpStatus: 400, for: request))
            #expect(!provider.meansNoPublication(httpStatus: 500, for: request))
        }
    }

    @Test("table B's AFA of 2003 is the new afghani (AFN)")
    func afghani() throws {
        // Table B of 2026-03-04 dated 2003-06-04 with the afghani written AFA, as table B wrote it from 2003-01-07 to 2003-11-11.
        var edited = try ProviderFixture.edited(Self.fileB, replacing: #""effectiveDate":"2026-03-04""#, with: #""effectiveDate":"2003-06-04""#)
        edited = try #require(ProviderFixture.replacing(#""code":"AFN""#, with: #""code":"AFA""#, in: edited))
        let table = try #require(try provider.parse(edited, of: tableB).first)
        #expect(table["AFN"] == quote("AFN", "0.056626") && table["AFA"] == nil)
        // Before 2003-01-07, AFA is the old afghani.
        var older = try ProviderFixture.edited(Self.fileB, replacing: #""effectiveDate":"2026-03-04""#, with: #""effectiveDate":"2002-12-04""#)
        older = try #require(ProviderFixture.replacing(#""code":"AFN""#, with: #""code":"AFA""#, in: older))
        #expect(try provider.parse(older, of: tableB).first?["AFA"] == quote("AFA", "0.056626"))
    }

    @Test("rejects a rate replaced by garbage, a negative rate, a duplicated currency, a bad code and a bad day")
    func rejectsBadRows() throws {
        let bytes = try ProviderFixture.bytes(Self.fileA)
        let garbage = try #require(ProviderFixture.replacing(#""mid":3.6056"#, with: #""mid":"3,60x""#, in: bytes))
        #expect(ProviderFixture.error(garbage, provider, request: tableA) == .invalidRate(currency: CurrencyCode("USD")!, day: day("2026-03-02"), text: "3,60x"))
        let negative = try #require(ProviderFixture.replacing(#""mid":3.6056"#, with: #""mid":-3.6056"#, in: bytes))
        #expect(ProviderFixture.error(negative, provider, request: tableA) == .invalidRate(currency: CurrencyCode("USD")!, day: day("2026-03-02"), text: "-3.6056"))
        let null = try #require(ProviderFixture.replacing(#""mid":3.6056"#, with: #""mid":null"#, in: bytes))
        #expect(ProviderFixture.error(null, provider, request: tableA) == .invalidRate(currency: CurrencyCode("USD")!, day: day("2026-03-02"), text: "null"))
        let duplicate = try #require(ProviderFixture.replacing(#""code":"USD""#, with: #""code":"THB""#, in: bytes))
        #expect(ProviderFixture.error(duplicate, provider, request: tableA) == .duplicateCurrency(CurrencyCode("THB")!, day: day("2026-03-02")))
        let lowercase = try #require(ProviderFixture.replacing(#""code":"USD""#, with: #""code":"usd""#, in: bytes))
        #expect(ProviderFixture.error(lowercase, provider, request: tableA) == .invalidCurrencyCode("usd", day: day("2026-03-02")))
        let badDay = try #require(ProviderFixture.replacing("2026-03-03", with: "2026-02-30", in: bytes))
        #expect(ProviderFixture.error(badDay, provider, request: tableA) == .invalidDay("2026-02-30"))
        let twice = try #require(ProviderFixture.replacing("2026-03-03", with: "2026-03-02", in: bytes))
        #expect(ProviderFixture.error(twice, provider, request: tableA) == .duplicateDay(day("2026-03-02")))
    }

    @Test("rejects truncated answers, an HTML error page, an empty body, and table B where A was asked for")
    func rejectsWrongAnswers() throws {
        let bytes = try ProviderFixture.bytes(Self.fileA)
        for prefix in ProviderFixture.truncations(of: bytes) {
            #expect(ProviderFixture.error(prefix, provider, request: tableA)?.isUnexpectedLayout == true, "prefix of \(prefix.count) bytes")
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: tableA)?.isUnexpectedLayout == true)
        #expect(ProviderFixture.error([], provider, request: tableA) == .empty)
        #expect(ProviderFixture.error(Array("[]".utf8), provider, request: tableA) == .empty)
        #expect(ProviderFixture.error(Array("404 NotFound - Not Found - Brak danych".utf8), provider, request: tableA)?.isUnexpectedLayout == true)
        #expect(try ProviderFixture.error(ProviderFixture.bytes(Self.fileB), provider, request: tableA)?.isUnexpectedLayout == true)
        let noRates = try #require(ProviderFixture.replacing(#""rates""#, with: #""rate""#, in: bytes))
        #expect(ProviderFixture.error(noRates, provider, request: tableA)?.isUnexpectedLayout == true)
    }

    @Test("asks for the newest tables A and B and gold price, and a range in spans of at most 93 days each")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == [
            "https://api.nbp.pl/api/exchangerates/tables/A/?format=json",
            "https://api.nbp.pl/api/exchangerates/tables/B/?format=json",
            "https://api.nbp.pl/api/cenyzlota/?format=json",
        ])
        #expect(provider.requests(for: .latest).map(\.subject) == ["A", "B", "gold"])
        #expect(provider.requests(for: .range(day("2026-03-01"), day("2026-03-05"))).map(\.url) == [tableA.url, tableB.url, gold.url])
        #expect(provider.requests(for: .range(day("2026-01-01"), day("2026-06-30"))).map(\.url) == [
            "https://api.nbp.pl/api/exchangerates/tables/A/2026-01-01/2026-04-03/?format=json",
            "https://api.nbp.pl/api/exchangerates/tables/A/2026-04-04/2026-06-30/?format=json",
            "https://api.nbp.pl/api/exchangerates/tables/B/2026-01-01/2026-04-03/?format=json",
            "https://api.nbp.pl/api/exchangerates/tables/B/2026-04-04/2026-06-30/?format=json",
            "https://api.nbp.pl/api/cenyzlota/2026-01-01/2026-04-03/?format=json",
            "https://api.nbp.pl/api/cenyzlota/2026-04-04/2026-06-30/?format=json",
        ])
        let local = NBPProvider(baseURL: "http://127.0.0.1:9/nbp").requests(for: .latest)
        #expect(local.map(\.url) == [
            "http://127.0.0.1:9/nbp/tables/A/?format=json", "http://127.0.0.1:9/nbp/tables/B/?format=json", "http://127.0.0.1:9/nbp/cenyzlota/?format=json",
        ])
        #expect(provider.key == "NBP" && provider.pivot.rawValue == "PLN" && provider.country == "PL" && !provider.needsAPIKey)
    }

    @Test("reads the gold prices of 2026-03-02 to 2026-03-05, PLN per gram, as XAU per troy ounce exactly: 595.71 × 31.1034768")
    func goldPrices() throws {
        let publications = try provider.parse(ProviderFixture.bytes(Self.goldFile), of: gold)
        #expect(publications.map(\.day) == [day("2026-03-02"), day("2026-03-03"), day("2026-03-04"), day("2026-03-05")])
        // Each product checked with Python's decimal.
        #expect(publications.map { $0["XAU"] } == [
            quote("XAU", "18528.652164528"), quote("XAU", "19437.184721856"), quote("XAU", "19418.522635776"), quote("XAU", "19051.190574768"),
        ])
        #expect(publications.allSatisfy { $0.quotes.count == 1 })
        // A table is not read as gold prices, nor the other way round; a garbled price rejects the answer.
        #expect(ProviderFixture.error { try provider.parse(ProviderFixture.bytes(Self.fileA), of: gold) } != nil)
        #expect(ProviderFixture.error { try provider.parse(ProviderFixture.bytes(Self.goldFile), of: tableA) } != nil)
        let garbled = try ProviderFixture.edited(Self.goldFile, replacing: "595.71", with: "\"595,71x\"")
        #expect(ProviderFixture.error { try provider.parse(garbled, of: gold) } != nil)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(Self.goldFile)) {
            #expect(ProviderFixture.error { try provider.parse(cut, of: gold) } != nil)
        }
    }
}
