import RatesCore

/// The strict reading of an HTML page that the HTML adapters share: enough of HTML to find its
/// tables (``HTMLTable``), the text of its headings and paragraphs, and the attributes of its tags
/// (a form's hidden token), without a dependency.
///
/// The page is read as a browser tokenises it, as far as tables need: tags with their attributes
/// (quoted, single-quoted or bare), character references (`&amp;`, `&nbsp;`, `&eacute;`, `&#233;`,
/// `&#xE9;`), comments, `<!DOCTYPE>`, and the raw text of `<script>` and `<style>`, which is skipped.
/// Tag and attribute names are read in lower case. A `<td>` or `<tr>` left open is closed by the
/// next cell, row, section or the end of its table, as browsers allow; a table inside a cell is a
/// table of its own.
///
/// What a browser would guess at is rejected instead, so that a cut or garbled answer is never read
/// as a shorter one: bytes that are not UTF-8, a tag, comment or script left open at the end of the
/// body, and a `<table>` never closed all throw
/// ``UpstreamDataError/unexpectedLayout(provider:_:)``; an empty body throws ``UpstreamDataError/empty``.
/// Whether the tables are the ones the adapter expects is the adapter's check
/// (``tables(withHeader:)``, then each row's cells).
struct HTMLDocument: Sendable {
    /// One piece of the page as the tokeniser reads it.
    enum Token: Equatable, Sendable {
        /// `<name attributes>`; `selfClosing` for `<name/>`.
        case start(HTMLTag)
        /// `</name>`.
        case end(String)
        /// Text between tags, character references decoded.
        case text(String)
    }

    /// The page's tags and text, in order (comments, doctype and the content of scripts and styles left out).
    let tokens: [Token]
    /// Every table of the page, in the order their `<table>` tags open (a table inside another's cell after it).
    let tables: [HTMLTable]

    /// Reads `body` as an HTML page, UTF-8 text (a byte order mark dropped).
    ///
    /// - Throws: ``UpstreamDataError/empty`` for an empty body, ``UpstreamDataError/unexpectedLayout(provider:_:)``
    ///   for bytes that are not UTF-8, a tag, comment or script not closed, or a table not closed.
    init(parsing body: [UInt8]) throws(UpstreamDataError) {
        guard !body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { throw .empty }
        var bytes = body[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .layout("the page is not UTF-8 text")
        }
        var tokeniser = HTMLTokeniser(scalars: Array(text.unicodeScalars))
        tokens = try tokeniser.tokens()
        tables = try HTMLTable.build(from: tokens)
    }

    // MARK: - Looking things up

    /// The tables with a row whose cells' texts are exactly `header`, in page order.
    func tables(withHeader header: [String]) -> [HTMLTable] {
        tables.filter { $0.rowIndex(ofHeader: header) != nil }
    }

    /// The one table with a row whose cells' texts are exactly `header` (the first when `first` is set, else
    /// the only one), with the rows after that header row.
    ///
    /// - Throws: ``UpstreamDataError/unexpectedLayout(provider:_:)`` when no table has that header, or
    ///   several do and `first` is not set.
    func table(withHeader header: [String], first: Bool = false) throws(UpstreamDataError) -> (table: HTMLTable, rows: ArraySlice<HTMLTable.Row>) {
        let matches = tables(withHeader: header)
        guard let table = matches.first, let index = table.rowIndex(ofHeader: header) else {
            throw .layout("no table with the header \(Self.shown(header)) (\(tables.count) tables on the page)")
        }
        guard first || matches.count == 1 else {
            throw .layout("\(matches.count) tables with the header \(Self.shown(header))")
        }
        return (table, table.rows[(index + 1)...])
    }

    /// The start tags named `name` (lower case), in page order.
    func startTags(_ name: String) -> [HTMLTag] {
        tokens.compactMap { if case .start(let tag) = $0, tag.name == name { tag } else { nil } }
    }

    /// The text of each element named `name` (`h2`, `p`, `font`), tags inside it stripped and white space
    /// collapsed (``HTMLText/collapsed(_:)``), in page order.
    func texts(of name: String) -> [String] {
        var texts: [String] = []
        var open: [String] = []  // the texts of the elements named `name` still open, innermost last
        for token in tokens {
            switch token {
            case .start(let tag) where tag.name == name && !tag.selfClosing && !HTMLTag.voidElements.contains(name):
                open.append("")
            case .start(let tag) where HTMLTag.breaksText.contains(tag.name):
                for index in open.indices { open[index] += " " }
            case .end(let tagName) where tagName == name:
                if let text = open.popLast() { texts.append(HTMLText.collapsed(text)) }
            case .text(let text):
                for index in open.indices { open[index] += text }
            default:
                break
            }
        }
        return texts
    }

    /// `header` for messages: `"Currency" | "Rate"`.
    static func shown(_ header: [String]) -> String {
        header.map { "\"\($0)\"" }.joined(separator: " | ")
    }
}

/// A start tag: its name and attributes, names in lower case, values with character references decoded.
struct HTMLTag: Equatable, Sendable {
    var name: String
    var attributes: [String: String] = [:]
    var selfClosing = false

    /// The attribute `name`, if the tag has it.
    subscript(_ name: String) -> String? { attributes[name] }

    /// Whether the tag's `class` attribute lists `name`.
    func hasClass(_ name: String) -> Bool {
        (attributes["class"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).contains { $0 == name }
    }

    /// Elements that never have content or an end tag.
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]

    /// Tags that separate words in a cell's text, as a browser renders them on a line of their own.
    static let breaksText: Set<String> = ["br", "p", "div", "li", "ul", "ol", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr"]
}
