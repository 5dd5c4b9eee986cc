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

    @Test("rejects a truncated bulletin, an HTML error page and an empty body")
    func notTheBulletin() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }
}
