import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("CNB adapter")
struct CNBProviderTests {
    let provider = CNBProvider()
    let text = "cnb-czech/denni_kurz_2000-04-21.txt"
    let year = "cnb-czech/cnbapi_exrates_daily-year_2026.json"

    var latest: ProviderRequest { provider.requests(for: .latest)[0] }
    var yearRequest: ProviderRequest { provider.requests(for: .range(Day("2026-01-01")!, Day("2026-04-02")!))[0] }

    @Test("reads denni_kurz.txt of 2000-04-21: 17 fixing rows and 11 legacy euro currencies, CZK per amount")
    func readsText() throws {
        let publications = try provider.parse(try ProviderFixture.bytes(text), of: latest)
        #expect(publications.map(\.day) == [Day("2000-04-21")!])
        #expect(publications[0].quotes.count == 28)
        #expect(publications[0].quotes.allSatisfy { $0.direction == .pivotPerUnits })
        func quote(_ code: String) -> PublishedQuote? { ProviderFixture.quote(code, on: "2000-04-21", in: publications) }
        #expect(quote("AUD") == PublishedQuote(currency: CurrencyCode("AUD")!, value: "22.978", unit: 1, direction: .pivotPerUnits))
        #expect(quote("JPY") == PublishedQuote(currency: CurrencyCode("JPY")!, value: "36.850", unit: 100, direction: .pivotPerUnits))
        #expect(quote("EUR")?.value == "36.270")
        #expect(quote("ITL") == PublishedQuote(currency: CurrencyCode("ITL")!, value: "18.732", unit: 1000, direction: .pivotPerUnits))
        #expect(quote("DEM")?.value == "18.545")
    }

    @Test("reads the daily-year JSON of 2026: 65 days of 30 currencies, numbers kept as written")
    func readsYear() throws {
        let publications = try provider.parse(try ProviderFixture.bytes(year), of: yearRequest)
        #expect(publications.count == 65)
        #expect(publications.first?.day == Day("2026-01-02"))
        #expect(publications.last?.day == Day("2026-04-02"))
        #expect(publications.allSatisfy { $0.quotes.count == 30 })
        // Written 24.170 in the body: the trailing zero stays.
        #expect(ProviderFixture.quote("EUR", on: "2026-01-02", in: publications)?.value == "24.170")
        #expect(ProviderFixture.quote("EUR", on: "2026-04-02", in: publications)?.value == "24.540")
        #expect(ProviderFixture.quote("JPY", on: "2026-04-02", in: publications) == PublishedQuote(currency: CurrencyCode("JPY")!, value: "13.338", unit: 100, direction: .pivotPerUnits))
        #expect(ProviderFixture.quote("IDR", on: "2026-04-02", in: publications) == PublishedQuote(currency: CurrencyCode("IDR")!, value: "1.253", unit: 1000, direction: .pivotPerUnits))
    }

    @Test("reads the English daily.txt: a day as DD Mon YYYY, the header Country|Currency|Amount|Code|Rate, decimal points")
    func readsEnglishText() throws {
        // The bank serves the same fixing in English (`…/en/…/daily.txt`: `13 Feb 2026 #31`,
        // `Country|Currency|Amount|Code|Rate`, `USA|dollar|1|USD|22.345`). Here the recording's fixing rows
        // written that way: its first line and header in English, its decimal commas made points, the
        // legacy-currency block after them left out. The country and currency names are not read.
        let czech = String(decoding: try ProviderFixture.bytes(text), as: UTF8.self)
        let rows = czech.components(separatedBy: "\n\n")[0].split(separator: "\n").dropFirst(2).map { $0.replacingOccurrences(of: ",", with: ".") }
        let english = (["21 Apr 2000 #80", "Country|Currency|Amount|Code|Rate"] + rows).joined(separator: "\n") + "\n"
        let publications = try provider.parse(Array(english.utf8), of: latest)
        #expect(publications.map(\.day) == [Day("2000-04-21")!])
        #expect(publications[0].quotes.count == 17)
        #expect(ProviderFixture.quote("JPY", in: publications[0]) == PublishedQuote(currency: CurrencyCode("JPY")!, value: "36.850", unit: 100, direction: .pivotPerUnits))
        #expect(ProviderFixture.quote("USD", in: publications[0])?.value == "38.595")
        // The English file with the day written as the Czech one writes it reads the same.
        let dotted = english.replacingOccurrences(of: "21 Apr 2000 #80", with: "21.04.2000 #80")
        #expect(try provider.parse(Array(dotted.utf8), of: latest) == publications)
        // A first line without the running number, or a header of neither file, is refused.
        let noNumber = english.replacingOccurrences(of: "21 Apr 2000 #80", with: "21 Apr 2000")
        #expect(ProviderFixture.error(Array(noNumber.utf8), provider, request: latest)?.isLayout(of: "CNB") == true)
        let header = english.replacingOccurrences(of: "Country|Currency|Amount|Code|Rate", with: "Country|Currency|Amount|Rate|Code")
        #expect(ProviderFixture.error(Array(header.utf8), provider, request: latest)?.isLayout(of: "CNB") == true)
    }

