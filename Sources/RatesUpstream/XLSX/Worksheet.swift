/// A cell of a worksheet as either workbook reader gives it (``XLSXCell``, ``BIFFCell``): where it stands.
public protocol WorksheetCell: Equatable, Sendable {
    /// The column, 0-based (A is 0).
    var column: Int { get }
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
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].number < number { low = middle + 1 } else { high = middle }
        }
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
