/// The answer of a WordPress site's wpDataTables table to `admin-ajax.php?action=get_wdtable&table_id=N`,
/// asked for whole (`draw=1&start=0&length=-1`), which the CBK and the Bank of Jamaica publish their
/// rates through: `{"draw":1,"recordsTotal":"11550","recordsFiltered":"11550","data":[["05\/01\/2024","US DOLLAR","157.9012"],…]}`,
/// one array of strings per row, in the table's column order.
enum WPDataTablesAnswer {
    /// The rows of `body`, each exactly `columns` strings.
    ///
    /// - Parameter countsRows: Whether the row count must be `recordsFiltered` (a site that answers every
    ///   row); a site that answers fewer rows than it counts (the Bank of Jamaica's) passes `false`.
    /// - Returns: The rows; none for a table without rows (`"data":[]`), which the caller reads as its source's answer says.
    /// - Throws: ``UpstreamDataError/empty`` for an empty body;
    ///   ``UpstreamDataError/unexpectedLayout(provider:_:)`` for anything else than that layout, or a row
    ///   count other than `recordsFiltered` when `countsRows`.
    static func rows(_ body: [UInt8], columns: Int, countsRows: Bool = true) throws(UpstreamDataError) -> [[String]] {
        let document = try ProviderJSON(answer: body)
        let data = try document.field("data", of: "the answer").array("\"data\"")
        let filtered = try document.field("recordsFiltered", of: "the answer").integer("\"recordsFiltered\"")
        guard data.count == filtered || !countsRows else {
            throw .layout("\(data.count) rows where recordsFiltered says \(filtered)")
        }
        return try data.enumerated().map { index, element throws(UpstreamDataError) in
            let cells = try element.array("row \(index + 1)")
            guard cells.count == columns else {
                throw .layout("row \(index + 1) has \(cells.count) cells, not \(columns)")
            }
            return try cells.enumerated().map { column, cell throws(UpstreamDataError) in try cell.string("cell \(column + 1) of row \(index + 1)") }
        }
    }
}
