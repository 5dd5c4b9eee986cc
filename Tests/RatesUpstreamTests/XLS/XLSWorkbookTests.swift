import RatesCore
import RatesTestFixtures
@testable import RatesUpstream
import Testing

@Suite("XLS reader")
struct XLSWorkbookTests {
    static let bdl = "bdl-lebanon/00_BDL_DailyExchangeRates.xls"
    static let bcboYear = "bcbo-bolivia/00_tiposDeCambioHistorico_xls.php_anio=2007.xls"
    static let bcboDay = "bcbo-bolivia/01_librerias_indicadores_otras_otras_imprimir2XLS.php_qaa=2026_qdd=13_qmm=7.xls"
    static let recorded = [bdl, bcboYear, bcboDay, "bcbo-bolivia/02_librerias_indicadores_otras_otras_imprimir2XLS.php_qaa=2026_qdd=14_qmm=7.xls"]

    /// The workbook and its one sheet, from `records`.
    func sheet(_ records: [[UInt8]], sharedStrings: [UInt8] = [], date1904: Bool = false) throws -> (BIFFWorkbook, BIFFSheet) {
        let workbook = try BIFFWorkbook(XLSFixture.workbook(records, sharedStrings: sharedStrings, date1904: date1904))
        return (workbook, try #require(try workbook.sheet(named: "Sheet1")))
    }

    /// The error reading `bytes` (and every sheet) throws; `nil` when it reads.
    func error(_ bytes: [UInt8]) -> UpstreamDataError? {
        do {
            let workbook = try BIFFWorkbook(bytes)
            for entry in workbook.sheets { _ = try workbook.sheet(entry) }
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Recorded workbooks

    @Test("reads the Banque du Liban's workbook: three sheets, shared strings, dates, and numbers from NUMBER, RK and MULRK records")
    func readsBDL() throws {
        let workbook = try BIFFWorkbook(ProviderFixture.bytes(Self.bdl))
        #expect(workbook.sheets.map(\.name) == ["Daily Exchange Rates  2026", "Daily Exchange Rates  2025", "Daily Exchange Rates 2024"])
        #expect(workbook.sheets.allSatisfy { !$0.isHidden })
        #expect(workbook.dateSystem == .from1900)
        #expect(workbook.codePage == 1200)
        #expect(workbook.sharedStrings.prefix(6) == ["Period", "Currency", "Bid", "Ask", "Mid", "USD"])

        let current = try #require(try workbook.sheet(named: "Daily Exchange Rates  2026"))
        #expect(current.rows.count == 43)
        #expect(current.rows.allSatisfy { $0.cells.map(\.column) == [0, 1, 2, 3, 4] })
        #expect(current.row(1)?.cells.map(\.text) == ["Period", "Currency", "Bid", "Ask", "Mid"])
        let serial = try #require(current["A2"]?.number)
        #expect(serial == 46272)
        #expect(try workbook.day(serial: serial) == Day("2026-09-07"))
        #expect(current["B2"]?.text == "USD")
        // C2:E2 and C3:E3 are MULRK records (integers ×100); C5:E5 NUMBER records.
        #expect(["C2", "D2", "E2"].map { current[$0]?.decimalText } == ["89500", "89500", "89500"])
        #expect(current["E3"]?.decimalText == "104016.9")
        #expect(current["E5"]?.number == 579.33)
        #expect(current["E5"]?.decimalText == "579.33")
        #expect(current["B43"]?.text == "CAD")
        #expect(current["E43"]?.decimalText == "64407.02")
        #expect(try workbook.day(serial: current["A43"]!.number!) == Day("2026-08-31"))

        // E11, E20 and E21 of the 2024 sheet are RK records (integers ×100).
        let older = try #require(try workbook.sheet(named: "Daily Exchange Rates 2024"))
        #expect(older["B11"]?.text == "GBP")
        #expect(["C11", "D11", "E11"].map { older[$0]?.decimalText } == ["18864.4", "19028.6", "18946.5"])
        #expect(older["E20"]?.decimalText == "17699.12")
        #expect(older["E21"]?.decimalText == "10221")
        #expect(try workbook.day(serial: older["A9"]!.number!) == Day("2024-03-27"))
        #expect(older["E9"]?.decimalText == "15000")
    }

    @Test("reads the Banco Central de Bolivia's workbooks: one without a mini stream, two whose root chain runs on into the workbook's sectors")
    func readsBCBO() throws {
        let year = try CompoundFile(ProviderFixture.bytes(Self.bcboYear))
        #expect(year.streamNames == ["Workbook"])
        #expect(year.stream(named: "workbook")?.count == 27103)
        let day = try CompoundFile(ProviderFixture.bytes(Self.bcboDay))
        #expect(day.streamNames == ["\u{5}SummaryInformation", "Workbook", "\u{5}DocumentSummaryInformation"])
        #expect(day.streamNames.map { day.stream(named: $0)?.count } == [376, 15441, 272])
        // The property sets in the mini stream start with their byte order mark.
        #expect(day.stream(named: "\u{5}SummaryInformation")?.prefix(2) == [0xFE, 0xFF])

        let yearly = try BIFFWorkbook(ProviderFixture.bytes(Self.bcboYear))
        let rates = try #require(try yearly.sheet(named: "COTIZACIONES OFICIALES 2007"))
        #expect(rates["A2"]?.text == "AÑO 2007")
        #expect(rates["A3"]?.text == "COTIZACIONES OFICIALES DEL BOLIVIANO CON RELACIÓN AL DÓLAR ESTADOUNIDENSE")
        #expect(rates["B7"] == nil, "no rates on 1 January")
        #expect(rates["A8"]?.number == 2)
        #expect([rates["B8"]?.decimalText, rates["C8"]?.decimalText] == ["8.03", "7.93"])
        #expect([rates["X37"]?.decimalText, rates["Y37"]?.decimalText] == ["7.67", "7.57"])
        #expect(rates["A38"]?.text == "PROM" && rates["B38"]?.text == "8,02")

        let daily = try BIFFWorkbook(ProviderFixture.bytes(Self.bcboDay))
        let table = try #require(try daily.sheet(named: "TABLA DE COTIZACIONES"))
        #expect(table["A9"]?.text == "TABLA DE COTIZACIONES DEL 13 DE JULIO      DE 2026")
        #expect(table["C13"]?.text == "USD" && table["D13"]?.decimalText == "10.4")
        #expect(table["D17"]?.decimalText == "0.00699" && table["E17"]?.decimalText == "1487.7201")
        #expect(table["D37"]?.decimalText == "11.8716")
        #expect(table["D45"]?.decimalText == "4098.7" && table["E54"]?.decimalText == "0.0353")
    }

    // MARK: - Records

    @Test("a shared string split across CONTINUE records: each CONTINUE's option byte sets the width of the characters after it; at a string's end there is none")
    func continuedStrings() throws {
        let parts: [[UInt8]] = [
            // "Period" whole, then "Banque €" begun as one-byte characters…
            XLSFixture.string("Period") + XLSFixture.le16(8) + [0x00] + Array("Banq".utf8),
            // …and ended as two-byte characters after the CONTINUE's option byte. The next string starts the next record.
            [0x01] + "ue €".utf16.flatMap { XLSFixture.le16(Int($0)) },
            // "Mid" with two formatting runs (8 bytes), split inside the runs: they go on without an option byte.
            XLSFixture.le16(3) + [0x08] + XLSFixture.le16(2) + Array("Mid".utf8) + [0, 0, 1, 0],
            [0, 0, 2, 0] + XLSFixture.string("Ask") + XLSFixture.le16(2) + [0x01],
            // A header at the end of a record: the characters start the next, after their option byte.
            [0x00] + Array("OK".utf8),
        ]
        let records = (0..<5).map { XLSFixture.labelSST("A\($0 + 1)", $0) }
        let (workbook, sheet) = try sheet(records, sharedStrings: XLSFixture.sharedStrings(count: 5, parts))
        #expect(workbook.sharedStrings == ["Period", "Banque €", "Mid", "Ask", "OK"])
        #expect(sheet.rows.map { $0[0]?.text } == ["Period", "Banque €", "Mid", "Ask", "OK"])

        let badOption = XLSFixture.sharedStrings(count: 1, [XLSFixture.le16(4) + [0x00] + Array("Ba".utf8), [0x05] + Array("nq".utf8)])
        guard case .unreadableArchive = error(XLSFixture.workbook([], sharedStrings: badOption)) else {
            Issue.record("a CONTINUE option byte with other flags was not rejected")
            return
        }
        let short = XLSFixture.sharedStrings(count: 2, [XLSFixture.string("Period") + XLSFixture.le16(8) + [0x00] + Array("Banq".utf8)])
        guard case .unreadableArchive = error(XLSFixture.workbook([], sharedStrings: short)) else {
            Issue.record("a string past the shared string table's last record was not rejected")
            return
        }
        let extra = XLSFixture.sharedStrings(count: 1, [XLSFixture.string("Period") + XLSFixture.string("Mid")])
        #expect(error(XLSFixture.workbook([], sharedStrings: extra)) == .unreadableArchive("the shared string table holds more than its 1 strings"))
    }

    @Test("RK values decode per the spec: a 30-bit integer or the top of a double, each with or without the ×100 flag")
    func rkValues() throws {
        #expect(BIFFCell.number(rk: 57933 << 2 | 0x03) == 579.33)
        #expect(XLSXCell.shortestDecimal(BIFFCell.number(rk: 57933 << 2 | 0x03)) == "579.33")
        #expect(BIFFCell.number(rk: 46272 << 2 | 0x02) == 46272)
        #expect(BIFFCell.number(rk: UInt32(bitPattern: Int32(-5) << 2) | 0x02) == -5)
        #expect(BIFFCell.number(rk: UInt32(bitPattern: Int32(-150) << 2) | 0x03) == -1.5)
        #expect(BIFFCell.number(rk: 0x3FF8_0000) == 1.5)
        #expect(BIFFCell.number(rk: 0x3FF8_0001) == 0.015)
        #expect(XLSXCell.shortestDecimal(BIFFCell.number(rk: 0x3FF8_0001)) == "0.015")

        let (_, sheet) = try sheet([
            XLSFixture.rk("A1", 0x3FF8_0000), XLSFixture.mulRK("B1", [1894650 << 2 | 0x03, 7 << 2 | 0x02, 0x3FF8_0001]),
        ])
        #expect(sheet.row(1)?.cells.map(\.decimalText) == ["1.5", "18946.5", "7", "0.015"])
        #expect(sheet.row(1)?.cells.map(\.column) == [0, 1, 2, 3])

        var wrongEnd = XLSFixture.mulRK("B1", [7 << 2 | 0x02, 8 << 2 | 0x02])
        wrongEnd[wrongEnd.count - 2] = 9
        #expect(error(XLSFixture.workbook([wrongEnd]))?.isUnexpectedLayout == true)
    }

    @Test("numbers as decimal text: the shortest decimal that round-trips the stored double, without an exponent")
    func decimalText() {
        #expect(XLSXCell.shortestDecimal(89500) == "89500")
        #expect(XLSXCell.shortestDecimal(104016.9) == "104016.9")
        #expect(XLSXCell.shortestDecimal(0.00699) == "0.00699")
        #expect(XLSXCell.shortestDecimal(0.1 + 0.2) == "0.30000000000000004")
        #expect(XLSXCell.shortestDecimal(1e-5) == "0.00001")
        #expect(XLSXCell.shortestDecimal(1e16) == "10000000000000000")
        #expect(XLSXCell.shortestDecimal(-2.5) == "-2.5")
        #expect(XLSXCell.shortestDecimal(-0.0) == "0")
        #expect(BIFFCell(column: 0, row: 1, value: .text("1.5")).decimalText == nil)
    }

    @Test("formulas give their cached value; labels, booleans and errors are read; blank cells hold none")
    func cellTypes() throws {
        let (_, sheet) = try sheet([
            XLSFixture.formula("A1", value: XLSFixture.formulaNumber(3.25)),
            XLSFixture.formula("B1", value: XLSFixture.formulaSpecial(0)), XLSFixture.record(0x0207, XLSFixture.string("Bs/USD")),
            XLSFixture.formula("C1", value: XLSFixture.formulaSpecial(1, 1)),
            XLSFixture.formula("D1", value: XLSFixture.formulaSpecial(2, 0x2A)),
            XLSFixture.formula("E1", value: XLSFixture.formulaSpecial(3)),
            XLSFixture.label("A2", "Año €", wide: true), XLSFixture.label("B2", "Año"),
            XLSFixture.boolErr("C2", 0, isError: false), XLSFixture.boolErr("D2", 0x07, isError: true), XLSFixture.blank("E2"),
            XLSFixture.number("A4", 46272),
        ])
        #expect(sheet.rows.map(\.number) == [1, 2, 4])
        #expect(sheet["A1"]?.value == .number(3.25))
        #expect(sheet["B1"]?.value == .text("Bs/USD"))
        #expect(sheet["C1"]?.value == .boolean(true))
        #expect(sheet["D1"]?.value == .error("#N/A"))
        #expect(sheet["E1"]?.value == .text(""))
        #expect(sheet["A2"]?.text == "Año €" && sheet["B2"]?.text == "Año")
        #expect(sheet["C2"]?.value == .boolean(false))
        #expect(sheet["D2"]?.value == .error("#DIV/0!"))
        #expect(sheet["E2"] == nil)
        #expect(sheet["A4"]?.reference == "A4")

        let noString = XLSFixture.workbook([XLSFixture.formula("A1", value: XLSFixture.formulaSpecial(0)), XLSFixture.number("B1", 1)])
        #expect(error(noString)?.isUnexpectedLayout == true)
    }

    @Test("date serials: the 1900 system with its 1900-02-29 that never was, and the 1904 system")
    func dates() throws {
        let (workbook, _) = try sheet([])
        #expect(try workbook.day(serial: 46272) == Day("2026-09-07"))
        #expect(try workbook.day(serial: 1) == Day("1900-01-01"))
        #expect(try workbook.day(serial: 59) == Day("1900-02-28"))
        #expect(try workbook.day(serial: 61) == Day("1900-03-01"))
        let bad: [Double] = [60, 0, -3, 46272.5, .nan, .infinity, 1e8]
        for bad in bad {
            #expect(throws: UpstreamDataError.self) { try workbook.day(serial: bad) }
        }
        #expect(throws: UpstreamDataError.invalidDay("Excel serial 46272.5")) { try workbook.day(serial: 46272.5) }
        let (mac, _) = try sheet([], date1904: true)
        #expect(mac.dateSystem == .from1904)
        #expect(try mac.day(serial: 0) == Day("1904-01-01"))
        #expect(try mac.day(serial: 44810) == Day("2026-09-07"))
    }

    @Test("records that do not make a workbook are rejected: a shared string out of range, two values in one cell, a number that is not finite, a record past the stream, no EOF, BIFF5")
    func malformedRecords() throws {
        #expect(error(XLSFixture.workbook([XLSFixture.labelSST("A1", 3)]))?.isUnexpectedLayout == true)
        #expect(error(XLSFixture.workbook([XLSFixture.number("A1", 1), XLSFixture.rk("A1", 2 << 2 | 2)]))?.isUnexpectedLayout == true)
        #expect(error(XLSFixture.workbook([XLSFixture.number("A1", .nan)]))?.isUnexpectedLayout == true)
        guard case .unreadableArchive(let past) = error(XLSFixture.workbook([
            XLSFixture.record(0x0204, XLSFixture.cell("A1") + XLSFixture.le16(20) + [0] + Array("short".utf8)),
        ])), past.hasPrefix("a cell's string runs past the end of record 0x0204") else {
            Issue.record("a string longer than its record was not rejected")
            return
        }

        let stream = XLSFixture.workbookStream(sheets: [("Sheet1", [XLSFixture.number("A1", 1)])])
        let withoutEOF = Array(stream.dropLast(4))
        guard case .unreadableArchive = error(XLSFixture.compoundFile([("Workbook", withoutEOF)])) else {
            Issue.record("a sheet without its EOF was not rejected")
            return
        }
        // The sheet's last record, in place of its EOF, says 14 bytes and the stream ends 2 bytes on.
        let overlong = withoutEOF + XLSFixture.le16(0x0203) + XLSFixture.le16(14) + [1, 2]
        guard case .unreadableArchive(let text) = error(XLSFixture.compoundFile([("Workbook", overlong)])), text.contains("is 14 bytes long") else {
            Issue.record("a record longer than the stream was not rejected")
            return
        }
        let biff5 = XLSFixture.bof(0x0005, version: 0x0500) + XLSFixture.eof
        guard case .unreadableArchive = error(XLSFixture.compoundFile([("Workbook", biff5)])),
            case .unreadableArchive = error(XLSFixture.compoundFile([("Book", biff5)]))
        else {
            Issue.record("a BIFF5 workbook was not rejected")
            return
        }
        let encrypted = XLSFixture.bof(0x0005) + XLSFixture.record(0x002F, [0, 0]) + XLSFixture.eof
        #expect(error(XLSFixture.compoundFile([("Workbook", encrypted)])) == .unreadableArchive("the workbook is encrypted (FILEPASS)"))
        #expect(error(XLSFixture.compoundFile([("Other", [1, 2, 3])])) == .unreadableArchive("the compound file holds no Workbook stream: not an Excel workbook"))
    }

    // MARK: - Damaged files

    @Test("every truncation of the recorded workbooks is rejected as unreadable")
    func truncations() throws {
        for name in Self.recorded {
            let bytes = try ProviderFixture.bytes(name)
            #expect(bytes.count > 512, "\(name) holds at least a compound file's header")
            for end in stride(from: 0, to: bytes.count, by: 7) {
                switch error(Array(bytes[..<end])) {
                case .unreadableArchive?, .empty?: continue
                case let other: Issue.record("\(name) cut to \(end) bytes: \(other.map { "\($0)" } ?? "read")")
                }
            }
        }
    }

    @Test("altered bytes never crash or hang: every byte of the header, FAT and directory flipped, and random bytes anywhere")
    func alteredBytes() throws {
        let bytes = try ProviderFixture.bytes(Self.bdl)
        // The header, the directory (sector 21) and the FAT (sector 23).
        let structure = Array(0..<512) + Array((22 * 512)..<(23 * 512)) + Array((24 * 512)..<(25 * 512))
        var read = 0
        for offset in structure {
            var altered = bytes
            altered[offset] ^= 0xFF
            if error(altered) == nil { read += 1 }
        }
        var random = SplitMix64(seed: 0xB1FF)
        for _ in 0..<1500 {
            var altered = bytes
            for _ in 0...random.next(below: 6) { altered[random.next(below: altered.count)] = UInt8(random.next(below: 256)) }
            if error(altered) == nil { read += 1 }
        }
        // Bytes no reader looks at (unused header and directory fields, padding) leave the file readable.
        #expect(read > 0)
    }
}
