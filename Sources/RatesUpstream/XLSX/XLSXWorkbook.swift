import RatesCore

/// An Excel workbook (Office Open XML, `.xlsx`) read strictly from its bytes: its sheets by name,
/// each sheet's cells with their stored values, and its date system.
///
/// The package is read as the format defines it: `_rels/.rels` names the workbook part,
/// the workbook's relationships name its sheets and its shared strings, and ``XMLReader`` reads
/// every part. A sheet is read only when asked for (``sheet(named:)``), so an adapter that needs the
/// newest month of a twenty-year workbook reads one sheet.
///
/// Values are the cells' stored values, never their display: a number is the decimal text of its
/// `<v>` element exactly as stored (``XLSXCell/Value``), never read through a `Double`;
/// ``XLSXCell/decimalText`` and ``day(serial:)`` read it as a figure or a day. Formulas are not
/// evaluated: their cached value is the value.
///
/// Errors are `UpstreamDataError`: `.empty` for no bytes; `.unreadableArchive` for bytes that are
/// not a whole zip archive, or a package without a workbook or with a damaged member;
/// `.malformedXML`/`.unexpectedDocument` for a part that is not well-formed XML;
/// `.unexpectedLayout` for XML that is not the SpreadsheetML it should be (a cell type
/// not defined, a number that is not a number, a shared string index out of range, cells out of order).
public struct XLSXWorkbook: Sendable {
    /// One sheet of the workbook, as `xl/workbook.xml` lists it.
    public struct SheetEntry: Equatable, Sendable {
        /// Its name on its tab (`2026`, `USD - DZD`).
        public var name: String
        /// Its part in the package (`xl/worksheets/sheet1.xml`).
        public var path: String
        /// Whether it is hidden (`state="hidden"` or `"veryHidden"`).
        public var isHidden: Bool
    }

    /// The sheets in tab order.
    public let sheets: [SheetEntry]
    /// The system its date serials count in (`<workbookPr date1904="1"/>`: the 1904 one; else the 1900 one).
    public let dateSystem: ExcelDateSystem
    /// The shared strings, by index: each `<si>`'s text (the runs of rich text joined, phonetic runs left out).
    public let sharedStrings: [String]

    private let archive: ZIPArchive

    static let mainNamespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    static let relationshipsNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

    /// Reads the package, the workbook part, its relationships and its shared strings.
    ///
    /// - Parameters:
    ///   - bytes: The `.xlsx` file.
    public init(_ bytes: [UInt8]) throws(UpstreamDataError) {
        archive = try ZIPArchive(bytes, name: "workbook")
        guard archive.contains("_rels/.rels") else { throw .unreadableArchive("the zip archive is not an Office package: no _rels/.rels") }
        let packageRelationships = try Self.relationships(archive.data("_rels/.rels"), base: "")
        guard let workbookPath = packageRelationships.first(where: { $0.type.hasSuffix("/officeDocument") })?.target else {
            throw .unreadableArchive("the Office package names no main document")
        }
        guard archive.contains(workbookPath) else { throw .unreadableArchive("the Office package has no \(workbookPath)") }
        let directory = Self.directory(of: workbookPath)
        let relationshipsPath = directory + "_rels/" + workbookPath.dropFirst(directory.count) + ".rels"
        let relationships = try Self.relationships(archive.data(relationshipsPath), base: directory)

        let workbook = try XMLReader.Element(parsing: archive.data(workbookPath), root: "workbook")
        guard workbook.namespaceURI == Self.mainNamespace else {
            throw .layout("\(workbookPath) is not a SpreadsheetML workbook (namespace \(workbook.namespaceURI ?? "none"))")
        }
        switch workbook.child("workbookPr")?.attribute("date1904") {
        case nil, "0", "false": dateSystem = .from1900
        case "1", "true": dateSystem = .from1904
        case let other?: throw .layout("date1904=\"\(other)\" in \(workbookPath)")
        }
        var sheets: [SheetEntry] = []
        for sheet in workbook.child("sheets")?.children ?? [] {
            guard sheet.localName == "sheet", let name = sheet.attribute("name"),
                let id = sheet.attribute("id", namespaceURI: Self.relationshipsNamespace),
                let relationship = relationships.first(where: { $0.id == id })
            else {
                throw .layout("a <\(sheet.qualifiedName)> in \(workbookPath) without a name or a relationship")
            }
            // Chart sheets and dialog sheets are sheets too, without cells: only worksheets are read.
            guard relationship.type.hasSuffix("/worksheet") else { continue }
            guard !sheets.contains(where: { $0.name == name }) else { throw .layout("two sheets named \(name)") }
            let state = sheet.attribute("state") ?? "visible"
            guard ["visible", "hidden", "veryHidden"].contains(state) else {
                throw .layout("sheet \(name) has state \"\(state)\"")
            }
            sheets.append(SheetEntry(name: name, path: relationship.target, isHidden: state != "visible"))
        }
        self.sheets = sheets

        let sharedStringsPath = relationships.first(where: { $0.type.hasSuffix("/sharedStrings") })?.target
        sharedStrings = try sharedStringsPath.map(archive.data).map(Self.sharedStrings) ?? []
    }

