import RatesCore

/// One worksheet's cells that hold a value, row by row, as stored in its part (`xl/worksheets/sheetN.xml`).
///
/// Cells without a value (formatting only) are left out. Rows and cells must come in ascending
/// order, each once, as Excel writes them; a row or cell without its `r` reference takes the next position.
public struct XLSXSheet: Worksheet, Sendable {
    /// The sheet's name on its tab.
    public let name: String
    /// The rows that hold a value, in ascending order.
    public let rows: [XLSXRow]

    init(_ bytes: [UInt8], name: String, sharedStrings: [String]) throws(UpstreamDataError) {
        self.name = name
        var reader = try XMLReader(bytes, root: "worksheet")
        var rows: [XLSXRow] = []
        // The row being read: its number and cells (kept apart from `rows`, so appending never copies).
        var rowNumber: Int?
        var cells: [XLSXCell] = []
        var previousRow = 0
        var previousColumn = -1
        func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(name): \(text)") }

        while let event = try reader.next() {
            guard event == .startElement else { continue }
            switch reader.depth {
            case 2 where !reader.isElement("sheetData"):
                try reader.skipElement()
            case 3:
                guard reader.isElement("row") else { throw layout("<\(reader.qualifiedName)> in <sheetData>") }
                if let rowNumber, !cells.isEmpty { rows.append(XLSXRow(number: rowNumber, cells: cells)) }
                cells.removeAll(keepingCapacity: true)
                let number: Int
                if let reference = reader.attribute("r") {
                    guard let value = Int(reference), value > previousRow, value <= 1_048_576 else { throw layout("row r=\"\(reference)\" out of order") }
                    number = value
                } else {
                    number = previousRow + 1
                }
                previousRow = number
                previousColumn = -1
                rowNumber = number
            case 4:
                guard reader.isElement("c"), let current = rowNumber else { throw layout("<\(reader.qualifiedName)> in a <row>") }
                let column: Int
                if let reference = reader.attribute("r") {
                    guard let (referenceColumn, referenceRow) = XLSXCell.position(reference), referenceRow == current,
                        referenceColumn > previousColumn
                    else { throw layout("cell r=\"\(reference)\" out of order in row \(current)") }
                    column = referenceColumn
                } else {
                    column = previousColumn + 1
                }
                previousColumn = column
                let type = reader.attribute("t") ?? "n"
                func place() -> String { XLSXCell.reference(column: column, row: current) }
                // The cell's children: <f> (formula), <v> (value), <is> (inline string), <extLst>.
                var stored: String?
                var inline: String?
                while let inner = try reader.next(), inner != .endElement || reader.depth > 4 {
                    guard inner == .startElement else {
                        if inner == .text, !reader.isWhitespace, reader.depth == 4 { throw layout("text directly inside cell \(place())") }
                        continue
                    }
                    switch reader.localName {
                    case "v": stored = try reader.readText()
                    case "is": inline = try XLSXWorkbook.richText(XMLReader.Element(reading: &reader))
                    default: try reader.skipElement()
                    }
                }
                let value: XLSXCell.Value?
                switch type {
                case "n":
                    guard let stored else { value = nil; break }
                    guard XLSXCell.plainDecimal(stored) != nil else { throw layout("cell \(place()) holds \(UpstreamDataError.quoted(stored)), not a number") }
                    value = .number(stored)
                case "s":
                    guard let stored else { value = nil; break }
                    guard let index = Int(stored), sharedStrings.indices.contains(index) else {
                        throw layout("cell \(place()) names shared string \(UpstreamDataError.quoted(stored)) of \(sharedStrings.count)")
                    }
                    value = .text(sharedStrings[index])
                case "str": value = stored.map { .text($0) }
                case "inlineStr": value = (inline ?? stored).map { .text($0) }
                case "b":
                    guard let stored else { value = nil; break }
                    guard stored == "0" || stored == "1" else { throw layout("cell \(place()) holds \(UpstreamDataError.quoted(stored)), not a boolean") }
                    value = .boolean(stored == "1")
                case "e": value = stored.map { .error($0) }
                default: throw layout("cell \(place()) has type t=\"\(type)\", which is not read")
                }
                if let value { cells.append(XLSXCell(column: column, row: current, value: value)) }
            default:
                continue
            }
        }
        if let rowNumber, !cells.isEmpty { rows.append(XLSXRow(number: rowNumber, cells: cells)) }
        self.rows = rows
    }
}

/// One cell's stored value.
public struct XLSXCell: WorksheetCell {
    /// A string: shared (`t="s"`), a formula's (`t="str"`) or inline (`t="inlineStr"`); a number (`t="n"`, the
    /// default): the decimal text of `<v>` exactly as stored (`192.04911000000001`, `1.5E-3`); a boolean
    /// (`t="b"`); an error value (`t="e"`).
    public typealias Value = WorksheetValue<String>

    public var column: Int
    public var row: Int
    public var value: Value

