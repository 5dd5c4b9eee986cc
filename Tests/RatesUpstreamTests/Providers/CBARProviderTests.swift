import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("CBAR adapter")
struct CBARProviderTests {
    let provider = CBARProvider(today: { Day("2026-09-09")! })
    let file = "cbar-azerbaijan/03_07.09.2026.xml"
    let day = Day("2026-09-07")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the bulletin of 2026-09-07: 38 currencies with the SDR as XDR, AZN per Nominal units, and 4 metals per troy ounce")
    func bulletin() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day) == [day])
        let table = try #require(publications.first)
        #expect(table.quotes.count == 42)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        #expect(table["USD"] == quote("USD", "1.7"))
        #expect(table["EUR"] == quote("EUR", "1.9739"))
        #expect(table["GBP"] == quote("GBP", "2.297"))
        #expect(table["XDR"] == quote("XDR", "2.3322"))
        #expect(table["RUB"] == quote("RUB", "1.9728", unit: 100))
        #expect(table["JPY"] == quote("JPY", "1.0894", unit: 100))
        #expect(table["SDR"] == nil)
        // Manats per troy ounce (`1 t.u.`), ISO 4217's unit of the metals, as published.
        #expect(table["XAU"] == quote("XAU", "7476.3875"))
        #expect(table["XAG"] == quote("XAG", "111.7334"))
        #expect(table["XPT"] == quote("XPT", "3060.9435"))
        #expect(table["XPD"] == quote("XPD", "2368.457"))
        // A metal per another unit than one troy ounce, or a code that is not a metal's, rejects the bulletin.
        for (original, edited) in [("<Nominal>1 t.u.</Nominal>", "<Nominal>1 q</Nominal>"), ("<Valute Code=\"XPD\">", "<Valute Code=\"USD\">")] {
            let body = try ProviderFixture.edited(file, replacing: original, with: edited)
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(body) }), "\(edited)")
        }
        #expect(table.quotes.filter { $0.unit != 1 }.map(\.currency.rawValue).sorted() == ["HUF", "JPY", "KRW", "KZT", "PKR", "RUB", "UZS"])
    }

    @Test("reads the weekend's answers as Friday's bulletin, under Friday's date")
    func weekend() throws {
        let urls = ["00_04.09.2026.xml", "01_05.09.2026.xml", "02_06.09.2026.xml", "03_07.09.2026.xml"].map { Fixtures.url("cbar-azerbaijan/" + $0) }
        let publications = try provider.publications(inFiles: urls, subjects: [], today: Day("2026-09-09")!)
        #expect(publications.map(\.day.description) == ["2026-09-04", "2026-09-07"])
        #expect(ProviderFixture.quote("EUR", on: "2026-09-04", in: publications) == quote("EUR", "1.9765"))
    }

    @Test("gives no publication for a bulletin before the 2006 redenomination: old manats labelled AZN")
    func oldManat() throws {
        let old = try ProviderFixture.bytes("cbar-azerbaijan/05_26.11.1993.xml")
        #expect(try parse(old).isEmpty)
        // Its figures are read all the same: a malformed old bulletin is still rejected.
        let malformed = try ProviderFixture.edited("cbar-azerbaijan/05_26.11.1993.xml", replacing: "<Value>118</Value>", with: "<Value>1l8</Value>")
        #expect(ProviderFixture.error { try parse(malformed) } == .invalidRate(currency: CurrencyCode("USD")!, day: Day("1993-11-25")!, text: "1l8"))
        #expect(throws: ProviderFileError.self) {
            try provider.publications(inFiles: [Fixtures.url("cbar-azerbaijan/05_26.11.1993.xml")], subjects: [], today: Day("2026-09-09")!)
        }
    }

    @Test("asks for today's file, and for a range one file per Monday to Friday, none before 2006")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == ["https://www.cbar.az/currencies/09.09.2026.xml"])
        let range = provider.requests(for: .range(Day("2026-09-04")!, Day("2026-09-08")!))
        #expect(
            range.map(\.url) == [
                "https://www.cbar.az/currencies/04.09.2026.xml", "https://www.cbar.az/currencies/07.09.2026.xml",
                "https://www.cbar.az/currencies/08.09.2026.xml",
            ])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(provider.requests(for: .range(Day("2005-12-29")!, Day("2006-01-03")!)).map(\.url) == [
            "https://www.cbar.az/currencies/02.01.2006.xml", "https://www.cbar.az/currencies/03.01.2006.xml",
        ])
        #expect(provider.requests(for: .range(Day("1993-11-22")!, Day("1993-11-26")!)).isEmpty)
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<Value>1.9739</Value>", with: "<Value>1.97.39</Value>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("EUR")!, day: day, text: "1.97.39"))
        let empty = try ProviderFixture.edited(file, replacing: "<Value>1.9739</Value>", with: "<Value></Value>")
        #expect(ProviderFixture.error { try parse(empty) } == .invalidRate(currency: CurrencyCode("EUR")!, day: day, text: ""))
    }

    @Test("rejects a currency listed twice")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "<Valute Code=\"EUR\">", with: "<Valute Code=\"USD\">")
        #expect(ProviderFixture.error { try parse(body) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
    }

    @Test("rejects a bad code, nominal or day, and a group of another kind")
    func badFields() throws {
        let code = try ProviderFixture.edited(file, replacing: "<Valute Code=\"EUR\">", with: "<Valute Code=\"EURO\">")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("EURO", day: day))
        let nominal = try ProviderFixture.edited(file, replacing: "<Nominal>100</Nominal>", with: "<Nominal>100 t.u.</Nominal>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(nominal) }))
        let date = try ProviderFixture.edited(file, replacing: "Date=\"07.09.2026\"", with: "Date=\"7.9.2026\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("7.9.2026"))
        let group = try ProviderFixture.edited(file, replacing: "Type=\"Xarici valyutalar\"", with: "Type=\"Foreign currencies\"")
        #expect(ProviderFixture.error { try parse(group) }?.isLayout(of: "CBAR") == true)
    }

    @Test("rejects truncated bodies, an HTML error page, an empty body and a bulletin without currencies")
    func notTheBulletin() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file)) {
            #expect(ProviderFixture.error { try parse(cut) } != nil)
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let empty = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ValCurs Date=\"07.09.2026\"><ValType Type=\"Xarici valyutalar\"></ValType></ValCurs>".utf8)
        #expect(ProviderFixture.error { try parse(empty) } == .emptyDay(day))
    }
}