    /// The sheet named `name` (exactly as on its tab), read whole; `nil` when there is none.
    public func sheet(named name: String) throws(UpstreamDataError) -> XLSXSheet? {
        guard let entry = sheets.first(where: { $0.name == name }) else { return nil }
        return try sheet(entry)
    }

    /// The sheet `entry`, read whole.
    public func sheet(_ entry: SheetEntry) throws(UpstreamDataError) -> XLSXSheet {
        try XLSXSheet(archive.data(entry.path), name: entry.name, sharedStrings: sharedStrings)
    }

    // MARK: - Dates

    /// The day an Excel date serial names in this workbook's date system (``ExcelDateSystem``).
    ///
    /// - Parameter serial: A cell's stored number: whole days only (`46113`; `46113.5`, a time of day, is rejected).
    /// - Throws: `UpstreamDataError.invalidDay` with the serial for anything else (a fraction, a
    ///   negative number, 0 in the 1900 system, the 1900-02-29 that never was).
    public func day(serial: String) throws(UpstreamDataError) -> Day {
        guard let number = Self.wholeNumber(serial), let day = dateSystem.day(serial: number) else { throw .invalidDay("Excel serial \(serial)") }
        return day
    }

    /// The value of a serial written as a whole number (`46113`, also `46113.0` or `4.6113E4`), at most
    /// seven digits (the last day Excel knows is 2958465, 9999-12-31); `nil` otherwise.
    static func wholeNumber(_ text: String) -> Int? {
        guard let decimal = XLSXCell.plainDecimal(text), !decimal.hasPrefix("-") else { return nil }
        let parts = decimal.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts[1].allSatisfy({ $0 == "0" }), parts[0].count <= 7 else { return nil }
        return Int(parts[0])
    }

    // MARK: - Parts

    /// One relationship of a part: its id, type and target path in the package.
    struct Relationship {
        var id: String
        var type: String
        var target: String
    }

    /// The relationships in a `.rels` part, targets made package paths (`base` is the source part's directory).
    static func relationships(_ bytes: [UInt8], base: String) throws(UpstreamDataError) -> [Relationship] {
        let root = try XMLReader.Element(parsing: bytes, root: "Relationships")
        var relationships: [Relationship] = []
        for element in root.children {
            guard element.localName == "Relationship", let id = element.attribute("Id"), let type = element.attribute("Type"),
                let target = element.attribute("Target")
            else {
                throw .layout("a relationship without Id, Type or Target")
            }
            // External targets (hyperlinks) are not parts.
            if element.attribute("TargetMode") == "External" { continue }
            relationships.append(Relationship(id: id, type: type, target: resolve(target, base: base)))
        }
        return relationships
    }

    /// A relationship's target as a package path: an absolute target (`/xl/sharedStrings.xml`) from the
    /// root, a relative one from `base`, with `..` segments resolved.
    static func resolve(_ target: String, base: String) -> String {
        let joined = target.hasPrefix("/") ? String(target.dropFirst()) : base + target
        var segments: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." {
                if !segments.isEmpty { segments.removeLast() }
            } else {
                segments.append(segment)
            }
        }
        return segments.joined(separator: "/")
    }

    /// The directory of a part, with its trailing slash (`xl/` for `xl/workbook.xml`), empty at the root.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// The shared string table: each `<si>`'s text, its `<t>` or the `<t>` of its `<r>` runs joined (`<rPh>` phonetic guides left out).
    static func sharedStrings(_ bytes: [UInt8]) throws(UpstreamDataError) -> [String] {
        try XMLReader.Element(parsing: bytes, root: "sst").children.map { item throws(UpstreamDataError) in
            guard item.localName == "si" else { throw .layout("<\(item.qualifiedName)> in the shared strings") }
            return try richText(item)
        }
    }

    /// The text of a `<si>` or `<is>` element: its `<t>`, or its runs' `<t>` joined.
    static func richText(_ item: XMLReader.Element) throws(UpstreamDataError) -> String {
        var text = ""
        for child in item.children {
            switch child.localName {
            case "t": text += child.text
            case "r": text += child.children.filter { $0.localName == "t" }.map(\.text).joined()
            case "rPh", "phoneticPr": continue
            default: throw .layout("<\(child.qualifiedName)> in a string item")
            }
        }
        return text
    }
}
