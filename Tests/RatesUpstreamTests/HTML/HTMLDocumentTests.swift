import RatesCore
import Testing

@testable import RatesUpstream

@Suite("HTML table reader")
struct HTMLDocumentTests {
    func document(_ html: String) throws -> HTMLDocument {
        try HTMLDocument(parsing: Array(html.utf8))
    }

    func error(_ html: String) -> UpstreamDataError? {
        do {
            _ = try document(html)
            return nil
        } catch let error as UpstreamDataError {
            return error
        } catch {
            Issue.record("not an UpstreamDataError: \(error)")
            return nil
        }
    }

    @Test("reads rows of cell texts, header cells marked, sections kept, attributes read in every quoting")
    func rows() throws {
        let page = try document(
            """
            <!DOCTYPE html><html><body>
            <TABLE id="rates" class='table striped' data-x=1>
              <thead><tr><th>Currency</th><TH>Rate</TH></tr></thead>
              <tbody>
                <tr class="odd"><td>USD</td><td align=right>1,234.50</td></tr>
                <tr><td>EUR</td><td>2.5</td></tr>
              </tbody>
              <tfoot><tr><td colspan="2">footer</td></tr></tfoot>
            </TABLE></body></html>
            """)
        #expect(page.tables.count == 1)
        let table = try #require(page.tables.first)
        #expect(table.id == "rates")
        #expect(table.tag.hasClass("striped") && table.tag.hasClass("table") && !table.tag.hasClass("tab"))
        #expect(table.tag["data-x"] == "1")
        #expect(table.rows.map(\.texts) == [["Currency", "Rate"], ["USD", "1,234.50"], ["EUR", "2.5"], ["footer"]])
        #expect(table.rows.map(\.section) == [.head, .body, .body, .foot])
        #expect(table.rows[0].cells.allSatisfy(\.isHeader) && !table.rows[1].cells.contains(where: \.isHeader))
        #expect(table.rows[1].tag["class"] == "odd")
        #expect(table.rows[1].cells[1].tag["align"] == "right")
    }

    @Test("decodes character references, strips inline tags, collapses white space and no-break spaces")
    func cellText() throws {
        let page = try document(
            """
            <table><tr><td> <strong>
              A&amp;B </strong></td><td>Unit&eacute; &#233;&#xE9;&#XE9; &nbsp;x&nbsp;&nbsp;y</td>
            <td><span>Jan 02&nbsp;&nbsp;</span><span>2024</span></td><td>a<br>b<div>c</div>d</td>
            <td>&unknown; &amp &#; 1 < 2</td><td><time datetime="2026-05-23T12:00:00Z">Saturday</time></td></tr></table>
            """)
        let row = try #require(page.tables.first?.rows.first)
        #expect(row.texts == ["A&B", "Unité ééé x y", "Jan 02 2024", "a b c d", "&unknown; &amp &#; 1 < 2", "Saturday"])
        #expect(row.cells[5].innerTags.first?["datetime"] == "2026-05-23T12:00:00Z")
    }

    @Test("skips comments, doctype, scripts and styles, even with tags inside them")
    func skipped() throws {
        let page = try document(
            """
            <!-- <table><tr><td>commented</td></tr></table> -->
            <script type="text/javascript">var s = "<table><tr><td>script</td>"; if (a < b) {}</SCRIPT >
            <style>td { color: red } </style><?xml version="1.0"?>
            <table><tr><td>kept<!-- not this --></td></tr></table>
            """)
        #expect(page.tables.map { $0.rows.map(\.texts) } == [[["kept"]]])
    }

    @Test("closes cells and rows left open, as browsers do")
    func unclosed() throws {
        let page = try document("<table><tr><td>a<td>b<tr><td>c<th>d</table><table><td>e</td></table>")
        #expect(page.tables.map { $0.rows.map(\.texts) } == [[["a", "b"], ["c", "d"]], [["e"]]])
    }

    @Test("a table inside a cell is a table of its own, listed after the one it is in")
    func nested() throws {
        let page = try document("<table id=outer><tr><td>x<table id=inner><tr><td>y</td></tr></table>z</td></tr></table>")
        #expect(page.tables.map(\.id) == ["outer", "inner"])
        #expect(page.tables[0].rows.map(\.texts) == [["x z"]])
        #expect(page.tables[1].rows.map(\.texts) == [["y"]])
    }

    @Test("finds a table by its header row, and the rows after it")
    func header() throws {
        let page = try document(
            "<table><tr><th>Other</th></tr></table><table><tr><td>title</td></tr><tr><th>Code</th><th>Rate</th></tr><tr><td>USD</td><td>1</td></tr></table>")
        let found = try page.table(withHeader: ["Code", "Rate"])
        #expect(found.rows.map(\.texts) == [["USD", "1"]])
        #expect(throws: UpstreamDataError.self) { try page.table(withHeader: ["Code", "Value"]) }
        let twice = try document("<table><tr><th>A</th></tr></table><table><tr><th>A</th></tr><tr><td>2</td></tr></table>")
        #expect(throws: UpstreamDataError.self) { try twice.table(withHeader: ["A"]) }
        #expect(try twice.table(withHeader: ["A"], first: true).rows.isEmpty)
    }

