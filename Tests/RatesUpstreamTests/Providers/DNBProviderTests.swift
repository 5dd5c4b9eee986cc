import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("DNB adapter")
struct DNBProviderTests {
    let provider = DNBProvider()
    let latestFile = "dnb-denmark/currencyratesxml_2026-07-13.xml"
    let statbankFile = "dnb-denmark/statbank_DNVALD_from-2025-03-03.csv"

    func parseLatest(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    func parseRange(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .range(Day("2025-03-03")!, Day("2026-03-31")!))[0])
    }

    @Test("reads the latest XML of 2026-07-13: 30 currencies, DKK per 100 units")
    func latest() throws {
        let days = try parseLatest(ProviderFixture.bytes(latestFile))
        #expect(days.map(\.day) == [Day("2026-07-13")!])
        #expect(days.first?.quotes.count == 30)
        #expect(days.first?.quotes.allSatisfy { $0.unit == 100 && $0.direction == .pivotPerUnits } == true)
        let euro = PublishedQuote(currency: CurrencyCode("EUR")!, value: "747.50", unit: 100, direction: .pivotPerUnits)
        #expect(ProviderFixture.quote("EUR", in: days.first) == euro)
        #expect(ProviderFixture.quote("USD", in: days.first)?.value == "654.32")
        #expect(ProviderFixture.quote("IDR", in: days.first)?.value == "0.0363")
        #expect(ProviderFixture.quote("XDR", in: days.first)?.value == "888.91")
    }

    @Test("reads the Statbank CSV from 2025-03-03: 269 days to 2026-03-31, 30 currencies until the lev's '..' rows")
    func statbank() throws {
        let days = try parseRange(ProviderFixture.bytes(statbankFile))
        #expect(days.count == 269)
        #expect(days.first?.day == Day("2025-03-03"))
        #expect(days.last?.day == Day("2026-03-31"))
        #expect(days.allSatisfy { $0.quotes.allSatisfy { $0.unit == 100 && $0.direction == .pivotPerUnits } })
        #expect(days.first?.quotes.count == 30)
        #expect(days.last?.quotes.count == 29)
        #expect(ProviderFixture.quote("BGN", in: days.last) == nil)
        #expect(days.reduce(0) { $0 + $1.quotes.count } == 8070 - days.filter { ProviderFixture.quote("BGN", in: $0) == nil }.count)
        #expect(ProviderFixture.quote("EUR", in: days.last)?.value == "747.3000")
        #expect(ProviderFixture.quote("JPY", in: days.last)?.value == "4.0749")
        #expect(ProviderFixture.quote("AUD", in: days.first { $0.day == Day("2025-07-08") })?.value == "416.2300")
    }

    @Test("asks the bank's XML for the latest, Statbank's DNVALD from the range's first day for a range")
    func requests() throws {
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: "https://www.nationalbanken.dk/api/currencyratesxml?lang=en")])
        let range = try #require(provider.requests(for: .range(Day("2025-03-03")!, Day("2026-03-31")!)).first)
        #expect(range.url == "https://api.statbank.dk/v1/data" && range.method == .post && range.headers["Content-Type"] == "application/json")
        #expect(range.body?.contains(#"{"code":"KURTYP","values":["KBH"]},{"code":"Tid","values":[">=2025M03D03"]}"#) == true)
        #expect(range.body?.hasPrefix(#"{"table":"DNVALD","format":"BULK","lang":"en","valuePresentation":"Code","variables":"#) == true)
    }

    @Test("rejects a rate that is not a decimal, a currency twice, a bad day, another CSV header or rate type")
    func badRows() throws {
        let garbage = try ProviderFixture.edited(latestFile, replacing: "rate=\"654.32\"", with: "rate=\"654,32.1\"")
        let latestDay = Day("2026-07-13")!
        let dollar = CurrencyCode("USD")!
        #expect(ProviderFixture.error { try parseLatest(garbage) } == .invalidRate(currency: dollar, day: latestDay, text: "654,32.1"))
        let twice = try ProviderFixture.edited(latestFile, replacing: "code=\"AUD\"", with: "code=\"USD\"")
        #expect(ProviderFixture.error { try parseLatest(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-07-13")!))
        let csvGarbage = try ProviderFixture.edited(statbankFile, replacing: "EUR;KBH;2026M03D31;747.3000", with: "EUR;KBH;2026M03D31;747.3000x")
        let lastDay = Day("2026-03-31")!
        let euro = CurrencyCode("EUR")!
        #expect(ProviderFixture.error { try parseRange(csvGarbage) } == .invalidRate(currency: euro, day: lastDay, text: "747.3000x"))
        let csvTwice = try ProviderFixture.edited(statbankFile, replacing: "EUR;KBH;2026M03D31;", with: "USD;KBH;2026M03D31;")
        #expect(ProviderFixture.error { try parseRange(csvTwice) } == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-03-31")!))
        let csvDay = try ProviderFixture.edited(statbankFile, replacing: "EUR;KBH;2026M03D31;", with: "EUR;KBH;2026M02D30;")
        #expect(ProviderFixture.error { try parseRange(csvDay) } == .invalidDay("2026M02D30"))
        let header = try ProviderFixture.edited(statbankFile, replacing: "VALUTA;KURTYP;TID;INDHOLD", with: "VALUTA;TID;KURTYP;INDHOLD")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parseRange(header) }))
        let rateType = try ProviderFixture.edited(statbankFile, replacing: "EUR;KBH;2026M03D31;", with: "EUR;KBS;2026M03D31;")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parseRange(rateType) }))
    }

    @Test("reads Statbank's rates back to 1977-01-03, DNVALD's first day; an earlier day is refused")
    func history() throws {
        // A query from before 1999 is answered in the same CSV: the recording with one row dated on DNVALD's first day.
        let old = try ProviderFixture.edited(statbankFile, replacing: "AUD;KBH;2025M07D08;416.2300", with: "AUD;KBH;1977M01D03;416.2300")
        let days = try parseRange(old)
        #expect(days.count == 270)
        #expect(days.first?.day == Day("1977-01-03"))
        #expect(days.first?.quotes == [PublishedQuote(currency: CurrencyCode("AUD")!, value: "416.2300", unit: 100, direction: .pivotPerUnits)])
        let before = try ProviderFixture.edited(statbankFile, replacing: "AUD;KBH;2025M07D08;416.2300", with: "AUD;KBH;1976M12D31;416.2300")
        #expect(ProviderFixture.error { try parseRange(before) } == .dayOutOfRange(Day("1976-12-31")!))
    }

    @Test("an answer without a day, the CSV's header alone or the XML without rates, is no publication")
    func noDay() throws {
        let csv = try ProviderFixture.bytes(statbankFile)
        let header = Array(csv[...csv.firstIndex(of: UInt8(ascii: "\n"))!])
        #expect(String(decoding: header, as: UTF8.self) == "VALUTA;KURTYP;TID;INDHOLD\r\n")
        #expect(try parseRange(header).isEmpty)
        let xml = String(decoding: try ProviderFixture.bytes(latestFile), as: UTF8.self)
        let noRates = String(xml[..<xml.range(of: "<dailyrates")!.lowerBound]) + "</exchangerates>"
        #expect(try parseLatest(Array(noRates.utf8)).isEmpty)
    }

    @Test("rejects truncated answers, an HTML error page and empty bodies")
    func notTheRates() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parseLatest(ProviderFixture.truncated(latestFile)) }))
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parseLatest(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parseRange(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parseLatest([]) } == .empty)
        #expect(ProviderFixture.error { try parseRange([]) } == .empty)
        // Cut inside a line: the last line has too few fields or a shortened value.
        let csv = try ProviderFixture.bytes(statbankFile)
        let cut = Array(csv.prefix(csv.count / 2 + 3))
        #expect(ProviderFixture.error { try parseRange(cut) } != nil)
    }
}
