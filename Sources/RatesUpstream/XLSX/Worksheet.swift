import RatesCore

/// A cell of a worksheet as either workbook reader gives it (``XLSXCell``, ``BIFFCell``): where it
/// stands and its stored value.
public protocol WorksheetCell: Equatable, Sendable {
    /// How the format stores a number: the decimal text of an XLSX `<v>`, the double of a BIFF8 record.
    associatedtype Number: Equatable, Sendable
    /// The column, 0-based (A is 0).
    var column: Int { get }
    /// The row, 1-based.
    var row: Int { get }
    var value: WorksheetValue<Number> { get }
}

/// One cell's stored value (``XLSXCell/Value``, ``BIFFCell/Value``).
public enum WorksheetValue<Number: Equatable & Sendable>: Equatable, Sendable {
    /// A string.
    case text(String)
    /// A number; dates are numbers too (serials, see ``XLSXWorkbook/day(serial:)``, ``BIFFWorkbook/day(serial:)``).
    case number(Number)
    /// A boolean.
    case boolean(Bool)
    /// An error value: `#N/A`, `#DIV/0!`, `#REF!`…
    case error(String)
}

extension WorksheetCell {
    /// The cell's reference: `B12`.
    public var reference: String { XLSXCell.reference(column: column, row: row) }

    /// The text of a string cell; `nil` for any other.
    public var text: String? { if case .text(let text) = value { text } else { nil } }

    /// ``text`` with each run of white space (line breaks too) made one space and none at either end.
    var words: String? { text.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") } }

    /// The stored number of a number cell; `nil` for any other.
    public var number: Number? { if case .number(let number) = value { number } else { nil } }
}

/// One row of a sheet: the cells in it that hold a value, in column order.
public struct WorksheetRow<Cell: WorksheetCell>: Equatable, Sendable {
    /// The row's number, 1-based, as on the sheet.
    public var number: Int
    public var cells: [Cell]

    /// The cell in `column` (0-based: A is 0), if it holds a value.
    public subscript(column: Int) -> Cell? {
        cells.first { $0.column == column }
    }
}

/// A sheet's rows that hold a value, in ascending order, as either workbook reader gives them
/// (``XLSXSheet``, ``BIFFSheet``), looked up by number or by a cell's reference.
public protocol Worksheet {
    associatedtype Cell: WorksheetCell
    /// The rows that hold a value, in ascending order.
    var rows: [WorksheetRow<Cell>] { get }
}

extension Worksheet {
    /// The row numbered `number` (1-based), if it holds a value.
    public func row(_ number: Int) -> WorksheetRow<Cell>? {
        let low = rows.partitionPoint { $0.number < number }
        return low < rows.count && rows[low].number == number ? rows[low] : nil
    }

    /// The cell at `reference` (`B12`), if it holds a value.
    public subscript(reference: String) -> Cell? {
        guard let (column, row) = XLSXCell.position(reference) else { return nil }
        return self.row(row)?[column]
    }
}

/// One row of an XLSX sheet.
public typealias XLSXRow = WorksheetRow<XLSXCell>
/// One row of a BIFF8 (`.xls`) sheet.
public typealias BIFFRow = WorksheetRow<BIFFCell>

/// A workbook as either reader gives it (``XLSXWorkbook``, ``BIFFWorkbook``): its sheets in tab order,
/// each read when asked for.
protocol Workbook {
    associatedtype SheetEntry
    associatedtype Sheet: Worksheet
    /// The sheets in tab order.
    var sheets: [SheetEntry] { get }
    /// The sheet `entry`, read whole.
    func sheet(_ entry: SheetEntry) throws(UpstreamDataError) -> Sheet
}

extension Workbook {
    /// What `read` gives for every sheet, in tab order, joined: for a workbook whose sheets are all of
    /// one kind (one per year, per month or per currency). Each sheet is read whole when its turn comes.
    ///
    /// - Throws: `UpstreamDataError.unexpectedLayout` for a workbook without a sheet; what reading a sheet
    ///   or `read` throws.
    func everySheet<Element>(_ read: (Sheet) throws(UpstreamDataError) -> [Element]) throws(UpstreamDataError) -> [Element] {
        guard !sheets.isEmpty else { throw .layout("the workbook has no sheet") }
        return Array(try sheets.map { entry throws(UpstreamDataError) in try read(sheet(entry)) }.joined())
    }
}

extension XLSXWorkbook: Workbook {}

extension BIFFWorkbook: Workbook {}
