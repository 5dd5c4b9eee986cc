import Foundation

/// The text of a PDF file, page by page: what the adapters of sources that publish PDF bulletins read.
///
/// A reader of the subset of PDF that text-only bulletins use, not a renderer:
/// - objects are found by scanning the file for `N G obj … endobj` (the cross-reference table is not
///   needed, so a missing or broken one does not matter), with the objects of object streams; a
///   stream's `/Length` is direct or indirect, and is checked against its `endstream`;
/// - streams are unencoded or `/FlateDecode` (zlib), without predictors;
/// - pages are read in the page tree's order, each with its content stream or array of them and the
///   fonts of its resources (inherited from the tree);
/// - text is what `Tj`, `TJ`, `'` and `"` show, each a ``PDFTextRun`` placed by the text and current
///   transformation matrices, in fonts of one-byte codes read through StandardEncoding or
///   WinAnsiEncoding and `/Differences` (``PDFFont``); `ToUnicode` maps, composite fonts, form
///   XObjects, encryption and other filters are not read.
///
/// Bounded on hostile input: nesting, objects, inflated bytes, page-tree depth, pages, operators and
/// runs all have limits (``PDFFile``, ``PDFSyntax``, ``PDFContentReader``), nothing recurses without
/// a bound, and a file that is malformed, cut short (no `%%EOF` at its end) or past a limit is rejected
/// whole with ``UpstreamDataError/layout(_:)``.
public struct PDFDocument: Sendable {
    /// The deepest page tree read.
    static let maxTreeDepth = 32
    /// The most pages read.
    static let maxPages = 1000

    /// The pages, in order.
    public let pages: [PDFPage]

    /// Reads the text of every page of `bytes`.
    ///
    /// - Throws: ``UpstreamDataError/layout(_:)`` for anything that is not a readable PDF file.
    public init(_ bytes: [UInt8]) throws(UpstreamDataError) {
        let file = try PDFFile(bytes)
        var pages: [PDFPage] = []
        for (page, resources) in try Self.pageObjects(of: file) {
            let fonts = (file.dictionary(resources?["Font"]) ?? [:]).compactMapValues { file.dictionary($0).map { PDFFont($0, in: file) } }
            var content: [UInt8] = []
            let contents = page["Contents"]
            let streams = file.resolve(contents).array ?? (contents.map { [$0] } ?? [])
            for (index, stream) in streams.enumerated() {
                content += try file.streamData(stream, what: "page \(pages.count + 1)'s content stream \(index + 1)")
                content.append(0x0A)
            }
            var reader = PDFContentReader(fonts: fonts)
            try reader.read(content)
            pages.append(PDFPage(runs: reader.runs))
        }
        self.pages = pages
    }

    /// Whether `bytes` start as a PDF file does (`%PDF-` within the first 1024 bytes).
    public static func isPDF(_ bytes: [UInt8]) -> Bool { PDFFile.isPDF(bytes) }

