import Foundation
@testable import RatesUpstream
import Testing

/// Legacy Excel workbooks for the XLS reader's and adapters' tests: compound files written from their
/// streams, BIFF8 records written from their fields, and recorded workbooks with one cell record changed.
enum XLSFixture {
    // MARK: - Little-endian fields

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: UInt32) -> [UInt8] { le16(Int(value & 0xFFFF)) + le16(Int(value >> 16)) }
    static func le64(_ value: Double) -> [UInt8] {
        let bits = value.bitPattern
        return le32(UInt32(truncatingIfNeeded: bits)) + le32(UInt32(truncatingIfNeeded: bits >> 32))
    }

    // MARK: - Compound files

    /// A version 3 compound file (512-byte sectors) whose root storage holds `streams`: those of 4096
    /// bytes or more in sectors of their own, the others in the mini stream; every chain ends where its
    /// stream does. The directory is a chain of right siblings under the root.
    static func compoundFile(_ streams: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        let endOfChain = CompoundFile.endOfChain
        var sectors: [[UInt8]] = []
        var fat: [UInt32] = []
        func allocate(_ data: [UInt8]) -> UInt32 {
            guard !data.isEmpty else { return endOfChain }
            let start = sectors.count
            let count = (data.count + 511) / 512
            for index in 0..<count {
                let chunk = Array(data[(index * 512)..<min(data.count, index * 512 + 512)])
                sectors.append(chunk + [UInt8](repeating: 0, count: 512 - chunk.count))
                fat.append(index == count - 1 ? endOfChain : UInt32(start + index + 1))
            }
            return UInt32(start)
        }
        var miniStream: [UInt8] = []
        var miniFAT: [UInt32] = []
        var starts: [UInt32] = []
        for (_, bytes) in streams {
            if bytes.count >= CompoundFile.miniStreamCutoff {
                starts.append(allocate(bytes))
            } else if bytes.isEmpty {
                starts.append(endOfChain)
            } else {
                let start = miniFAT.count
                let count = (bytes.count + 63) / 64
                miniStream += bytes + [UInt8](repeating: 0, count: count * 64 - bytes.count)
                for index in 0..<count { miniFAT.append(index == count - 1 ? endOfChain : UInt32(start + index + 1)) }
                starts.append(UInt32(start))
            }
        }
        let rootStart = allocate(miniStream)
        let miniFATBytes = miniFAT.flatMap(le32)
        let miniFATStart = allocate(miniFATBytes.isEmpty ? [] : miniFATBytes + [UInt8](repeating: 0xFF, count: (512 - miniFATBytes.count % 512) % 512))
        func entry(_ name: String, type: UInt8, right: UInt32, child: UInt32, start: UInt32, size: Int) -> [UInt8] {
            let units = Array(name.utf16)
            var bytes: [UInt8] = units.flatMap { Self.le16(Int($0)) } + [0, 0]
            bytes += [UInt8](repeating: 0, count: 64 - bytes.count)
            bytes += le16(name.isEmpty ? 0 : 2 * units.count + 2) + [type, 1]
            bytes += le32(0xFFFF_FFFF) + le32(right) + le32(child)
            bytes += [UInt8](repeating: 0, count: 16 + 4 + 16)
            return bytes + le32(start) + le32(UInt32(size)) + le32(0)
        }
        var directory = entry("Root Entry", type: 5, right: 0xFFFF_FFFF, child: streams.isEmpty ? 0xFFFF_FFFF : 1, start: rootStart, size: miniStream.count)
        for (index, stream) in streams.enumerated() {
            let right = index + 1 < streams.count ? UInt32(index + 2) : 0xFFFF_FFFF
            directory += entry(stream.name, type: 2, right: right, child: 0xFFFF_FFFF, start: starts[index], size: stream.bytes.count)
        }
        while directory.count % 512 != 0 { directory += entry("", type: 0, right: 0xFFFF_FFFF, child: 0xFFFF_FFFF, start: 0, size: 0) }
        let directoryStart = allocate(directory)
        var fatSectorCount = 1
        while sectors.count + fatSectorCount > fatSectorCount * 128 { fatSectorCount += 1 }
        let fatStart = sectors.count
        fat += [UInt32](repeating: CompoundFile.fatSector, count: fatSectorCount)
        fat += [UInt32](repeating: CompoundFile.freeSector, count: fatSectorCount * 128 - fat.count)
        for index in 0..<fatSectorCount { sectors.append(fat[(index * 128)..<(index * 128 + 128)].flatMap(le32)) }

        var header = CompoundFile.signature + [UInt8](repeating: 0, count: 16)
        header += le16(0x3E) + le16(3) + le16(0xFFFE) + le16(9) + le16(6) + [UInt8](repeating: 0, count: 6)
        header += le32(0) + le32(UInt32(fatSectorCount)) + le32(directoryStart) + le32(0) + le32(4096)
        header += le32(miniFATStart) + le32(UInt32((miniFATBytes.count + 511) / 512)) + le32(endOfChain) + le32(0)
        header += (0..<109).flatMap { le32($0 < fatSectorCount ? UInt32(fatStart + $0) : CompoundFile.freeSector) }
        return header + sectors.joined()
    }

    // MARK: - BIFF8 records

    /// A record: type, length, body.
    static func record(_ type: UInt16, _ body: [UInt8]) -> [UInt8] {
        le16(Int(type)) + le16(body.count) + body
    }

    /// A BOF record of BIFF8 for a substream of `type` (0x0005 globals, 0x0010 worksheet).
    static func bof(_ type: Int, version: Int = 0x0600) -> [UInt8] {
        record(0x0809, le16(version) + le16(type) + le16(0x0DBB) + le16(0x07CC) + le32(0) + le32(6))
    }

    static let eof = record(0x000A, [])

    /// The characters of a string as BIFF8 writes them after its count: an option byte, then one byte
    /// per character (`wide` false) or two.
    static func characters(_ text: String, wide: Bool) -> [UInt8] {
        [wide ? 1 : 0] + (wide ? text.utf16.flatMap { le16(Int($0)) } : text.unicodeScalars.map { UInt8($0.value) })
    }

    /// An XLUnicodeString: a 2-byte count, the option byte and the characters.
    static func string(_ text: String, wide: Bool = false) -> [UInt8] {
        le16(text.utf16.count) + characters(text, wide: wide)
    }

    static func number(_ reference: String, _ value: Double) -> [UInt8] { record(0x0203, cell(reference) + le64(value)) }
    static func rk(_ reference: String, _ value: UInt32) -> [UInt8] { record(0x027E, cell(reference) + le32(value)) }
    static func labelSST(_ reference: String, _ index: Int) -> [UInt8] { record(0x00FD, cell(reference) + le32(UInt32(index))) }
    static func label(_ reference: String, _ text: String, wide: Bool = false) -> [UInt8] { record(0x0204, cell(reference) + string(text, wide: wide)) }
    static func boolErr(_ reference: String, _ value: UInt8, isError: Bool) -> [UInt8] { record(0x0205, cell(reference) + [value, isError ? 1 : 0]) }
    static func blank(_ reference: String) -> [UInt8] { record(0x0201, cell(reference)) }

    /// A MULRK record: the RK values of consecutive cells from `reference` on.
    static func mulRK(_ reference: String, _ values: [UInt32]) -> [UInt8] {
        let (column, row) = XLSXCell.position(reference)!
        return record(0x00BD, le16(row - 1) + le16(column) + values.flatMap { le16(15) + le32($0) } + le16(column + values.count - 1))
    }

    /// A FORMULA record with the cached value `value` (8 bytes) and the formula `=1` after it.
    static func formula(_ reference: String, value: [UInt8]) -> [UInt8] {
        record(0x0006, cell(reference) + value + le16(0) + le32(0) + le16(2) + [0x1E] + le16(1))
    }

    /// A formula's cached number.
    static func formulaNumber(_ value: Double) -> [UInt8] { le64(value) }
    /// A formula's cached string (in the STRING record after it: 0), boolean (1), error (2) or empty string (3).
    static func formulaSpecial(_ type: UInt8, _ value: UInt8 = 0) -> [UInt8] { [type, 0, value, 0, 0, 0, 0xFF, 0xFF] }

    /// The row, column and format of a cell record (format 15, the default).
    static func cell(_ reference: String) -> [UInt8] {
        let (column, row) = XLSXCell.position(reference)!
        return le16(row - 1) + le16(column) + le16(15)
    }

    /// An SST record of `count` strings whose bytes after the counts are `parts[0]`, each further part
    /// the body of a CONTINUE record after it.
    static func sharedStrings(count: Int, _ parts: [[UInt8]]) -> [UInt8] {
        record(0x00FC, le32(UInt32(count)) + le32(UInt32(count)) + parts[0]) + parts.dropFirst().flatMap { record(0x003C, $0) }
    }

    /// A Workbook stream: the globals (BOF, CODEPAGE 1200, DATEMODE, one BOUNDSHEET per sheet, the
    /// `sharedStrings` records as given, EOF), then each sheet's BOF, records and EOF.
    static func workbookStream(sheets: [(name: String, records: [[UInt8]])], sharedStrings: [UInt8] = [], date1904: Bool = false) -> [UInt8] {
        func globals(_ offsets: [Int]) -> [UInt8] {
            var bytes = bof(0x0005) + record(0x0042, le16(1200)) + record(0x0022, le16(date1904 ? 1 : 0))
            for (index, sheet) in sheets.enumerated() {
                bytes += record(0x0085, le32(UInt32(offsets[index])) + [0, 0, UInt8(sheet.name.utf16.count)] + characters(sheet.name, wide: false))
            }
            return bytes + sharedStrings + eof
        }
        let bodies = sheets.map { bof(0x0010) + $0.records.joined() + eof }
        var offsets: [Int] = []
        var offset = globals(sheets.map { _ in 0 }).count
        for body in bodies {
            offsets.append(offset)
            offset += body.count
        }
        return globals(offsets) + bodies.joined()
    }

    /// A one-sheet workbook file (`Sheet1`) of `records`.
    static func workbook(_ records: [[UInt8]], sharedStrings: [UInt8] = [], date1904: Bool = false) -> [UInt8] {
        compoundFile([("Workbook", workbookStream(sheets: [("Sheet1", records)], sharedStrings: sharedStrings, date1904: date1904))])
    }

    // MARK: - Recorded workbooks, edited

    /// What to write into a cell record of a recorded workbook, keeping its size.
    enum CellEdit {
        /// A NUMBER record's double.
        case number(Double)
        /// An RK record's or a MULRK cell's RK value.
        case rk(UInt32)
        /// A LABELSST record's shared string index.
        case sharedString(Int)
    }

    /// The recorded workbook `name` with the cell record at `reference` of its sheet number `sheet`
    /// (0-based, in stream order) changed by `edit`, written again as a compound file of its streams;
    /// the test fails when there is no such record of the kind the edit is for.
    static func edited(_ name: String, sheet: Int, _ reference: String, _ edit: CellEdit, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let file = try CompoundFile(try ProviderFixture.bytes(name))
        var stream = try #require(file.stream(named: "Workbook"), sourceLocation: sourceLocation)
        let (column, row) = try #require(XLSXCell.position(reference), sourceLocation: sourceLocation)
        var records = BIFFRecordStream(stream)
        var sheetIndex = -2
        var patch: (offset: Int, bytes: [UInt8])?
        while patch == nil, let record = try records.next() {
            if record.type == 0x0809 { sheetIndex += 1 }
            guard sheetIndex == sheet, record.body.count >= 4 else { continue }
            let body = record.body.startIndex
            let recordRow = CompoundFile.uint16(stream, body) + 1
            let first = CompoundFile.uint16(stream, body + 2)
            guard recordRow == row else { continue }
            switch (record.type, edit) {
            case (0x0203, .number(let value)) where first == column: patch = (body + 6, le64(value))
            case (0x027E, .rk(let value)) where first == column: patch = (body + 6, le32(value))
            case (0x00FD, .sharedString(let index)) where first == column: patch = (body + 6, le32(UInt32(index)))
            case (0x00BD, .rk(let value)) where column >= first && column < first + (record.body.count - 6) / 6:
                patch = (body + 4 + 6 * (column - first) + 2, le32(value))
            default: continue
            }
        }
        let (offset, bytes) = try #require(patch, "no such cell record at \(reference) of sheet \(sheet) in \(name)", sourceLocation: sourceLocation)
        stream.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        return compoundFile(file.streamNames.map { ($0, $0 == "Workbook" ? stream : file.stream(named: $0)!) })
    }

    /// The `Workbook` stream of the recorded workbook `name`.
    static func workbookStream(_ name: String) throws -> [UInt8] {
        try #require(try CompoundFile(ProviderFixture.bytes(name)).stream(named: "Workbook"))
    }
}
