import RatesCore

/// One worksheet's cells that hold a value, row by row, read from its BIFF8 records (from its BOF record
/// to its EOF) in the workbook stream.
///
/// The cell records read: LABELSST (a shared string), LABEL and RSTRING (a string of the cell's own),
/// NUMBER (a double), RK and MULRK (compressed numbers, ``BIFFCell/number(rk:)``), BOOLERR (a boolean or
/// an error value) and FORMULA with its cached value (a number, a boolean, an error, or a string in the
/// STRING record after it). BLANK and MULBLANK cells (formatting only) hold no value and are left out;
/// substreams nested in the sheet (embedded charts) are skipped. A cell given a value twice, or a
/// number that is not finite, rejects the sheet.
public struct BIFFSheet: Worksheet, Sendable {
    /// The sheet's name on its tab.
    public let name: String
    /// The rows that hold a value, in ascending order.
    public let rows: [BIFFRow]

    /// The last column of a BIFF8 sheet (IV), 0-based.
    static let lastColumn = 255
    /// The records that may not come between a FORMULA with a string value and its STRING record: the
    /// next cell's, and the sheet's EOF.
    static let endsFormulaString: Set<UInt16> = [
        BIFFRecord.Kind.labelSST, BIFFRecord.Kind.label, BIFFRecord.Kind.richLabel, BIFFRecord.Kind.number, BIFFRecord.Kind.rk,
        BIFFRecord.Kind.mulRK, BIFFRecord.Kind.boolErr, BIFFRecord.Kind.formula, BIFFRecord.Kind.blank, BIFFRecord.Kind.mulBlank,
        BIFFRecord.Kind.eof,
    ]

    init(_ stream: [UInt8], at offset: Int, name: String, sharedStrings: [String]) throws(UpstreamDataError) {
        self.name = name
        func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(name): \(text)") }
        var records = BIFFRecordStream(stream, at: offset)
        guard let first = try records.next(), first.type == BIFFRecord.Kind.bof else {
            throw layout("no BOF record at byte \(offset), where the workbook says the sheet starts")
        }
        try BIFFWorkbook.checkBOF(first, type: BIFFWorkbook.worksheetSubstream, of: "sheet \(name)'s records")

        var cells: [BIFFCell] = []
        // A FORMULA whose cached value is a string: the STRING record after it holds the string.
        var formulaAwaitingString: (row: Int, column: Int)?
        var nested = 0
        reading: while true {
            guard let record = try records.next() else { throw .unreadableArchive("sheet \(name)'s records end without their EOF record") }
            if nested > 0 {
                if record.type == BIFFRecord.Kind.bof { nested += 1 }
                if record.type == BIFFRecord.Kind.eof { nested -= 1 }
                continue
            }
            if Self.endsFormulaString.contains(record.type), let pending = formulaAwaitingString {
                throw layout("the formula in \(XLSXCell.reference(column: pending.column, row: pending.row)) has a string value without its STRING record")
            }
            var reader = BIFFRecordReader(record)
            // A cell record's row and column, and (unless it is a MULRK's) its format index, skipped.
            func position(formatFollows: Bool = true) throws(UpstreamDataError) -> (row: Int, column: Int) {
                let row = try reader.uint16("a cell's row") + 1
                let column = try reader.uint16("a cell's column")
                guard column <= Self.lastColumn else { throw layout("a cell in column \(column + 1) of row \(row), past the last column (IV)") }
                if formatFollows { try reader.skip(2) }
                return (row, column)
            }
            func add(_ value: BIFFCell.Value, at place: (row: Int, column: Int)) throws(UpstreamDataError) {
                if case .number(let number) = value, !number.isFinite {
                    throw layout("cell \(XLSXCell.reference(column: place.column, row: place.row)) holds a number that is not finite")
                }
                cells.append(BIFFCell(column: place.column, row: place.row, value: value))
            }
            switch record.type {
            case BIFFRecord.Kind.eof:
                break reading
            case BIFFRecord.Kind.bof:
                nested = 1
            case BIFFRecord.Kind.labelSST:
                let place = try position()
                let index = Int(try reader.uint32("a shared string index"))
                guard index < sharedStrings.count else {
                    throw layout("cell \(XLSXCell.reference(column: place.column, row: place.row)) names shared string \(index) of \(sharedStrings.count)")
                }
                try add(.text(sharedStrings[index]), at: place)
            case BIFFRecord.Kind.label, BIFFRecord.Kind.richLabel:
                let place = try position()
                try add(.text(try reader.string(countBytes: 2, "a cell's string")), at: place)
            case BIFFRecord.Kind.number:
                let place = try position()
                try add(.number(try reader.float64()), at: place)
            case BIFFRecord.Kind.rk:
                let place = try position()
                try add(.number(BIFFCell.number(rk: try reader.uint32("an RK number"))), at: place)
            case BIFFRecord.Kind.mulRK:
                // Row, first column, (format, RK) per cell, last column.
                let (row, firstColumn) = try position(formatFollows: false)
                guard record.body.count >= 12, (record.body.count - 6) % 6 == 0 else {
                    throw .unreadableArchive("\(record.shown) is \(record.body.count) bytes long, not a MULRK's 6 plus 6 per cell")
                }
                let count = (record.body.count - 6) / 6
                var values: [Double] = []
                for _ in 0..<count {
                    try reader.skip(2)
                    values.append(BIFFCell.number(rk: try reader.uint32("an RK number")))
                }
                let lastColumn = try reader.uint16("a MULRK's last column")
                guard lastColumn == firstColumn + count - 1, lastColumn <= Self.lastColumn else {
                    throw layout("a MULRK in row \(row) of \(count) cells from column \(firstColumn + 1) says it ends in column \(lastColumn + 1)")
                }
                for (index, value) in values.enumerated() { try add(.number(value), at: (row, firstColumn + index)) }
            case BIFFRecord.Kind.boolErr:
                let place = try position()
                let value = try reader.uint8("a BOOLERR value")
                let isError = try reader.uint8("a BOOLERR flag")
                try add(try Self.booleanOrError(value, isError: isError == 1, at: place, layout), at: place)
            case BIFFRecord.Kind.formula:
                let place = try position()
                // The cached value: a double, or, when its last two bytes are 0xFFFF, a type byte first
                // (0 string, 1 boolean, 2 error, 3 empty string) and the boolean or error code in the third.
                var result: [UInt8] = []
                for _ in 0..<8 { result.append(try reader.uint8("a formula's value")) }
                if result[6] == 0xFF, result[7] == 0xFF {
                    switch result[0] {
                    case 0: formulaAwaitingString = place
                    case 1: try add(try Self.booleanOrError(result[2], isError: false, at: place, layout), at: place)
                    case 2: try add(try Self.booleanOrError(result[2], isError: true, at: place, layout), at: place)
                    case 3: try add(.text(""), at: place)
                    default: throw layout("the formula in \(XLSXCell.reference(column: place.column, row: place.row)) has a value of type \(result[0])")
                    }
                } else {
                    let bits = result.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    try add(.number(Double(bitPattern: bits)), at: place)
                }
            case BIFFRecord.Kind.string:
                guard let place = formulaAwaitingString else { continue }
                reader = BIFFRecordReader(record, continuations: try records.continuations())
                try add(.text(try reader.string(countBytes: 2, "a formula's string")), at: place)
                formulaAwaitingString = nil
            default:
                continue
            }
        }

        cells.sort { ($0.row, $0.column) < ($1.row, $1.column) }
        for (earlier, cell) in zip(cells, cells.dropFirst()) where (earlier.row, earlier.column) == (cell.row, cell.column) {
            throw layout("cell \(cell.reference) is given a value twice")
        }
        rows = Dictionary(grouping: cells, by: \.row).sorted { $0.key < $1.key }.map { BIFFRow(number: $0.key, cells: $0.value) }
    }

