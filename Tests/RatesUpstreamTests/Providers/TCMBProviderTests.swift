import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("TCMB adapter")
struct TCMBProviderTests {
    let provider = TCMBProvider()
    let file = "tcmb-turkey/kurlar_today_2016-03-15.xml"
    let day = Day("2016-03-15")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the bulletin of 2016-03-15 in ISO-8859-9: 18 currencies at the midpoint of forex buying and selling, TRY per Unit")
    func bulletin() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day) == [day])
        let bulletin = try #require(publications.first)
        #expect(bulletin.quotes.count == 18)
        #expect(bulletin.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        // (2.8852 + 2.8904) / 2
        let dollar = PublishedQuote(currency: CurrencyCode("USD")!, value: "2.8878", direction: .pivotPerUnits)
        #expect(ProviderFixture.quote("USD", in: bulletin) == dollar)
        // (3.2025 + 3.2083) / 2
        #expect(ProviderFixture.quote("EUR", in: bulletin)?.value == "3.2054")
        // (0.04047 + 0.041) / 2: one digit more than the longer text when the sum is odd.
        #expect(ProviderFixture.quote("RUB", in: bulletin)?.value == "0.040735")
        // (2.5472 + 2.5641) / 2 per 100 yen.
        #expect(ProviderFixture.quote("JPY", in: bulletin).map { [$0.value, "\($0.unit)"] } == ["2.55565", "100"])
        #expect(ProviderFixture.quote("IRR", in: bulletin).map { [$0.value, "\($0.unit)"] } == ["0.009555", "100"])
        // The SDR has a buying rate only.
        #expect(ProviderFixture.quote("XDR", in: bulletin) == nil)
    }

    @Test("asks for today.xml, and for a range one bulletin per Monday to Friday at kurlar/YYYYMM/DDMMYYYY.xml")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == ["https://www.tcmb.gov.tr/kurlar/today.xml"])
        #expect(
            provider.requests(for: .range(Day("2026-02-27")!, Day("2026-03-03")!)).map(\.url) == [
                "https://www.tcmb.gov.tr/kurlar/202602/27022026.xml",
                "https://www.tcmb.gov.tr/kurlar/202603/02032026.xml",
                "https://www.tcmb.gov.tr/kurlar/202603/03032026.xml",
            ])
    }

    @Test("rejects a rate that is not a decimal, a missing selling rate, a currency listed twice, dates that disagree")
    func badRows() throws {
        let garbage = try ProviderFixture.edited(file, replacing: "<ForexSelling>2.8904</ForexSelling>", with: "<ForexSelling>2.89O4</ForexSelling>")
        #expect(ProviderFixture.error { try parse(garbage) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "2.89O4"))
        let missing = try ProviderFixture.edited(file, replacing: "<ForexSelling>2.8904</ForexSelling>", with: "<ForexSelling></ForexSelling>")
        #expect(ProviderFixture.error { try parse(missing) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: ""))
        let twice = try ProviderFixture.edited(file, replacing: "Kod=\"AUD\" CurrencyCode=\"AUD\"", with: "Kod=\"AUD\" CurrencyCode=\"USD\"")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let dates = try ProviderFixture.edited(file, replacing: "Date=\"03/15/2016\"", with: "Date=\"03/16/2016\"")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(dates) }))
        let unit = try ProviderFixture.edited(file, replacing: "100</Unit>\n        <Isim>JAPON", with: "hundred</Unit>\n        <Isim>JAPON")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(unit) }))
    }

    let evds = "tcmb-turkey/evds3_TP.DK_2026-03-01_2026-03-20.json"

    @Test("reads an EVDS3 answer: the working days' midpoints of the buying and selling series, JPY per 100, null days left out")
    func evdsSeries() throws {
        let publications = try parse(ProviderFixture.bytes(evds))
        #expect(publications.count == 14)
        #expect(publications.first?.day == Day("2026-03-02")! && publications.last?.day == Day("2026-03-19")!)
        #expect(!publications.contains { [Day("2026-03-07")!, Day("2026-03-20")!].contains($0.day) })
        #expect(publications.allSatisfy { $0.quotes.count == 21 && $0.quotes.allSatisfy { $0.direction == .pivotPerUnits } })
        // (43.80000000 + 43.87890000) / 2
        #expect(ProviderFixture.quote("USD", on: "2026-03-02", in: publications) == quote("USD", "43.83945000"))
        // (51.70080000 + 51.79390000) / 2
        #expect(ProviderFixture.quote("EUR", on: "2026-03-02", in: publications)?.value == "51.74735000")
        // (28.00720000 + 28.19270000) / 2 per 100 yen.
        #expect(ProviderFixture.quote("JPY", on: "2026-03-02", in: publications) == quote("JPY", "28.09995000", unit: 100))
        // (0.03025000 + 0.03064000) / 2
        #expect(ProviderFixture.quote("KRW", on: "2026-03-02", in: publications) == quote("KRW", "0.03044500"))
    }

    @Test("an EVDS3 answer of days without a bulletin only is no publication; a currency with one of its two rates, or bad figures, are rejected")
    func evdsEdges() throws {
        // The recording cut after its first item, the Sunday 2026-03-01, whose series are all null.
        let text = String(decoding: try ProviderFixture.bytes(evds), as: UTF8.self)
        let sunday = try #require(text.range(of: #",{"Tarih":"02-03-2026""#))
        #expect(try parse(Array((text[..<sunday.lowerBound] + "]}").utf8)) == [])
        let monday = Day("2026-03-02")!
        let half = try ProviderFixture.edited(evds, replacing: "\"TP_DK_USD_S_YTL\":\"43.87890000\"", with: "\"TP_DK_USD_S_YTL\":null")
        #expect(ProviderFixture.error { try parse(half) } == .invalidRate(currency: CurrencyCode("USD")!, day: monday, text: "43.80000000 / null"))
        let garbage = try ProviderFixture.edited(evds, replacing: "\"TP_DK_USD_S_YTL\":\"43.87890000\"", with: "\"TP_DK_USD_S_YTL\":\"43.8789O000\"")
        #expect(ProviderFixture.error { try parse(garbage) } == .invalidRate(currency: CurrencyCode("USD")!, day: monday, text: "43.80000000 / 43.8789O000"))
        let date = try ProviderFixture.edited(evds, replacing: "\"Tarih\":\"02-03-2026\"", with: "\"Tarih\":\"31-02-2026\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("31-02-2026"))
        let series = try ProviderFixture.edited(evds, replacing: "\"TP_DK_USD_S_YTL\":\"43.87890000\"", with: "\"TP_DK_USD_X_YTL\":\"43.87890000\"")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(series) }))
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.truncated(evds)) }))
    }

    @Test("a bulletin before 2005 quotes old lira: its figures kept, read as TRY per a million times the unit; history from 1996-04-16")
    func oldLira() throws {
        // The bulletin dated 2004-03-15, the dollar's rates written in old lira as bulletins of that year were.
        var edited = try ProviderFixture.edited(file, replacing: "Tarih=\"15.03.2016\" Date=\"03/15/2016\"", with: "Tarih=\"15.03.2004\" Date=\"03/15/2004\"")
        edited = try #require(ProviderFixture.replacing("<ForexBuying>2.8852</ForexBuying>", with: "<ForexBuying>1321000</ForexBuying>", in: edited))
        edited = try #require(ProviderFixture.replacing("<ForexSelling>2.8904</ForexSelling>", with: "<ForexSelling>1327000</ForexSelling>", in: edited))
        let bulletin = try #require(try parse(edited).first)
        #expect(bulletin.day == Day("2004-03-15")!)
        #expect(ProviderFixture.quote("USD", in: bulletin) == quote("USD", "1324000", unit: 1_000_000))
        #expect(ProviderFixture.quote("JPY", in: bulletin).map { [$0.value, "\($0.unit)"] } == ["2.55565", "100000000"])
        // 1998 is within the archive; 1995 is before it.
        let older = try ProviderFixture.edited(file, replacing: "Tarih=\"15.03.2016\" Date=\"03/15/2016\"", with: "Tarih=\"16.03.1998\" Date=\"03/16/1998\"")
        #expect(try parse(older).first?.day == Day("1998-03-16")!)
        let before = try ProviderFixture.edited(file, replacing: "Tarih=\"15.03.2016\" Date=\"03/15/2016\"", with: "Tarih=\"15.03.1995\" Date=\"03/15/1995\"")
        #expect(ProviderFixture.error { try parse(before) } == .dayOutOfRange(Day("1995-03-15")!))
    }

    @Test("rejects a truncated bulletin, an HTML error page and an empty body")
    func notTheBulletin() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }
}
