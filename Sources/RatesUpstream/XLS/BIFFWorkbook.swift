import RatesCore

/// A legacy Excel workbook (`.xls`, Excel 97–2003: BIFF8 records in a compound file) read strictly from
/// its bytes: its sheets by name, each sheet's cells with their stored values, and its date system.
///
/// The file is opened as a ``CompoundFile`` and its `Workbook` stream read as BIFF8 records. The
/// workbook globals (from the first BOF record to its EOF) give the date system (DATEMODE), the code
/// page (CODEPAGE), the sheets (BOUNDSHEET: name, visibility and where the sheet's records start) and the
/// shared string table (SST, with its CONTINUE records). A sheet is read only when asked for
/// (``sheet(named:)``), as ``XLSXWorkbook`` does.
///
/// Values are the cells' stored values, never their display: a number is the IEEE 754 double the file
/// holds (``BIFFCell/Value``), written as decimal text by ``BIFFCell/decimalText``;
/// ``day(serial:)`` reads a date serial. Formulas are not evaluated: their cached value is the value.
///
/// Strings are UTF-16 where their option byte says so and otherwise one byte per character, the low
/// byte of a UTF-16 code unit (ISO 8859-1), as BIFF8 defines them whatever the CODEPAGE record says:
/// the code page (``codePage``, 1200 for UTF-16 in every file Excel writes) governs only the byte strings
/// of BIFF5 and older, which are not read.
///
/// Not read (rejected): BIFF5 and older workbooks (Excel 5.0/95, a `Book` stream), encrypted workbooks
/// (FILEPASS). Chart, macro and module sheets are not listed among ``sheets``.
///
/// Errors are `UpstreamDataError`: `.empty` for no bytes; `.unreadableArchive` for bytes that are not a
/// whole compound file with a BIFF8 `Workbook` stream, or a stream whose records are cut short (a record
/// longer than the stream, a string past its record, a shared string table short of its count);
/// `.unexpectedLayout` for records that do not make a workbook (a shared string index out of
/// range, two values in one cell, an unknown date system, a sheet that does not start where listed).
public struct BIFFWorkbook: Sendable {
    /// One sheet of the workbook, as its BOUNDSHEET record lists it.
    public struct SheetEntry: Equatable, Sendable {
        /// Its name on its tab (`Daily Exchange Rates  2026`, spaces as stored).
        public var name: String
        /// Whether it is hidden or very hidden.
        public var isHidden: Bool
        /// The offset of its BOF record in the workbook stream.
        var offset: Int
    }

    /// The worksheets in tab order.
    public let sheets: [SheetEntry]
    /// The system its date serials count in (DATEMODE: 0 the 1900 system, 1 the 1904 one).
    public let dateSystem: ExcelDateSystem
    /// The workbook's code page (CODEPAGE; 1200 is UTF-16), `nil` when it has no CODEPAGE record.
    public let codePage: Int?
    /// The shared strings, by index (rich text runs and phonetic guides left out).
    public let sharedStrings: [String]

    /// The `Workbook` stream.
    private let stream: [UInt8]

    /// The version field of a BIFF8 BOF record, and the substream types read.
    static let biff8: Int = 0x0600
    static let globalsSubstream = 0x0005
    static let worksheetSubstream = 0x0010

