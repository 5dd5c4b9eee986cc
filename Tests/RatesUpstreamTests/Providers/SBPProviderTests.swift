import RatesCore
@testable import RatesUpstream
import Testing

@Suite("SBP adapter")
struct SBPProviderTests {
    let provider = SBPProvider()
    let current = "sbp-pakistan/01_assets_document_BFER_Daily.xlsx.xlsx"
    let archive = "sbp-pakistan/00_assets_document_BFER_Daily_Arch.xlsx.xlsx"
    let sheet = "xl/worksheets/sheet1.xml"

    func parse(_ body: [UInt8], window: FetchWindow = .latest) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: window)[0])
    }

    @Test("reads the current month, April 2026: 22 days of 23 currencies in rupees per unit, doubles read as their shortest decimal")
    func currentMonth() throws {
        let publications = try parse(ProviderFixture.bytes(current))
        #expect(publications.count == 22)
        #expect(publications.first?.day == Day("2026-04-01"))
        #expect(publications.last?.day == Day("2026-04-30"))
        #expect(publications.allSatisfy { $0.quotes.count == 23 })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits } })
        #expect(publications[0].codes == [
            "AED", "AUD", "BHD", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "HKD", "JPY", "KWD", "MYR", "NOK", "NZD", "OMR", "QAR", "SAR", "SEK",
            "SGD", "THB", "TRY", "USD",
        ])
        #expect(ProviderFixture.quote("USD", on: "2026-04-01", in: publications) == quote("USD", "279.35178571428565"))
        // Stored as 192.04911000000001 and 1.7592589999999999: the doubles of 192.04911 and 1.759259.
        #expect(ProviderFixture.quote("AUD", on: "2026-04-02", in: publications)?.value == "192.04911")
        #expect(ProviderFixture.quote("JPY", on: "2026-04-01", in: publications)?.value == "1.759259")
        // An average the bank computed keeps every digit its double carries (stored 69.238276357142851).
        #expect(ProviderFixture.quote("MYR", on: "2026-04-01", in: publications)?.value == "69.23827635714285")
        #expect(ProviderFixture.quote("EUR", on: "2026-04-30", in: publications)?.value == "325.2789100961538")
        #expect(ProviderFixture.quote("USD", on: "2026-04-06", in: publications)?.value == "279.3")
        // A computed average whose double is not the nearest to a shorter decimal keeps its 17 digits.
        #expect(ProviderFixture.quote("NZD", on: "2026-04-01", in: publications)?.value == "160.88058199999998")
        // `rates-relay import` reads the file as an answer to the adapter's requests.
        #expect(try ProviderFile.read([ProviderFixture.bytes(current)], provider: provider) == publications)
    }

    @Test("reads the archive: 3,190 days from 2013-07-02 to 2026-06-30, its names spelled otherwise, agreeing with the current month")
    func archiveFile() throws {
        let publications = try parse(ProviderFixture.bytes(archive), window: .range(Day("2026-04-01")!, Day("2026-04-30")!))
        #expect(publications.count == 3190)
        #expect(publications.first?.day == Day("2013-07-02"))
        #expect(publications.last?.day == Day("2026-06-30"))
        #expect(publications.allSatisfy { $0.quotes.count == 23 })
        #expect(ProviderFixture.quote("USD", on: "2013-07-02", in: publications)?.value == "99.440147")
        #expect(ProviderFixture.quote("AUD", on: "2013-07-02", in: publications)?.value == "91.471238")
        #expect(ProviderFixture.quote("USD", on: "2026-06-30", in: publications)?.value == "278.4375")
        #expect(ProviderFixture.quote("JPY", on: "2026-06-30", in: publications)?.value == "1.718256")
        // April 2026 is in both files, with the same figures.
        let april = try parse(ProviderFixture.bytes(current))
        func figures(_ publications: [ProviderPublication]) -> [String] {
            publications.flatMap { publication in publication.quotes.map { "\(publication.day) \($0.currency)=\($0.value)" } }.sorted()
        }
        #expect(figures(publications.filter { $0.day >= Day("2026-04-01")! && $0.day <= Day("2026-04-30")! }) == figures(april))
    }

    @Test("asks for the current month's file for the latest publication, for the archive for a range")
    func requests() {
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: "https://www.sbp.org.pk/assets/document/BFER_Daily.xlsx")])
        let range = provider.requests(for: .range(Day("2026-03-01")!, Day("2026-04-30")!))
        #expect(range == [ProviderRequest(url: "https://www.sbp.org.pk/assets/document/BFER_Daily_Arch.xlsx")])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(SBPProvider(baseURL: "http://127.0.0.1:9/sbp").requests(for: .latest)[0].url == "http://127.0.0.1:9/sbp/BFER_Daily.xlsx")
    }

    @Test("a value that is not a number rejects the file; a text cell without a digit is a day without a figure")
    func garbageValue() throws {
        let body = try XLSXFixture.edited(
            current, member: sheet, replacing: "<c r=\"C10\" s=\"10\"><v>192.929678</v></c>", with: "<c r=\"C10\" t=\"inlineStr\"><is><t>192.92.9678</t></is></c>")
        #expect(ProviderFixture.error(body, provider) == .invalidRate(currency: CurrencyCode("AUD")!, day: Day("2026-04-01")!, text: "192.92.9678"))
        let negative = try XLSXFixture.edited(current, member: sheet, replacing: "<v>192.929678</v>", with: "<v>-192.929678</v>")
        #expect(ProviderFixture.error(negative, provider) == .invalidRate(currency: CurrencyCode("AUD")!, day: Day("2026-04-01")!, text: "-192.929678"))
        // The first day's Australian dollar typed "n.a.", and its second day's figure typed as text, as a hand-kept sheet may have them.
        let typed = try XLSXFixture.edited(current, [
            (sheet, "<c r=\"C10\" s=\"10\"><v>192.929678</v></c>", "<c r=\"C10\" t=\"inlineStr\"><is><t>n.a.</t></is></c>"),
            (sheet, "<c r=\"D10\" s=\"10\"><v>192.04911000000001</v></c>", "<c r=\"D10\" t=\"inlineStr\"><is><t>192.04911</t></is></c>"),
        ])
        let publications = try provider.parse(typed, of: provider.requests(for: .latest)[0])
        #expect(ProviderFixture.quote("AUD", on: "2026-04-01", in: publications) == nil)
        #expect(ProviderFixture.quote("USD", on: "2026-04-01", in: publications) != nil)
        #expect(ProviderFixture.quote("AUD", on: "2026-04-02", in: publications) == quote("AUD", "192.04911"))
    }

    @Test("a currency name is known by its letters whatever the case and points, by its ISO code, or by its country; a row known by none is left out")
    func currencyNames() throws {
        let request = provider.requests(for: .latest)[0]
        let recorded = try provider.parse(ProviderFixture.bytes(current), of: request)
        // The Japanese yen's name misspelt otherwise, the Hong Kong dollar's in capitals, the Danish krone's as its code.
        let renamed = try XLSXFixture.edited(current, [
            ("xl/sharedStrings.xml", "<t>Japnese Yen</t>", "<t>Japanease Yen</t>"),
            ("xl/sharedStrings.xml", "<t>Hongkong Dollar</t>", "<t>HONG KONG DOLLAR</t>"),
            ("xl/sharedStrings.xml", "<t>Danish Krone</t>", "<t>DKK</t>"),
        ])
        #expect(try provider.parse(renamed, of: request) == recorded)
        // Unknown names beside an unknown country: the row is left out, the rest read.
        let unknown = try XLSXFixture.edited(current, [
            ("xl/sharedStrings.xml", "<t>Japnese Yen</t>", "<t>Martian Dollar</t>"),
            ("xl/sharedStrings.xml", "<t>Japan</t>", "<t>Mars</t>"),
        ])
        let read = try provider.parse(unknown, of: request)
        #expect(read.count == recorded.count && read.allSatisfy { $0.quotes.count == 22 && $0["JPY"] == nil })
        #expect(SBPProvider.currency(name: "Martian Dollar", country: "Japan") == CurrencyCode("JPY"))
        #expect(SBPProvider.currency(name: "U.K. Pound Sterling", country: nil) == CurrencyCode("GBP"))
    }

    @Test("a spare empty sheet beside the table's is left alone")
    func spareSheet() throws {
        var members = try XLSXFixture.members(of: ProviderFixture.bytes(current))
        func edit(_ path: String, _ old: String, _ new: String) throws {
            let index = try #require(members.firstIndex { $0.path == path })
            members[index].bytes = try #require(ProviderFixture.replacing(old, with: new, in: members[index].bytes))
        }
        try edit("xl/workbook.xml", "<sheet name=\"Sheet1\" sheetId=\"1\" r:id=\"rId1\"/>", "<sheet name=\"Sheet1\" sheetId=\"1\" r:id=\"rId1\"/><sheet name=\"Sheet2\" sheetId=\"2\" r:id=\"rId9\"/>")
        try edit(
            "xl/_rels/workbook.xml.rels", "</Relationships>",
            "<Relationship Id=\"rId9\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"worksheets/sheet2.xml\"/></Relationships>")
        members.append(("xl/worksheets/sheet2.xml", Array("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData/></worksheet>".utf8)))
        let request = provider.requests(for: .latest)[0]
        #expect(try provider.parse(XLSXFixture.zip(members), of: request) == provider.parse(ProviderFixture.bytes(current), of: request))
    }

    @Test("a currency twice and a day that is no day are rejected")
    func badRows() throws {
        let twice = try XLSXFixture.edited(current, member: "xl/sharedStrings.xml", replacing: "<t>Canadian Dollar</t>", with: "<t>Australian Dollar</t>")
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("AUD")!, day: Day("2026-04-01")!))
        let halfDay = try XLSXFixture.edited(current, member: sheet, replacing: "<v>46113</v>", with: "<v>46113.5</v>")
        #expect(ProviderFixture.error(halfDay, provider) == .invalidDay("Excel serial 46113.5"))
        let sameDay = try XLSXFixture.edited(current, member: sheet, replacing: "<v>46114</v>", with: "<v>46113</v>")
        #expect(ProviderFixture.error(sameDay, provider) == .duplicateDay(Day("2026-04-01")!))
        let convention = try XLSXFixture.edited(
            current, member: "xl/sharedStrings.xml", replacing: "<t>Pak Rupees per Currency Unit</t>", with: "<t>Currency Units per Pak Rupee</t>")
        #expect(ProviderFixture.error(convention, provider)?.isLayout(of: "SBP") == true)
    }

    @Test("every truncation of the file, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        try XLSXFixture.expectBrokenWorkbooksRejected(current, provider)
    }
}