    @Test("gives the text of headings and paragraphs, and the attributes of tags")
    func textsAndTags() throws {
        let page = try document(
            "<h2>Cours du <b>lundi</b>\n 16 mars</h2><p>one</p><p>two<br/>lines</p><input type=hidden name=tk value=\"a/b+c=\"/><input name=x>")
        #expect(page.texts(of: "h2") == ["Cours du lundi 16 mars"])
        #expect(page.texts(of: "p") == ["one", "two lines"])
        #expect(page.startTags("input").map { $0["value"] } == ["a/b+c=", nil])
        #expect(page.startTags("input").first?.selfClosing == true)
    }

    @Test("rejects what a browser would guess at: cut tags, comments, scripts and tables, bytes that are not UTF-8, an empty body")
    func rejected() {
        #expect(error("<table><tr><td>1</td></tr>")?.isUnexpectedLayout == true)
        #expect(error("<table><tr><td class=\"a")?.isUnexpectedLayout == true)
        #expect(error("<table><tr><td")?.isUnexpectedLayout == true)
        #expect(error("<p>x</p><!-- cut")?.isUnexpectedLayout == true)
        #expect(error("<script>var a = 1;")?.isUnexpectedLayout == true)
        #expect(error("<table></table></tab")?.isUnexpectedLayout == true)
        #expect(throws: UpstreamDataError.self) { try HTMLDocument(parsing: [0x3C, 0x70, 0x3E, 0xE9, 0x3C, 0x2F, 0x70, 0x3E]) }
        #expect(error("") == .empty)
        #expect(error(" \n") == .empty)
    }

    @Test("never crashes on any prefix of a page")
    func prefixes() {
        let page = Array("<!DOCTYPE html><table id='t'><thead><tr><th>A &amp; B</th></tr></thead><tbody><tr><td>1,5</td></tr></tbody></table><!-- c --><script>x</script>".utf8)
        for end in 0...page.count {
            _ = try? HTMLDocument(parsing: Array(page[..<end]))
        }
    }

    @Test("reads grouped decimals as plain decimal text, digits and trailing zeros unchanged")
    func decimals() {
        #expect(GroupedDecimal.rateText("1.953,0200", decimalMark: ",", groupMark: ".") == "1953.0200")
        #expect(GroupedDecimal.rateText("655,9570", decimalMark: ",", groupMark: ".") == "655.9570")
        #expect(GroupedDecimal.rateText("4 983,29", decimalMark: ",", groupMark: " ") == "4983.29")
        #expect(GroupedDecimal.rateText("4\u{00A0}983,29", decimalMark: ",", groupMark: " ") == "4983.29")
        #expect(GroupedDecimal.rateText("1,234.50", decimalMark: ".", groupMark: ",") == "1234.50")
        #expect(GroupedDecimal.rateText("7271", decimalMark: ",", groupMark: ".") == "7271")
        #expect(GroupedDecimal.rateText("12.34,5", decimalMark: ",", groupMark: ".") == nil)
        #expect(GroupedDecimal.rateText("1.2345,5", decimalMark: ",", groupMark: ".") == nil)
        #expect(GroupedDecimal.rateText("1,5,0", decimalMark: ",", groupMark: ".") == nil)
        #expect(GroupedDecimal.rateText("1,", decimalMark: ",", groupMark: ".") == nil)
        #expect(GroupedDecimal.rateText("ND", decimalMark: ",", groupMark: ".") == nil)
        #expect(GroupedDecimal.rateText("-1,5", decimalMark: ",", groupMark: ".") == nil)
        #expect(GroupedDecimal.rateText("1.5", decimalMark: ",") == nil)
    }

    @Test("reads month names in English, French and Spanish, and days from their parts")
    func months() {
        #expect(HTMLText.month("May") == 5 && HTMLText.month("AUGUST") == 8 && HTMLText.month("Sep") == 9)
        #expect(HTMLText.month("mars") == 3 && HTMLText.month("décembre") == 12 && HTMLText.month("AGO") == 8 && HTMLText.month("DIC") == 12)
        #expect(HTMLText.month("Mayo") == 5 && HTMLText.month("Foo") == nil)
        #expect(HTMLText.day(day: "7", month: "May", year: "2026") == Day("2026-05-07"))
        #expect(HTMLText.day(day: "28", month: "Aug", year: "25", twoDigitYears: true) == Day("2025-08-28"))
        #expect(HTMLText.day(day: "28", month: "Aug", year: "25") == nil)
        #expect(HTMLText.day(day: "31", month: "April", year: "2026") == nil)
        #expect(HTMLText.day(day: "007", month: "May", year: "2026") == nil)
    }
}
