import RatesCore

/// One `<table>` of an HTML page (``HTMLDocument``): its attributes and its rows of cell texts.
struct HTMLTable: Equatable, Sendable {
    /// The part of the table a row is in.
    enum Section: Equatable, Sendable { case head, body, foot }

    /// One `<td>` or `<th>`.
    struct Cell: Equatable, Sendable {
        /// The cell's text: tags inside it stripped, character references decoded, white space (no-break
        /// spaces too) collapsed to single spaces and trimmed (``HTMLText/collapsed(_:)``).
        var text: String
        /// Whether it is a `<th>`.
        var isHeader: Bool
        /// The `<td>`'s or `<th>`'s own attributes.
        var tag: HTMLTag
        /// The start tags inside the cell (`<time datetime=…>`, `<img alt=…>`), in order.
        var innerTags: [HTMLTag]
    }

    /// One `<tr>` (or cells outside any `<tr>`, which a browser puts in a row of their own).
    struct Row: Equatable, Sendable {
        var cells: [Cell]
        var section: Section
        /// The `<tr>`'s attributes (empty for an implied row).
        var tag: HTMLTag

        /// The cells' texts.
        var texts: [String] { cells.map(\.text) }

        /// The cells' texts, exactly `count` of them, or a layout error that shows them (and the table's day, when given).
        func texts(count: Int, day: Day? = nil) throws(UpstreamDataError) -> [String] {
            guard cells.count == count else {
                let place = day.map { " on \($0)" } ?? ""
                throw .layout("a row of \(cells.count) cells\(place): \(HTMLDocument.shown(texts))")
            }
            return texts
        }
    }

    /// The `<table>` tag.
    var tag: HTMLTag
    var rows: [Row]

    /// The table's `id`, if it has one.
    var id: String? { tag["id"] }

    /// The index of the first row whose texts are exactly `header`.
    func rowIndex(ofHeader header: [String]) -> Int? {
        rows.firstIndex { $0.texts == header }
    }

    // MARK: - Building

    /// The tables in `tokens`, in the order they open.
    static func build(from tokens: [HTMLDocument.Token]) throws(UpstreamDataError) -> [HTMLTable] {
        var builder = Builder()
        for token in tokens { builder.read(token) }
        guard builder.open.isEmpty else {
            throw .layout("a <table> is not closed before the end of the page")
        }
        return builder.finished.sorted { $0.order < $1.order }.map { $0.table }
    }

    /// The state of the tables open while the tokens are read.
    private struct Builder {
        struct Open {
            /// How many tables of the page opened before this one.
            var order: Int
            var table: HTMLTable
            var section: Section = .body
            var row: Row?
            var cell: (text: String, header: Bool, tag: HTMLTag, inner: [HTMLTag])?

            mutating func closeCell() {
                guard let open = cell else { return }
                if row == nil { row = Row(cells: [], section: section, tag: HTMLTag(name: "tr")) }
                row?.cells.append(Cell(text: HTMLText.collapsed(open.text), isHeader: open.header, tag: open.tag, innerTags: open.inner))
                cell = nil
            }

            mutating func closeRow() {
                closeCell()
                if let row { table.rows.append(row) }
                row = nil
            }
        }

        var open: [Open] = []
        var finished: [(order: Int, table: HTMLTable)] = []

        mutating func read(_ token: HTMLDocument.Token) {
            if case .start(let tag) = token, tag.name == "table" {
                // A table inside a cell breaks the cell's text; the table is one of its own.
                if !open.isEmpty { open[open.count - 1].cell?.text += " " }
                open.append(Open(order: finished.count + open.count, table: HTMLTable(tag: tag, rows: [])))
                return
            }
            // Outside a table, only a table's start counts; outside a cell, text and other tags do not.
            guard !open.isEmpty else { return }
            switch token {
            case .start(let tag):
                switch tag.name {
                case "thead", "tbody", "tfoot":
                    open[open.count - 1].closeRow()
                    open[open.count - 1].section = tag.name == "thead" ? .head : tag.name == "tfoot" ? .foot : .body
                case "tr":
                    open[open.count - 1].closeRow()
                    open[open.count - 1].row = Row(cells: [], section: open[open.count - 1].section, tag: tag)
                case "td", "th":
                    open[open.count - 1].closeCell()
                    open[open.count - 1].cell = ("", tag.name == "th", tag, [])
                default:
                    if HTMLTag.breaksText.contains(tag.name) { open[open.count - 1].cell?.text += " " }
                    open[open.count - 1].cell?.inner.append(tag)
                }
            case .end(let name):
                switch name {
                case "table":
                    var table = open.removeLast()
                    table.closeRow()
                    finished.append((table.order, table.table))
                case "thead", "tbody", "tfoot":
                    open[open.count - 1].closeRow()
                    open[open.count - 1].section = .body
                case "tr":
                    open[open.count - 1].closeRow()
                case "td", "th":
                    open[open.count - 1].closeCell()
                default:
                    if HTMLTag.breaksText.contains(name) { open[open.count - 1].cell?.text += " " }
                }
            case .text(let text):
                open[open.count - 1].cell?.text += text
            }
        }
    }
}
