import Foundation
@testable import RatesUpstream
import Testing

/// Workbooks for the XLSX adapters' tests: a recorded workbook with one of its parts edited, and
/// small workbooks written from their parts' text.
enum XLSXFixture {
    /// A zip archive of `members` (path, bytes), each stored uncompressed, in order; with `zip64`, the
    /// central directory gives the sizes in a Zip64 extra field, as streaming writers do.
    static func zip(_ members: [(path: String, bytes: [UInt8])], zip64: Bool = false) -> [UInt8] {
        var archive: [UInt8] = []
        var directory: [UInt8] = []
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
        for (path, bytes) in members {
            let name = Array(path.utf8)
            let crc = Int(crc32(bytes))
            let local = le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21) + le32(crc) + le32(bytes.count) + le32(bytes.count)
                + le16(name.count) + le16(0)
            let extra = zip64 ? le16(1) + le16(16) + le32(bytes.count) + le32(0) + le32(bytes.count) + le32(0) : []
            let size = zip64 ? le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) : le32(bytes.count) + le32(bytes.count)
            let central = le16(45) + le16(0) + le16(0) + le16(0) + le16(0x21) + le32(crc) + size + le16(name.count) + le16(extra.count)
            directory += [0x50, 0x4B, 0x01, 0x02] + le16(45) + central + le16(0) + le16(0) + le16(0) + le32(0) + le32(archive.count) + name + extra
            archive += [0x50, 0x4B, 0x03, 0x04] + local + name + bytes
        }
        let offset = archive.count
        return archive + directory + [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(members.count) + le16(members.count)
            + le32(directory.count) + le32(offset) + le16(0)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Expects every truncation of the recorded workbook `name` and an HTML error page to be rejected as an
    /// unreadable archive, and an empty body as empty (`stride`: the truncations' step, as ``ProviderFixture/truncations(of:stride:)``).
    static func expectBrokenWorkbooksRejected(
        _ name: String, _ provider: some RatesProvider, stride: Int = 101, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(name), stride: stride) {
            guard case .unreadableArchive = ProviderFixture.error(cut, provider) else {
                Issue.record("a truncation of \(cut.count) bytes was not rejected as an unreadable archive", sourceLocation: sourceLocation)
                return
            }
        }
        guard case .unreadableArchive = ProviderFixture.error(ProviderFixture.htmlErrorPage, provider) else {
            Issue.record("an HTML page was not rejected as an unreadable archive", sourceLocation: sourceLocation)
            return
        }
        #expect(ProviderFixture.error([], provider) == .empty, sourceLocation: sourceLocation)
    }

    /// The members of a workbook's bytes.
    static func members(of bytes: [UInt8]) throws -> [(path: String, bytes: [UInt8])] {
        let archive = try ZIPArchive(bytes, name: "workbook")
        return try archive.members.map { ($0.path, try archive.data($0.path)) }
    }

    /// The recorded workbook `name` with the first occurrence of `old` in its part `member` replaced by
    /// `new`, written again (stored); the test fails when `old` does not occur.
    static func edited(_ name: String, member: String, replacing old: String, with new: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> [UInt8]
    {
        try edited(name, [(member, old, new)], sourceLocation: sourceLocation)
    }

    /// The recorded workbook `name` with each edit made in turn (the first occurrence of `old` in the part
    /// `member` replaced by `new`), written again (stored); the test fails when an `old` does not occur.
    static func edited(_ name: String, _ edits: [(member: String, old: String, new: String)], sourceLocation: SourceLocation = #_sourceLocation)
        throws -> [UInt8]
    {
        var members = try members(of: ProviderFixture.bytes(name))
        for (member, old, new) in edits {
            let index = try #require(members.firstIndex { $0.path == member }, "\(member) is not in \(name)", sourceLocation: sourceLocation)
            members[index].bytes = try #require(
                ProviderFixture.replacing(old, with: new, in: members[index].bytes), "\(old) does not occur in \(member) of \(name)",
                sourceLocation: sourceLocation)
        }
        return zip(members)
    }

    /// The recorded workbook `name` with the rows of its sheet `member` from the first `<row r="firstRow"`
    /// to the end of its `<sheetData>` taken out, written again (stored): the header alone, as a source
    /// answers a span without rates.
    static func withoutRows(_ name: String, sheet member: String, from firstRow: Int, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> [UInt8]
    {
        var members = try members(of: ProviderFixture.bytes(name))
        let index = try #require(members.firstIndex { $0.path == member }, "\(member) is not in \(name)", sourceLocation: sourceLocation)
        let text = String(decoding: members[index].bytes, as: UTF8.self)
        let first = try #require(text.range(of: "<row r=\"\(firstRow)\""), "no row \(firstRow) in \(member)", sourceLocation: sourceLocation)
        let end = try #require(text.range(of: "</sheetData>"), sourceLocation: sourceLocation)
        members[index].bytes = Array((String(text[..<first.lowerBound]) + String(text[end.lowerBound...])).utf8)
        return zip(members)
    }

    /// A workbook of one sheet named `Sheet1` with the cells `sheetData` (the `<row>` elements), the
    /// shared strings `strings`, in the 1904 date system when `date1904`.
    static func workbook(sheetData: String, strings: [String] = [], date1904: Bool = false, zip64: Bool = false) -> [UInt8] {
        let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
        let relationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        let package = "http://schemas.openxmlformats.org/package/2006/relationships"
        let parts: [(String, String)] = [
            ("[Content_Types].xml", "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>"),
            ("_rels/.rels", "<Relationships xmlns=\"\(package)\"><Relationship Id=\"rId1\" Type=\"\(relationships)/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"),
            ("xl/workbook.xml",
             "<workbook xmlns=\"\(main)\" xmlns:r=\"\(relationships)\"><workbookPr\(date1904 ? " date1904=\"1\"" : "")/><sheets><sheet name=\"Sheet1\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"),
            ("xl/_rels/workbook.xml.rels",
             "<Relationships xmlns=\"\(package)\"><Relationship Id=\"rId1\" Type=\"\(relationships)/worksheet\" Target=\"worksheets/sheet1.xml\"/><Relationship Id=\"rId2\" Type=\"\(relationships)/sharedStrings\" Target=\"/xl/sharedStrings.xml\"/></Relationships>"),
            ("xl/worksheets/sheet1.xml", "<worksheet xmlns=\"\(main)\"><sheetData>\(sheetData)</sheetData></worksheet>"),
            ("xl/sharedStrings.xml", "<sst xmlns=\"\(main)\">" + strings.map { "<si>\($0)</si>" }.joined() + "</sst>"),
        ]
        return zip(parts.map { ($0.0, Array($0.1.utf8)) }, zip64: zip64)
    }
}