    /// The pages' dictionaries in order, each with the resources it has or inherits.
    private static func pageObjects(of file: PDFFile) throws(UpstreamDataError) -> [([String: PDFObject], [String: PDFObject]?)] {
        // The root: the last trailer's that names one, or else the last catalog in the file.
        let roots = file.trailers.compactMap { $0["Root"] }.map { file.resolve($0) }.filter { $0.dictionary?["Pages"] != nil }
        let fallback = file.catalogs.last.map { file.resolve(.reference($0)) }
        guard let catalog = (roots.last ?? fallback)?.dictionary else { throw .layout("PDF: no document catalog (/Root)") }
        guard let tree = catalog["Pages"], file.dictionary(tree) != nil else { throw .layout("PDF: the catalog has no page tree (/Pages)") }

        var pages: [([String: PDFObject], [String: PDFObject]?)] = []
        var visited = Set<PDFReference>()
        // Depth first, in order: the stack holds what is still to read, the next on top.
        var stack: [(node: PDFObject, resources: [String: PDFObject]?, depth: Int)] = [(tree, nil, 0)]
        while let entry = stack.popLast() {
            let (node, inherited, depth) = entry
            if let reference = node.reference {
                guard visited.insert(reference).inserted else { throw .layout("PDF: the page tree holds object \(reference) twice") }
            }
            guard let dictionary = file.dictionary(node) else { throw .layout("PDF: a page tree node is not a dictionary") }
            let resources = file.dictionary(dictionary["Resources"]) ?? inherited
            if let kids = file.resolve(dictionary["Kids"]).array, dictionary["Type"]?.name != "Page" {
                guard depth < maxTreeDepth else { throw .layout("PDF: the page tree is more than \(maxTreeDepth) deep") }
                guard visited.count + kids.count <= 10 * maxPages else { throw .layout("PDF: the page tree has too many nodes") }
                for kid in kids.reversed() { stack.append((kid, resources, depth + 1)) }
            } else {
                guard dictionary["Type"]?.name == "Page" || dictionary["Contents"] != nil else { throw .layout("PDF: a page tree leaf is not a page") }
                pages.append((dictionary, resources))
                guard pages.count <= maxPages else { throw .layout("PDF: more than \(maxPages) pages") }
            }
        }
        guard !pages.isEmpty else { throw .layout("PDF: the page tree holds no page") }
        return pages
    }
}

/// One page's text: the runs its content shows, in the order shown.
public struct PDFPage: Sendable, Equatable {
    /// Every run of text, as shown.
    public var runs: [PDFTextRun]

    /// The page's text as rows, top to bottom: runs whose baselines are within `tolerance` points of the
    /// row's first (highest) run, ordered left to right; runs of white space only are left out. How an
    /// adapter reads a table: a row of cells.
    public func rows(tolerance: Double = 2) -> [PDFTextRow] {
        let shown = runs.filter { !$0.text.allSatisfy(\.isWhitespace) }.sorted { $0.y > $1.y || ($0.y == $1.y && $0.x < $1.x) }
        var rows: [PDFTextRow] = []
        var current: [PDFTextRun] = []
        for run in shown {
            if let first = current.first, first.y - run.y > tolerance {
                rows.append(PDFTextRow(runs: current))
                current = []
            }
            current.append(run)
        }
        if !current.isEmpty { rows.append(PDFTextRow(runs: current)) }
        return rows
    }

    /// The page's rows' text (``PDFTextRow/text``), one line each.
    public var text: String { rows().map(\.text).joined(separator: "\n") }
}

/// A run of text shown at once (one `Tj`, `TJ`, `'` or `"`), where it starts on the page.
public struct PDFTextRun: Sendable, Equatable {
    /// The characters, by the font's encoding.
    public var text: String
    /// Where the run starts, in points from the page's origin (bottom left), on its baseline.
    public var x: Double
    public var y: Double
    /// How far the run moves the text along (points; estimated where the font gives no widths).
    public var width: Double
    /// The size of its text on the page, in points.
    public var fontSize: Double
}

/// A row of a page: runs on about the same baseline, left to right (``PDFPage/rows(tolerance:)``).
public struct PDFTextRow: Sendable, Equatable {
    /// The runs, left to right.
    public var runs: [PDFTextRun]

    public init(runs: [PDFTextRun]) { self.runs = runs.sorted { $0.x < $1.x } }

    /// The baseline of the row's highest run.
    public var y: Double { runs.map(\.y).max() ?? 0 }

    /// Each run's text, white space around it trimmed: the row's cells, left to right.
    public var cells: [String] { runs.map { $0.text.trimmingCharacters(in: .whitespaces) } }

    /// The row as one line: a run that starts where the one before it ends (within a tenth of its size:
    /// a line of fixed-pitch text cut into pieces) continues it, any other starts after a space.
    public var text: String {
        var line = ""
        var end: Double?
        for run in runs {
            if let end, !line.isEmpty, abs(run.x - end) > max(0.5, run.fontSize / 10) { line += " " }
            line += run.text
            end = run.x + run.width
        }
        return line
    }
}
