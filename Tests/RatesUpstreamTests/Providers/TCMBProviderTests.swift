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
        let publications = try parse(XMLAdapterTesting.bytes(file))
        #expect(publications.map(\.day) == [day])
        let bulletin = try #require(publications.first)
        #expect(bulletin.quotes.count == 18)
        #expect(bulletin.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        // (2.8852 + 2.8904) / 2
        let dollar = PublishedQuote(currency: xmlAdapterCode("USD"), value: "2.8878", direction: .pivotPerUnits)
        #expect(XMLAdapterTesting.quote("USD", in: bulletin) == dollar)
        // (3.2025 + 3.2083) / 2
        #expect(XMLAdapterTesting.quote("EUR", in: bulletin)?.value == "3.2054")
        // (0.04047 + 0.041) / 2: one digit more than the longer text when the sum is odd.
        #expect(XMLAdapterTesting.quote("RUB", in: bulletin)?.value == "0.040735")
        // (2.5472 + 2.5641) / 2 per 100 yen.
        #expect(XMLAdapterTesting.quote("JPY", in: bulletin).map { [$0.value, "\($0.unit)"] } == ["2.55565", "100"])
        #expect(XMLAdapterTesting.quote("IRR", in: bulletin).map { [$0.value, "\($0.unit)"] } == ["0.009555", "100"])
        // The SDR has a buying rate only.
        #expect(XMLAdapterTesting.quote("XDR", in: bulletin) == nil)
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
        let garbage = try XMLAdapterTesting.bytes(file, replacing: "<ForexSelling>2.8904</ForexSelling>", with: "<ForexSelling>2.89O4</ForexSelling>")
        #expect(XMLAdapterTesting.error { try parse(garbage) } == .invalidRate(currency: xmlAdapterCode("USD"), day: day, text: "2.89O4"))
        let missing = try XMLAdapterTesting.bytes(file, replacing: "<ForexSelling>2.8904</ForexSelling>", with: "<ForexSelling></ForexSelling>")
        #expect(XMLAdapterTesting.error { try parse(missing) } == .invalidRate(currency: xmlAdapterCode("USD"), day: day, text: ""))
        let twice = try XMLAdapterTesting.bytes(file, replacing: "Kod=\"AUD\" CurrencyCode=\"AUD\"", with: "Kod=\"AUD\" CurrencyCode=\"USD\"")
        #expect(XMLAdapterTesting.error { try parse(twice) } == .duplicateCurrency(xmlAdapterCode("USD"), day: day))
        let dates = try XMLAdapterTesting.bytes(file, replacing: "Date=\"03/15/2016\"", with: "Date=\"03/16/2016\"")
        #expect(XMLAdapterTesting.isUnexpectedLayout(XMLAdapterTesting.error { try parse(dates) }))
        let unit = try XMLAdapterTesting.bytes(file, replacing: "100</Unit>\n        <Isim>JAPON", with: "hundred</Unit>\n        <Isim>JAPON")
        #expect(XMLAdapterTesting.isUnexpectedLayout(XMLAdapterTesting.error { try parse(unit) }))
    }

    @Test("rejects a truncated bulletin, an HTML error page and an empty body")
    func notTheBulletin() throws {
        #expect(XMLAdapterTesting.isNotTheDocument(XMLAdapterTesting.error { try parse(XMLAdapterTesting.truncated(file)) }))
        #expect(XMLAdapterTesting.isNotTheDocument(XMLAdapterTesting.error { try parse(XMLAdapterTesting.htmlErrorPage) }))
        #expect(XMLAdapterTesting.error { try parse([]) } == .empty)
    }
}