    @Test("a fixing from 1991 on reads; a day before the history's first is refused")
    func history() throws {
        // The text format is the same since 1991: the recording dated in 1993 and in 1990.
        let old = try ProviderFixture.edited(text, replacing: "21.04.2000 #80", with: "21.04.1993 #80")
        #expect(try provider.parse(old, of: latest).map(\.day) == [Day("1993-04-21")!])
        let before = try ProviderFixture.edited(text, replacing: "21.04.2000 #80", with: "31.12.1990 #80")
        #expect(ProviderFixture.error(before, provider, request: latest) == .dayOutOfRange(Day("1990-12-31")!))
        #expect(provider.historyStart == Day("1991-01-01")!)
    }

    @Test("a year without a fixing yet (\"rates\":[]) is no publication")
    func emptyYear() throws {
        let all = String(decoding: try ProviderFixture.bytes(year), as: UTF8.self)
        let empty = String(all[..<all.range(of: "[")!.upperBound]) + "]}"
        #expect(empty == #"{"rates":[]}"#)
        #expect(try provider.parse(Array(empty.utf8), of: yearRequest).isEmpty)
    }

    @Test("a rate that is not a decimal rejects the answer, in the text and in the JSON")
    func garbageRate() throws {
        let body = try ProviderFixture.edited(text, replacing: "USA|dolar|1|USD|38,595", with: "USA|dolar|1|USD|38,5x95")
        #expect(ProviderFixture.error(body, provider, request: latest) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2000-04-21")!, text: "38,5x95"))
        let json = try ProviderFixture.edited(year, replacing: "\"rate\":24.170", with: "\"rate\":\"24.170\"")
        #expect(ProviderFixture.error(json, provider, request: yearRequest)?.isLayout(of: "CNB") == true)
        let negative = try ProviderFixture.edited(year, replacing: "\"rate\":24.170", with: "\"rate\":-24.170")
        #expect(ProviderFixture.error(negative, provider, request: yearRequest) == .invalidRate(currency: .euro, day: Day("2026-01-02")!, text: "-24.170"))
    }

    @Test("a currency listed twice on one day is rejected")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(text, replacing: "Kanada|dolar|1|CAD|", with: "Kanada|dolar|1|AUD|")
        #expect(ProviderFixture.error(body, provider, request: latest) == .duplicateCurrency(CurrencyCode("AUD")!, day: Day("2000-04-21")!))
        let json = try ProviderFixture.edited(year, replacing: "{\"currencyCode\":\"BRL\"", with: "{\"currencyCode\":\"AUD\"")
        #expect(ProviderFixture.error(json, provider, request: yearRequest) == .duplicateCurrency(CurrencyCode("AUD")!, day: Day("2026-01-02")!))
    }

    @Test("an amount that is not a power of ten is a layout error")
    func oddAmount() throws {
        let body = try ProviderFixture.edited(text, replacing: "Japonsko|jen|100|JPY", with: "Japonsko|jen|50|JPY")
        #expect(ProviderFixture.error(body, provider, request: latest)?.isLayout(of: "CNB") == true)
    }

    @Test("a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        #expect(ProviderFixture.error(try ProviderFixture.truncated(text), provider, request: latest)?.isLayout(of: "CNB") == true)
        #expect(ProviderFixture.error(try ProviderFixture.truncated(year), provider, request: yearRequest)?.isLayout(of: "CNB") == true)
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: latest)?.isLayout(of: "CNB") == true)
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: yearRequest)?.isLayout(of: "CNB") == true)
        #expect(ProviderFixture.error([], provider, request: latest) == .empty)
        #expect(ProviderFixture.error([], provider, request: yearRequest) == .empty)
    }

    @Test("latest asks for denni_kurz.txt, a range for each calendar year it touches")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == [
            "https://www.cnb.cz/cs/financni-trhy/devizovy-trh/kurzy-devizoveho-trhu/kurzy-devizoveho-trhu/denni_kurz.txt"
        ])
        #expect(provider.requests(for: .range(Day("2025-12-01")!, Day("2026-03-02")!)).map(\.url) == [
            "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2025",
            "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2026",
        ])
    }
}