    /// The value of a BOOLERR record or of a formula's cached boolean or error.
    private static func booleanOrError(
        _ value: UInt8, isError: Bool, at place: (row: Int, column: Int), _ layout: (String) -> UpstreamDataError
    ) throws(UpstreamDataError) -> BIFFCell.Value {
        let reference = XLSXCell.reference(column: place.column, row: place.row)
        if !isError {
            guard value <= 1 else { throw layout("cell \(reference) holds boolean \(value)") }
            return .boolean(value == 1)
        }
        guard let name = BIFFCell.errorNames[value] else { throw layout("cell \(reference) holds error code 0x\(String(value, radix: 16))") }
        return .error(name)
    }
}

/// One cell's stored value.
public struct BIFFCell: WorksheetCell {
    /// A string: shared (LABELSST), the cell's own (LABEL, RSTRING) or a formula's; a number: the IEEE 754
    /// double the file holds (NUMBER, RK, MULRK, a formula's); a boolean (BOOLERR, a formula's); an error value.
    public typealias Value = WorksheetValue<Double>

    public var column: Int
    public var row: Int
    public var value: Value

    /// A number cell's value as plain decimal text (a ``RatesCore/RateText`` when positive); `nil` for any other cell.
    ///
    /// The file holds a double, not the digits the publisher typed: this is the shortest decimal that
    /// denotes that same double (the round-trip representation Swift, Python and Excel print), written
    /// without an exponent. A figure typed with up to 15 significant digits comes back exactly as typed
    /// (`104016.9`, `0.00699`; trailing zeros are the display format's, never stored: `89500`, `7.9`), and
    /// a figure the publisher computed keeps every digit the double carries. Nothing is rounded past the
    /// double's own precision, and the display format is not consulted. This is ``XLSXCell/decimalText``'s
    /// reading of the same double.
    public var decimalText: String? {
        number.map(XLSXCell.shortestDecimal)
    }

    /// The number an RK value stores ([MS-XLS] RkNumber): bit 1 set, a signed 30-bit integer in bits
    /// 2–31; clear, the upper 30 bits of a double whose other 34 bits are zero; bit 0 set, that number
    /// divided by 100. The division is IEEE 754's, correctly rounded, so an integer ×100 form (`57933`
    /// with bit 0: `579.33`) gives the double nearest to its decimal, whose text is that decimal.
    static func number(rk: UInt32) -> Double {
        let value = rk & 0x02 != 0 ? Double(Int32(bitPattern: rk) >> 2) : Double(bitPattern: UInt64(rk & 0xFFFF_FFFC) << 32)
        return rk & 0x01 != 0 ? value / 100 : value
    }

    /// The error values by their BIFF8 code.
    static let errorNames: [UInt8: String] = [
        0x00: "#NULL!", 0x07: "#DIV/0!", 0x0F: "#VALUE!", 0x17: "#REF!", 0x1D: "#NAME?", 0x24: "#NUM!", 0x2A: "#N/A", 0x2B: "#GETTING_DATA",
    ]
}
