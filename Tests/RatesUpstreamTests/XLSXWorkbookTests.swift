import RatesCore
@testable import RatesUpstream
import Testing

@Suite("XLSX reader")
struct XLSXWorkbookTests {
    func sheet(_ sheetData: String, strings: [String] = [], date1904: Bool = false) throws -> (XLSXWorkbook, XLSXSheet) {
        let workbook = try XLSXWorkbook(XLSXFixture.workbook(sheetData: sheetData, strings: strings, date1904: date1904))
        return (workbook, try #require(try workbook.sheet(named: "Sheet1")))
    }

    @Test("reads every cell type: shared, formula and inline strings, numbers as stored, booleans, errors")
    func cellTypes() throws {
        let (_, sheet) = try sheet(
            """
            <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="str"><f>A1</f><v>x &amp; y</v></c>\
            <c r="D1" t="inlineStr"><is><t>inline</t></is></c></row>\
            <row r="3"><c r="A3"><v>192.04911000000001</v></c><c r="B3" t="n"><v>1.5E-3</v></c><c r="C3" t="b"><v>1</v></c>\
            <c r="D3" t="e"><v>#N/A</v></c><c r="E3" s="2"/><c r="AA3"><v>46113</v></c></row>
            """,
            strings: ["<t>Plain</t>", "<r><t>Rich</t></r><r><rPr><b/></rPr><t xml:space=\"preserve\"> text</t></r><rPh><t>phonetic</t></rPh>"])
        #expect(sheet.rows.map(\.number) == [1, 3])
        #expect(sheet["A1"]?.value == .text("Plain"))
        #expect(sheet["B1"]?.value == .text("Rich text"))
        #expect(sheet["C1"]?.value == .text("x & y"))
        #expect(sheet["D1"]?.value == .text("inline"))
        #expect(sheet["A3"]?.value == .number("192.04911000000001"))
        #expect(sheet["B3"]?.value == .number("1.5E-3"))
        #expect(sheet["C3"]?.value == .boolean(true))
        #expect(sheet["D3"]?.value == .error("#N/A"))
        #expect(sheet["E3"] == nil, "a cell without a value is left out")
        #expect(sheet["AA3"]?.column == 26)
        #expect(sheet.row(3)?.cells.count == 5)
    }

    @Test("numbers as decimal text: up to 15 digits as stored, a double's 16 or 17 digits as its shortest decimal, exponents written out")
    func decimalText() {
        func decimal(_ stored: String) -> String? { XLSXCell(column: 0, row: 1, value: .number(stored)).decimalText }
        #expect(decimal("0.4182") == "0.4182")
        #expect(decimal("1.50") == "1.50")
        #expect(decimal("46113") == "46113")
        #expect(decimal("192.04911000000001") == "192.04911")
        #expect(decimal("0.67849999999999999") == "0.6785")
        #expect(decimal("69.238276357142851") == "69.23827635714285")
        // A computed figure whose double is not the nearest to a short decimal keeps its 17 digits.
        #expect(decimal("160.88058199999998") == "160.88058199999998")
        #expect(decimal("1.5E-3") == "0.0015")
        #expect(decimal("2.5e2") == "250")
        #expect(decimal("1.0000000000000001E-5") == "0.00001")
        #expect(XLSXCell(column: 0, row: 1, value: .text("1.5")).decimalText == nil)
    }

    @Test("date serials: the 1900 system with its 1900-02-29 that never was, and the 1904 system")
    func dates() throws {
        let (workbook, _) = try sheet("")
        #expect(try workbook.day(serial: "46113") == Day("2026-04-01"))
        #expect(try workbook.day(serial: "1") == Day(year: 1900, month: 1, day: 1))
        #expect(try workbook.day(serial: "59") == Day(year: 1900, month: 2, day: 28))
        #expect(try workbook.day(serial: "61") == Day(year: 1900, month: 3, day: 1))
        for bad in ["60", "0", "-3", "46113.5", "x", ""] {
            #expect(throws: UpstreamDataError.invalidDay("Excel serial \(bad)")) { try workbook.day(serial: bad) }
        }
        #expect(try workbook.day(serial: "46113.0") == Day("2026-04-01"))
        let (workbook1904, _) = try sheet("", date1904: true)
        #expect(workbook1904.dateSystem == .from1904)
        #expect(try workbook1904.day(serial: "0") == Day(year: 1904, month: 1, day: 1))
        #expect(try workbook1904.day(serial: "44650") == Day("2026-03-31"))
    }

    @Test("cells and rows without references take the next position")
    func implicitPositions() throws {
        let (_, sheet) = try sheet("<row><c><v>1</v></c><c><v>2</v></c></row><row><c r=\"C2\"><v>3</v></c><c><v>4</v></c></row>")
        #expect(sheet["A1"]?.number == "1")
        #expect(sheet["B1"]?.number == "2")
        #expect(sheet["C2"]?.number == "3")
        #expect(sheet["D2"]?.number == "4")
    }

    @Test("a cell that is not SpreadsheetML is a layout error")
    func badCells() throws {
        for sheetData in [
            "<row r=\"1\"><c r=\"A1\"><v>12,5</v></c></row>",
            "<row r=\"1\"><c r=\"A1\"><v>NaN</v></c></row>",
            "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>7</v></c></row>",
            "<row r=\"1\"><c r=\"A1\" t=\"b\"><v>yes</v></c></row>",
            "<row r=\"1\"><c r=\"A1\" t=\"d\"><v>2026-04-01</v></c></row>",
            "<row r=\"1\"><c r=\"B1\"><v>1</v></c><c r=\"A1\"><v>2</v></c></row>",
            "<row r=\"2\"><c r=\"A2\"><v>1</v></c></row><row r=\"1\"><c r=\"A1\"><v>2</v></c></row>",
            "<row r=\"1\"><c r=\"A2\"><v>1</v></c></row>",
        ] {
            #expect(ProviderFixture.error { _ = try sheet(sheetData); return [] }?.isUnexpectedLayout == true, "\(sheetData)")
        }
    }

    @Test("a truncated or corrupt zip, an HTML page and an empty body are rejected")
    func brokenArchives() throws {
        let good = XLSXFixture.workbook(sheetData: "<row r=\"1\"><c r=\"A1\"><v>1</v></c></row>")
        _ = try XLSXWorkbook(good)
        for cut in ProviderFixture.truncations(of: good, stride: 37) {
            #expect(throws: UpstreamDataError.self) { try XLSXWorkbook(cut) }
        }
        // A byte of a member's data changed: its CRC-32 no longer matches.
        let corrupt = try #require(ProviderFixture.replacing("<v>1</v>", with: "<v>2</v>", in: good))
        let error = ProviderFixture.error { _ = try XLSXWorkbook(corrupt).sheet(named: "Sheet1"); return [] }
        guard case .unreadableArchive(let reason) = error else {
            Issue.record("a corrupt member was read: \(String(describing: error))")
            return
        }
        #expect(reason.contains("CRC-32"))
        let page = ProviderFixture.error { _ = try XLSXWorkbook(ProviderFixture.htmlErrorPage); return [] }
        guard case .unreadableArchive = page else {
            Issue.record("an HTML page is not an unreadable archive: \(String(describing: page))")
            return
        }
        #expect(ProviderFixture.error { _ = try XLSXWorkbook([]); return [] } == .empty)
    }

    @Test("members whose sizes are in a Zip64 extra field, as streaming writers store them, are read")
    func zip64Sizes() throws {
        let workbook = try XLSXWorkbook(XLSXFixture.workbook(sheetData: "<row r=\"1\"><c r=\"A1\"><v>1.25</v></c></row>", zip64: true))
        #expect(try workbook.sheet(named: "Sheet1")?["A1"]?.decimalText == "1.25")
    }

    @Test("a recorded workbook: its sheet, its shared strings, deflated members inflated and checked")
    func recordedWorkbook() throws {
        let workbook = try XLSXWorkbook(ProviderFixture.bytes("sbp-pakistan/01_assets_document_BFER_Daily.xlsx.xlsx"))
        #expect(workbook.sheets == [XLSXWorkbook.SheetEntry(name: "Sheet1", path: "xl/worksheets/sheet1.xml", isHidden: false)])
        #expect(workbook.dateSystem == .from1900)
        #expect(workbook.sharedStrings.count == 58)
        let sheet = try #require(try workbook.sheet(named: "Sheet1"))
        #expect(sheet["A2"]?.text == "State Bank of Pakistan")
        #expect(sheet["C9"]?.number == "46113")
        #expect(sheet["D10"]?.number == "192.04911000000001")
        #expect(sheet["D10"]?.decimalText == "192.04911")
        #expect(try workbook.day(serial: sheet["X9"]?.number ?? "") == Day("2026-04-30"))
    }
}