    /// A number cell's value as plain decimal text (a ``RatesCore/RateText`` when positive); `nil` for any other cell.
    ///
    /// Excel keeps a number as an IEEE 754 double and writes it with up to 17 significant digits, so a
    /// figure typed as `192.04911` is stored as `192.04911000000001`: digits past the 15th are the binary
    /// fraction's, not the publisher's. The stored text is the file's figure and is read this way:
    /// - up to 15 significant digits (every such decimal comes back from a double unchanged), the digits
    ///   exactly as stored, trailing zeros kept: `0.4182`, `1.2781`;
    /// - more, the shortest decimal that denotes the same double (as Excel, Python and Swift print it):
    ///   `192.04911000000001` → `192.04911`, `0.67849999999999999` → `0.6785`; a figure the publisher
    ///   computed keeps every digit the double carries: `69.238276357142851` → `69.23827635714285`.
    ///   Nothing is rounded past the double's own precision, and the display format is not consulted.
    /// An exponent is written out (`1.5E-3` → `0.0015`).
    public var decimalText: String? {
        guard case .number(let stored) = value, let plain = Self.plainDecimal(stored) else { return nil }
        guard Self.significantDigits(plain) > 15, let double = Double(stored), double.isFinite else { return plain }
        return Self.shortestDecimal(double)
    }

    // MARK: - Reading numbers and references

    /// A number as stored in `<v>` (`-12.5`, `1.5E-3`, `46113`) written as a plain decimal (`-12.5`,
    /// `0.0015`, `46113`) with exactly its digits; `nil` for text that is not an XML Schema double
    /// without `INF`/`NaN`: optional sign, digits with an optional fraction, an optional exponent.
    static func plainDecimal(_ text: String) -> String? {
        var bytes = Array(text.utf8)[...]
        // Drops a leading sign; whether it is `-`.
        func dropSign() -> Bool {
            guard let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") else { return false }
            bytes = bytes.dropFirst()
            return sign == UInt8(ascii: "-")
        }
        let negative = dropSign()
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let integer = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(integer.count)
        var fraction: ArraySlice<UInt8> = []
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit)
            bytes = bytes.dropFirst(fraction.count)
        }
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        var exponent = 0
        if let marker = bytes.first, marker == UInt8(ascii: "E") || marker == UInt8(ascii: "e") {
            bytes = bytes.dropFirst()
            let exponentNegative = dropSign()
            let digits = bytes.prefix(while: isDigit)
            guard !digits.isEmpty, digits.count <= 3 else { return nil }
            bytes = bytes.dropFirst(digits.count)
            exponent = Int(String(decoding: digits, as: UTF8.self))! * (exponentNegative ? -1 : 1)
        }
        guard bytes.isEmpty else { return nil }
        // Shift the point by the exponent over the digits, then drop leading zeros of the integer part.
        var digits = Array(integer) + Array(fraction)
        var point = integer.count + exponent
        if point < 0 {
            digits = [UInt8](repeating: UInt8(ascii: "0"), count: -point) + digits
            point = 0
        }
        if point > digits.count { digits += [UInt8](repeating: UInt8(ascii: "0"), count: point - digits.count) }
        var integerPart = digits[..<point].drop { $0 == UInt8(ascii: "0") }
        if integerPart.isEmpty { integerPart = [UInt8(ascii: "0")] }
        let fractionPart = digits[point...]
        var result = String(decoding: integerPart, as: UTF8.self)
        if !fractionPart.isEmpty { result += "." + String(decoding: fractionPart, as: UTF8.self) }
        return negative ? "-" + result : result
    }

    /// The shortest decimal that denotes `value` (the round-trip representation Swift, Python and
    /// Excel print), written without an exponent: `1e-05` is `0.00001`, `89500.0` is `89500`. A value
    /// that is not finite is written as Swift prints it.
    static func shortestDecimal(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        guard value != 0 else { return "0" }
        var text = plainDecimal("\(value)") ?? "\(value)"
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// The significant digits of a plain decimal: from its first non-zero digit, trailing zeros included.
    static func significantDigits(_ plain: String) -> Int {
        plain.utf8.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.drop { $0 == UInt8(ascii: "0") }.count
    }

    /// The 0-based column and 1-based row of a reference (`B12` → 1, 12); `nil` for anything else.
    static func position(_ reference: String) -> (column: Int, row: Int)? {
        let bytes = Array(reference.utf8)
        let letters = bytes.prefix { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        let digits = bytes.dropFirst(letters.count)
        guard (1...3).contains(letters.count), (1...7).contains(digits.count), digits.first != UInt8(ascii: "0"),
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let row = Int(String(decoding: digits, as: UTF8.self))
        else { return nil }
        let column = letters.reduce(0) { $0 * 26 + Int($1 - UInt8(ascii: "A")) + 1 } - 1
        guard column < 16_384, row <= 1_048_576 else { return nil }
        return (column, row)
    }

    /// The reference of a position: column 1, row 12 → `B12`.
    static func reference(column: Int, row: Int) -> String {
        var letters: [UInt8] = []
        var rest = column + 1
        while rest > 0 {
            letters.insert(UInt8(ascii: "A") + UInt8((rest - 1) % 26), at: 0)
            rest = (rest - 1) / 26
        }
        return String(decoding: letters, as: UTF8.self) + String(row)
    }
}
