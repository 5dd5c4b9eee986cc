import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("NBT adapter")
struct NBTProviderTests {
    let provider = NBTProvider(today: { Day("2026-05-22")! })
    let file = "nbt-tajikistan/01_en_kurs_export_xml.php_date=2026-05-19_export=xmlout.xml"
    let day = Day("2026-05-19")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the table of 2026-05-19: 36 currencies, TJS per Nominal units, trailing zeros kept")
    func dailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day) == [day])
        let table = try #require(publications.first)
        #expect(table.quotes.count == 36)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        #expect(table["USD"] == quote("USD", "9.3371"))
        #expect(table["EUR"] == quote("EUR", "10.8600"))
        #expect(table["UZS"] == quote("UZS", "0.0777", unit: 100))
        #expect(table["IRR"] == quote("IRR", "0.0071", unit: 1000))
        #expect(table["INR"] == quote("INR", "0.9690", unit: 10))
        #expect(table.quotes.filter { $0.unit != 1 }.count == 11)
    }

    @Test("imports both recorded days")
    func imports() throws {
        let urls = [
            "nbt-tajikistan/00_en_kurs_export_xml.php_date=2026-05-18_export=xmlout.xml", file,
        ].map { Fixtures.url($0) }
        let publications = try provider.publications(inFiles: urls, subjects: [], today: Day("2026-05-22")!)
        #expect(publications.map(\.day.description) == ["2026-05-18", "2026-05-19"])
        #expect(ProviderFixture.quote("USD", on: "2026-05-18", in: publications) == quote("USD", "9.3450"))
    }

    @Test("asks for today's table, and for a range one table per day, weekends included")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == ["https://www.nbt.tj/en/kurs/export_xml.php?date=2026-05-22&export=xmlout"])
        let range = provider.requests(for: .range(Day("2026-05-16")!, Day("2026-05-18")!))
        #expect(
            range.map(\.url) == [
                "https://www.nbt.tj/en/kurs/export_xml.php?date=2026-05-16&export=xmlout",
                "https://www.nbt.tj/en/kurs/export_xml.php?date=2026-05-17&export=xmlout",
                "https://www.nbt.tj/en/kurs/export_xml.php?date=2026-05-18&export=xmlout",
            ])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<Value>9.3371</Value>", with: "<Value>9.33 71.</Value>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "9.33 71."))
    }

    @Test("rejects a currency listed twice")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "<CharCode>EUR</CharCode>", with: "<CharCode>USD</CharCode>")
        #expect(ProviderFixture.error { try parse(body) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
    }

    @Test("rejects a bad code, nominal or day")
    func badFields() throws {
        let code = try ProviderFixture.edited(file, replacing: "<CharCode>EUR</CharCode>", with: "<CharCode>978</CharCode>")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("978", day: day))
        let nominal = try ProviderFixture.edited(file, replacing: "<Nominal>1000</Nominal>", with: "<Nominal>-1000</Nominal>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(nominal) }))
        let notPowerOfTen = try ProviderFixture.edited(file, replacing: "<Nominal>1000</Nominal>", with: "<Nominal>500</Nominal>")
        #expect(ProviderFixture.error { try parse(notPowerOfTen) } == .invalidRate(currency: CurrencyCode("IRR")!, day: day, text: "0.0071"))
        let date = try ProviderFixture.edited(file, replacing: "Date=\"2026-05-19\"", with: "Date=\"19.05.2026\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("19.05.2026"))
    }

    @Test("rejects truncated bodies, an HTML error page, an empty body and a table without currencies")
    func notTheTable() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file)) {
            #expect(ProviderFixture.error { try parse(cut) } != nil)
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let empty = Array("<?xml version=\"1.0\" encoding=\"utf-8\" ?><ValCurs Date=\"2026-05-19\" name=\"Foreign Currency Market\"></ValCurs>".utf8)
        #expect(ProviderFixture.error { try parse(empty) } == .emptyDay(day))
    }
}