    /// Reads the compound file, its `Workbook` stream and the workbook globals.
    ///
    /// - Parameters:
    ///   - bytes: The `.xls` file.
    public init(_ bytes: [UInt8]) throws(UpstreamDataError) {
        let file = try CompoundFile(bytes)
        guard let stream = file.stream(named: "Workbook") else {
            if file.stream(named: "Book") != nil { throw .unreadableArchive("an Excel 5.0/95 workbook (BIFF5), which is not read") }
            throw .unreadableArchive("the compound file holds no Workbook stream: not an Excel workbook")
        }
        self.stream = stream
        func layout(_ text: String) -> UpstreamDataError { .layout("workbook globals: \(text)") }

        var records = BIFFRecordStream(stream)
        guard let first = try records.next(), first.type == BIFFRecord.Kind.bof else {
            throw .unreadableArchive("the Workbook stream does not start with a BOF record")
        }
        try Self.checkBOF(first, type: Self.globalsSubstream, of: "the workbook globals")

        var dateSystem = ExcelDateSystem.from1900
        var codePage: Int?
        var sheets: [SheetEntry] = []
        var sharedStrings: [String]?
        reading: while true {
            guard let record = try records.next() else { throw .unreadableArchive("the workbook globals end without their EOF record") }
            var reader = BIFFRecordReader(record)
            switch record.type {
            case BIFFRecord.Kind.eof:
                break reading
            case BIFFRecord.Kind.filePass:
                throw .unreadableArchive("the workbook is encrypted (FILEPASS)")
            case BIFFRecord.Kind.codePage:
                codePage = try reader.uint16("CODEPAGE")
            case BIFFRecord.Kind.dateMode:
                switch try reader.uint16("DATEMODE") {
                case 0: dateSystem = .from1900
                case 1: dateSystem = .from1904
                case let other: throw layout("DATEMODE \(other); expected 0 (1900) or 1 (1904)")
                }
            case BIFFRecord.Kind.boundSheet:
                let offset = Int(try reader.uint32("BOUNDSHEET"))
                let state = try reader.uint8("BOUNDSHEET") & 0x03
                let type = try reader.uint8("BOUNDSHEET")
                let name = try reader.string(countBytes: 1, "a sheet's name")
                guard state != 3 else { throw layout("sheet \(UpstreamDataError.quoted(name)) has visibility 3") }
                // Macro sheets (1), chart sheets (2) and VBA modules (6) hold no cells to read.
                guard type == 0 else { continue }
                guard !sheets.contains(where: { $0.name == name }) else { throw layout("two sheets named \(UpstreamDataError.quoted(name))") }
                guard offset < stream.count else { throw layout("sheet \(UpstreamDataError.quoted(name)) starts at byte \(offset), past the stream") }
                sheets.append(SheetEntry(name: name, isHidden: state != 0, offset: offset))
            case BIFFRecord.Kind.sharedStrings:
                guard sharedStrings == nil else { throw layout("two shared string tables") }
                reader = BIFFRecordReader(record, continuations: try records.continuations())
                sharedStrings = try Self.sharedStrings(&reader)
            default:
                continue
            }
        }
        self.dateSystem = dateSystem
        self.codePage = codePage
        self.sheets = sheets
        self.sharedStrings = sharedStrings ?? []
    }

    /// The sheet named `name` (exactly as on its tab), read whole; `nil` when there is none.
    public func sheet(named name: String) throws(UpstreamDataError) -> BIFFSheet? {
        guard let entry = sheets.first(where: { $0.name == name }) else { return nil }
        return try sheet(entry)
    }

    /// The sheet `entry`, read whole.
    public func sheet(_ entry: SheetEntry) throws(UpstreamDataError) -> BIFFSheet {
        try BIFFSheet(stream, at: entry.offset, name: entry.name, sharedStrings: sharedStrings)
    }

    /// The day an Excel date serial names in this workbook's date system (``ExcelDateSystem``).
    ///
    /// - Parameter serial: A cell's stored number: whole days only (`46272`; `46272.5`, a time of day, is rejected).
    /// - Throws: `UpstreamDataError.invalidDay` with the serial for anything else (a fraction, a negative
    ///   number, more than seven digits, 0 in the 1900 system, the 1900-02-29 that never was).
    public func day(serial: Double) throws(UpstreamDataError) -> Day {
        guard serial >= 0, serial <= 9_999_999, serial.rounded(.towardZero) == serial, let day = dateSystem.day(serial: Int(serial)) else {
            throw .invalidDay("Excel serial \(XLSXCell.shortestDecimal(serial))")
        }
        return day
    }

    // MARK: - Records

    /// Checks that `record` is the BOF of a BIFF8 substream of `type`.
    static func checkBOF(_ record: BIFFRecord, type: Int, of what: String) throws(UpstreamDataError) {
        var reader = BIFFRecordReader(record)
        let version = try reader.uint16("the BOF version")
        let substream = try reader.uint16("the BOF type")
        guard version == biff8 else {
            throw .unreadableArchive(
                "\(what) are BIFF version 0x\(BIFFRecord.hex(UInt16(version))), not BIFF8 (0x0600): an Excel version before 97, which is not read")
        }
        guard substream == type else {
            throw .layout(
                "\(what) start with a BOF of substream type 0x\(BIFFRecord.hex(UInt16(substream))), expected 0x\(BIFFRecord.hex(UInt16(type)))")
        }
    }

    /// The strings of an SST record and its CONTINUE records: a total count (unused), the number of
    /// strings, then each string; nothing may follow the last.
    static func sharedStrings(_ reader: inout BIFFRecordReader) throws(UpstreamDataError) -> [String] {
        _ = try reader.uint32("the shared string table's total count")
        let count = Int(try reader.uint32("the shared string table's string count"))
        var strings: [String] = []
        for index in 0..<count {
            // Each string takes 3 bytes at least: a short count is found by running out, not by allocating.
            strings.append(try reader.string(countBytes: 2, rich: true, "shared string \(index) of \(count)"))
        }
        guard reader.isAtEnd else { throw .unreadableArchive("the shared string table holds more than its \(count) strings") }
        return strings
    }
}
