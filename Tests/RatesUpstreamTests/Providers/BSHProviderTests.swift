import RatesCore
@testable import RatesUpstream
import Testing

@Suite("BSH adapter")
struct BSHProviderTests {
    let provider = BSHProvider()
    let file = "bsh-albania/bsh_archive_02_Kursi_i_kembimit_2024_29746.xlsx"
    let page = "bsh-albania/bsh_archive_01_Exchage_rate_archive.html"
    let january = "xl/worksheets/sheet1.xml"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the 2024 workbook: 246 days in 12 monthly sheets, 13 currencies in lek per unit, JPY per 100; metals left out, the offshore yuan (CNH) read")
    func readsWorkbook() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 246)
        #expect(publications.first?.day == Day("2024-01-03"))
        #expect(publications.last?.day == Day("2024-12-31"))
        #expect(publications.allSatisfy { $0.codes == ["AUD", "CAD", "CHF", "CNH", "CNY", "DKK", "EUR", "GBP", "JPY", "NOK", "SEK", "TRY", "USD", "XDR"] })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits && $0.unit == ($0.currency.rawValue == "JPY" ? 100 : 1) } })
        // Stored as 66.150000000000006: 66.15 lek per 100 yen.
        #expect(ProviderFixture.quote("JPY", on: "2024-01-03", in: publications) == quote("JPY", "66.15", unit: 100))
        #expect(ProviderFixture.quote("USD", on: "2024-01-03", in: publications) == quote("USD", "94.4"))
        #expect(ProviderFixture.quote("EUR", on: "2024-01-03", in: publications)?.value == "103.24")
        #expect(ProviderFixture.quote("XDR", on: "2024-01-03", in: publications)?.value == "126.42")
        #expect(ProviderFixture.quote("CNY", on: "2024-01-03", in: publications)?.value == "13.21")
        #expect(ProviderFixture.quote("USD", on: "2024-12-31", in: publications)?.value == "94.26")
        #expect(ProviderFixture.quote("JPY", on: "2024-12-31", in: publications)?.value == "60.11")
        #expect(ProviderFixture.quote("EUR", on: "2024-12-31", in: publications)?.value == "98.15")
        // 2024-12-05 is written `DT.05.12.2024`, 2024-12-13 `DT. 13.12.2024`.
        #expect(publications.contains { $0.day == Day("2024-12-05") } && publications.contains { $0.day == Day("2024-12-13") })
    }

    @Test("reads the archive page for the yearly workbooks: the newest for the latest, one per year of a range")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://www.bankofalbania.org/Markets/Official_exchange_rate/Exchage_rate_archive/"))
        let session = ProviderSession(body: try ProviderFixture.bytes(page))
        #expect(try provider.requests(for: .latest, session: session) == [
            ProviderRequest(url: "https://www.bankofalbania.org/rc/doc/Kursi_i_kembimit_dhjetor_2025_32487.xlsx", subject: "2025")
        ])
        #expect(try provider.requests(for: .range(Day("2023-12-01")!, Day("2024-02-01")!), session: session).map(\.url) == [
            "https://www.bankofalbania.org/rc/doc/Kursi_i_kembimit_dhjetor_2023_26236.xlsx",
            "https://www.bankofalbania.org/rc/doc/Kursi_i_kembimit_2024_29746.xlsx",
        ])
        #expect(try provider.requests(for: .range(Day("2026-01-01")!, Day("2026-05-22")!), session: session).isEmpty, "2026 is not archived yet")
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: "https://www.bankofalbania.org/rc/doc/Kursi_i_kembimit_dhjetor_2025_32487.xlsx")])
        let local = BSHProvider(baseURL: "http://127.0.0.1:9/bsh")
        #expect(try local.requests(for: .range(Day("2024-12-01")!, Day("2024-12-31")!), session: session).map(\.url) == [
            "http://127.0.0.1:9/bsh/rc/doc/Kursi_i_kembimit_2024_29746.xlsx"
        ])
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("a value that is not a number, a currency twice, a row without a code and a bad day are rejected")
    func alteredInput() throws {
        let text = try XLSXFixture.edited(
            file, member: january, replacing: "<c r=\"D30\" s=\"49\"><v>94.4</v></c>", with: "<c r=\"D30\" t=\"inlineStr\"><is><t>94,4 L</t></is></c>")
        #expect(ProviderFixture.error(text, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2024-01-03")!, text: "94,4 L"))
        let twice = try XLSXFixture.edited(
            file, member: "xl/sharedStrings.xml", replacing: "<si><t>Dollari Kanadez (CAD)</t></si>", with: "<si><t>Dollari Kanadez (GBP)</t></si>")
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("GBP")!, day: Day("2024-01-03")!))
        let noCode = try XLSXFixture.edited(
            file, member: "xl/sharedStrings.xml", replacing: "<si><t>Dollari Kanadez (CAD)</t></si>", with: "<si><t>Dollari Kanadez</t></si>")
        #expect(ProviderFixture.error(noCode, provider)?.isLayout(of: "BSH") == true)
        let badDay = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "DT. 03.01.2024", with: "DT. 32.01.2024")
        #expect(ProviderFixture.error(badDay, provider) == .invalidDay("32.01.2024"))
    }

    @Test("passes over a sheet that is not a month's (no row of days); a workbook without any month's sheet is rejected")
    func otherSheets() throws {
        // The 2024 workbook with a blank `Sheet1` added after December, as Excel writes a new sheet: its part, its relationship
        // and its entry in the workbook.
        var members = try XLSXFixture.members(of: ProviderFixture.bytes(file))
        func edit(_ path: String, _ old: String, _ new: String) throws {
            let index = try #require(members.firstIndex { $0.path == path })
            members[index].bytes = try #require(ProviderFixture.replacing(old, with: new, in: members[index].bytes))
        }
        try edit("xl/workbook.xml", "<sheet name=\"Dhjetor\" sheetId=\"12\" r:id=\"rId12\"/>",
                 "<sheet name=\"Dhjetor\" sheetId=\"12\" r:id=\"rId12\"/><sheet name=\"Sheet1\" sheetId=\"13\" r:id=\"rId99\"/>")
        try edit("xl/_rels/workbook.xml.rels", "<Relationship Id=\"rId8\" ",
                 "<Relationship Id=\"rId99\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" "
                 + "Target=\"worksheets/sheet13.xml\"/><Relationship Id=\"rId8\" ")
        members.append(("xl/worksheets/sheet13.xml", Array(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData/></worksheet>".utf8)))
        let extra = XLSXFixture.zip(members)
        #expect(try parse(extra) == (try parse(ProviderFixture.bytes(file))))
        let none = XLSXFixture.workbook(sheetData: "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c></row>", strings: ["<t>Kursi</t>"])
        #expect(ProviderFixture.error(none, provider)?.isLayout(of: "BSH") == true)
    }

    @Test("reads the euro's row however it is spelt, the SDR without its code, and skips the metals' rows whatever follows their names")
    func rowNames() throws {
        let recorded = try parse(ProviderFixture.bytes(file))
        // The 2024 workbook names the rows `E U R O`, `Spec. Drawing RIGHTS (SDR)`, `Ari (oz)` and `Argjendi (oz)`; other years' may not.
        for (old, new) in [("<t>E U R O</t>", "<t>EURO</t>"), ("<t>E U R O</t>", "<t>Euro</t>"), ("<t>Ari (oz)</t>", "<t>Ari (oz.)</t>"),
                           ("<t>Argjendi (oz)</t>", "<t>Argjend (ons)</t>"), ("<t>Spec. Drawing RIGHTS (SDR)</t>", "<t>Spec. Drawing RIGHTS</t>")] {
            let edited = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: old, with: new)
            #expect(try parse(edited) == recorded, "\(new)")
        }
    }

    @Test("truncations of the workbook, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        try XLSXFixture.expectBrokenWorkbooksRejected(file, provider, stride: 7919)
    }
}
