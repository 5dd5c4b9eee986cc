import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("CBR adapter")
struct CBRProviderTests {
    let provider = CBRProvider(today: { Day("2026-03-05")! })
    let metalsFile = "cbr-russia/xml_metall_2026-03-01_2026-03-05.xml"
    let file = "cbr-russia/XML_daily_2026-04-25.xml"
    let day = Day("2026-04-25")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the table of 2026-04-25 in windows-1251: 54 currencies, RUB per Nominal units, decimal commas made points")
    func dailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 1)
        let table = try #require(publications.first)
        #expect(table.day == day)
        #expect(table.quotes.count == 54)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        let dollar = PublishedQuote(currency: CurrencyCode("USD")!, value: "75.5273", direction: .pivotPerUnits)
        #expect(ProviderFixture.quote("USD", in: table) == dollar)
        #expect(ProviderFixture.quote("AUD", in: table)?.value == "53.8359")
        #expect(ProviderFixture.quote("EUR", in: table)?.value == "88.2826")
        // Trailing zeros stay as published.
        #expect(ProviderFixture.quote("CNY", in: table)?.value == "11.0270")
        #expect(ProviderFixture.quote("AMD", in: table).map { [$0.value, "\($0.unit)"] } == ["20.3123", "100"])
        #expect(ProviderFixture.quote("VND", in: table).map { [$0.value, "\($0.unit)"] } == ["30.0750", "10000"])
        #expect(ProviderFixture.quote("IRR", in: table).map { [$0.value, "\($0.unit)"] } == ["53.9256", "1000000"])
        #expect(table.quotes.filter { $0.unit != 1 }.count == 30)
    }

    @Test("asks for the latest table without a date and the last week's metal prices; for a range one table per Tuesday to Saturday and metal prices per year")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == [
            "https://www.cbr.ru/scripts/XML_daily.asp", "https://www.cbr.ru/scripts/xml_metall.asp?date_req1=27/02/2026&date_req2=05/03/2026",
        ])
        // 2026-03-01 is a Sunday: Sundays and Mondays carry no table of their own.
        let range = provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-09")!))
        #expect(
            range.map(\.url) == [
                "https://www.cbr.ru/scripts/XML_daily.asp?date_req=03/03/2026",
                "https://www.cbr.ru/scripts/XML_daily.asp?date_req=04/03/2026",
                "https://www.cbr.ru/scripts/XML_daily.asp?date_req=05/03/2026",
                "https://www.cbr.ru/scripts/XML_daily.asp?date_req=06/03/2026",
                "https://www.cbr.ru/scripts/XML_daily.asp?date_req=07/03/2026",
                "https://www.cbr.ru/scripts/xml_metall.asp?date_req1=01/03/2026&date_req2=09/03/2026",
            ])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        let twoYears = provider.requests(for: .range(Day("2024-01-01")!, Day("2025-12-31")!)).filter { $0.url.contains("xml_metall") }
        #expect(twoYears.map(\.url) == [
            "https://www.cbr.ru/scripts/xml_metall.asp?date_req1=01/01/2024&date_req2=31/12/2024",
            "https://www.cbr.ru/scripts/xml_metall.asp?date_req1=01/01/2025&date_req2=31/12/2025",
        ])
        #expect(CBRProvider(baseURL: "http://127.0.0.1:8080").requests(for: .latest)[0].url == "http://127.0.0.1:8080/scripts/XML_daily.asp")
    }

    @Test("reads the metal prices per gram as prices per troy ounce, exactly: 12,957.47 roubles per gram of gold on 2026-03-03")
    func metals() throws {
        let request = provider.requests(for: .latest)[1]
        let publications = try provider.parse(ProviderFixture.bytes(metalsFile), of: request)
        #expect(publications.map(\.day.description) == ["2026-03-03", "2026-03-04", "2026-03-05"])
        #expect(publications.allSatisfy { $0.quotes.map(\.currency.rawValue) == ["XAU", "XAG", "XPT", "XPD"] })
        // Each price per gram × 31.1034768 grams per troy ounce, checked with Python's decimal.
        #expect(ProviderFixture.quote("XAU", on: "2026-03-03", in: publications) == PublishedQuote(currency: CurrencyCode("XAU")!, value: "403022.367531696", direction: .pivotPerUnits))
        #expect(ProviderFixture.quote("XAG", on: "2026-03-03", in: publications)?.value == "6943.540160832")
        #expect(ProviderFixture.quote("XPT", on: "2026-03-03", in: publications)?.value == "182592.027450096")
        #expect(ProviderFixture.quote("XPD", on: "2026-03-03", in: publications)?.value == "138371.903448768")
        #expect(ProviderFixture.quote("XAG", on: "2026-03-04", in: publications)?.value == "7343.53087248")
        // Buying and selling apart: their exact midpoint, 12,957.475 per gram.
        let spread = try ProviderFixture.edited(metalsFile, replacing: "<Sell>12957,47</Sell>", with: "<Sell>12957,48</Sell>")
        #expect(ProviderFixture.quote("XAU", on: "2026-03-03", in: try provider.parse(spread, of: request))?.value == "403022.52304908")
        // A metal code the adapter does not know, a price that is not a number, a record without its day: rejected whole.
        for (original, edited) in [(#"Code="4""#, #"Code="5""#), ("<Buy>223,24</Buy>", "<Buy>223;24</Buy>"), (#"Date="05.03.2026" "#, "")] {
            let body = try ProviderFixture.edited(metalsFile, replacing: original, with: edited)
            #expect(ProviderFixture.error { try provider.parse(body, of: request) } != nil, "\(edited)")
        }
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(metalsFile)) {
            #expect(ProviderFixture.error { try provider.parse(cut, of: request) } != nil)
        }
        // A week of holidays has no prices: nothing published, not an error.
        let holidays = Array(#"<?xml version="1.0" encoding="windows-1251"?><Metall FromDate="20260101" ToDate="20260107" name="Precious metals quotations"></Metall>"#.utf8)
        #expect(try provider.parse(holidays, of: request).isEmpty)
        // The currency table is not read as metal prices, nor the other way round.
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try provider.parse(ProviderFixture.bytes(file), of: request) }))
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.bytes(metalsFile)) }))
    }

    /// The recorded `XML_dynamic.asp` answers: one currency each, 2026-03-01 to 05.
    static let dynamicFiles = ["R01135_HUF", "R01235_USD", "R01239_EUR", "R01375_CNY", "R01820_JPY"].map {
        "cbr-russia/XML_dynamic_\($0)_2026-03-01_2026-03-05.xml"
    }
    let dollarRange = "cbr-russia/XML_dynamic_R01235_USD_2026-03-01_2026-03-05.xml"

    @Test("reads a currency's XML_dynamic answer: its figure on each table day of the range, the currency known by the bank's ID")
    func currencyRange() throws {
        let dollar = try parse(ProviderFixture.bytes(dollarRange))
        #expect(dollar.map(\.day.description) == ["2026-03-03", "2026-03-04", "2026-03-05"])
        #expect(dollar.map(\.quotes) == [[quote("USD", "77.1734")], [quote("USD", "77.6093")], [quote("USD", "77.8009")]])
        let yen = try parse(ProviderFixture.bytes("cbr-russia/XML_dynamic_R01820_JPY_2026-03-01_2026-03-05.xml"))
        #expect(ProviderFixture.quote("JPY", on: "2026-03-03", in: yen) == quote("JPY", "49.3436", unit: 100))
        // Trailing zeros stay as published.
        let forint = try parse(ProviderFixture.bytes("cbr-russia/XML_dynamic_R01135_HUF_2026-03-01_2026-03-05.xml"))
        #expect(ProviderFixture.quote("HUF", on: "2026-03-05", in: forint) == quote("HUF", "23.4030", unit: 100))
        // Read as the answer to a table request of a range too.
        let rangeRequest = provider.requests(for: .range(Day("2026-03-03")!, Day("2026-03-05")!))[0]
        #expect(try provider.parse(ProviderFixture.bytes(dollarRange), of: rangeRequest) == dollar)
    }

    @Test("the five recorded XML_dynamic answers import together: three days of five currencies")
    func importsCurrencyRanges() throws {
        let publications = try ProviderFile.read(try Self.dynamicFiles.map { try ProviderFixture.bytes($0) }, provider: provider)
        #expect(publications.map(\.day.description) == ["2026-03-03", "2026-03-04", "2026-03-05"])
        #expect(publications.allSatisfy { $0.codes == ["CNY", "EUR", "HUF", "JPY", "USD"] })
        #expect(ProviderFixture.quote("CNY", on: "2026-03-03", in: publications) == quote("CNY", "11.1960"))
        #expect(ProviderFixture.quote("EUR", on: "2026-03-05", in: publications) == quote("EUR", "90.7458"))
    }

    @Test("an XML_dynamic answer without records is no publication; an unknown ID, a record of another ID, a bad figure are rejected")
    func currencyRangeAltered() throws {
        // A range of holidays: the recording with its records taken out.
        let all = String(decoding: try ProviderFixture.bytes(dollarRange), as: UTF8.self)
        let empty = Array((all[..<all.range(of: "<Record ")!.lowerBound] + "</ValCurs>").utf8)
        #expect(try parse(empty).isEmpty)
        let unknown = try ProviderFixture.edited(dollarRange, replacing: #"<ValCurs ID="R01235""#, with: #"<ValCurs ID="R09999""#)
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(unknown) }))
        let other = try ProviderFixture.edited(dollarRange, replacing: #"<Record Date="04.03.2026" Id="R01235">"#, with: #"<Record Date="04.03.2026" Id="R01239">"#)
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(other) }))
        let value = try ProviderFixture.edited(dollarRange, replacing: "<Value>77,6093</Value>", with: "<Value>77,60x3</Value>")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-04")!, text: "77,60x3"))
        let twice = try ProviderFixture.edited(dollarRange, replacing: #"<Record Date="04.03.2026""#, with: #"<Record Date="03.03.2026""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-03-03")!))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(dollarRange), stride: 37) {
            #expect(ProviderFixture.error { try parse(cut) } != nil)
        }
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<Value>75,5273</Value>", with: "<Value>75,52x3</Value>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "75,52x3"))
    }

    @Test("rejects a currency listed twice")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "<CharCode>AUD</CharCode>", with: "<CharCode>USD</CharCode>")
        #expect(ProviderFixture.error { try parse(body) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
    }

    @Test("rejects a code that is not three capital letters, a missing or non-numeric Nominal, a unit not a power of ten, a day that does not exist")
    func badFields() throws {
        let code = try ProviderFixture.edited(file, replacing: "<CharCode>AUD</CharCode>", with: "<CharCode>Aud</CharCode>")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("Aud", day: day))
        let noNominal = try ProviderFixture.edited(file, replacing: "<CharCode>AUD</CharCode><Nominal>1</Nominal>", with: "<CharCode>AUD</CharCode>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(noNominal) }))
        let nominal = try ProviderFixture.edited(file, replacing: "<Nominal>1000000</Nominal>", with: "<Nominal>1e6</Nominal>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(nominal) }))
        let notPowerOfTen = try ProviderFixture.edited(file, replacing: "<Nominal>1000000</Nominal>", with: "<Nominal>1000001</Nominal>")
        #expect(ProviderFixture.error { try parse(notPowerOfTen) } == .invalidRate(currency: CurrencyCode("IRR")!, day: day, text: "53.9256"))
        let date = try ProviderFixture.edited(file, replacing: "Date=\"25.04.2026\"", with: "Date=\"31.04.2026\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("31.04.2026"))
    }

    @Test("rejects a truncated body, an HTML error page, an empty body and a table without currencies")
    func notTheTable() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let empty = Array(#"<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="25.04.2026" name="Foreign Currency Market"></ValCurs>"#.utf8)
        #expect(ProviderFixture.error { try parse(empty) } == .emptyDay(day))
    }
}
