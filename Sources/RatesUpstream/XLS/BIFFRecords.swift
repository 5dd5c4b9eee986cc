/// One record of a BIFF8 stream: its type, where it starts and its body.
///
/// A record is a 2-byte type, a 2-byte length and that many bytes of body, little-endian. Data too long
/// for one record (the shared string table, a long string) goes on in the bodies of the CONTINUE
/// records right after it (``BIFFRecordStream/continuations()``).
struct BIFFRecord {
    /// The record types the workbook reader reads; every other record is skipped.
    enum Kind {
        static let bof: UInt16 = 0x0809
        static let eof: UInt16 = 0x000A
        static let continuation: UInt16 = 0x003C
        static let filePass: UInt16 = 0x002F
        static let codePage: UInt16 = 0x0042
        static let dateMode: UInt16 = 0x0022
        static let boundSheet: UInt16 = 0x0085
        static let sharedStrings: UInt16 = 0x00FC
        static let labelSST: UInt16 = 0x00FD
        static let label: UInt16 = 0x0204
        static let richLabel: UInt16 = 0x00D6
        static let number: UInt16 = 0x0203
        static let rk: UInt16 = 0x027E
        static let mulRK: UInt16 = 0x00BD
        static let boolErr: UInt16 = 0x0205
        static let formula: UInt16 = 0x0006
        static let string: UInt16 = 0x0207
        static let blank: UInt16 = 0x0201
        static let mulBlank: UInt16 = 0x00BE
    }

    /// The record type (``Kind``).
    var type: UInt16
    /// The offset of its header in the stream.
    var offset: Int
    var body: ArraySlice<UInt8>

    /// The record named in messages: `record 0x00FD at byte 1234`.
    var shown: String { "record 0x\(Self.hex(type)) at byte \(offset)" }

    static func hex(_ type: UInt16) -> String {
        let digits = String(type, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// The records of a BIFF8 stream one after the other, from a given offset: each must lie whole
/// within the stream.
struct BIFFRecordStream {
    private let bytes: [UInt8]
    /// The offset of the next record's header.
    private(set) var position: Int

    init(_ bytes: [UInt8], at offset: Int = 0) {
        self.bytes = bytes
        position = offset
    }

    /// The next record; `nil` at the end of the stream.
    ///
    /// - Throws: `UpstreamDataError.unreadableArchive` when the stream ends inside a record.
    mutating func next() throws(UpstreamDataError) -> BIFFRecord? {
        guard position < bytes.count else { return nil }
        guard position + 4 <= bytes.count else {
            throw .unreadableArchive("the workbook stream ends inside a record header at byte \(position)")
        }
        let type = UInt16(CompoundFile.uint16(bytes, position))
        let length = CompoundFile.uint16(bytes, position + 2)
        let start = position + 4
        guard start + length <= bytes.count else {
            throw .unreadableArchive(
                "record 0x\(BIFFRecord.hex(type)) at byte \(position) of the workbook stream is \(length) bytes long; "
                    + "the stream ends \(bytes.count - start) bytes after its header")
        }
        let record = BIFFRecord(type: type, offset: position, body: bytes[start..<start + length])
        position = start + length
        return record
    }

    /// The bodies of the CONTINUE records that follow, consumed.
    mutating func continuations() throws(UpstreamDataError) -> [ArraySlice<UInt8>] {
        var bodies: [ArraySlice<UInt8>] = []
        while position + 4 <= bytes.count, CompoundFile.uint16(bytes, position) == Int(BIFFRecord.Kind.continuation), let record = try next() {
            bodies.append(record.body)
        }
        return bodies
    }
}

/// Reads the fields of one record's body, and of the CONTINUE records' bodies after it, in order.
///
/// Fixed-size fields and the formatting runs and phonetic data of a rich string read on across a
/// record boundary as if the bodies were one. Character data does not: where a string's characters go
/// on in the next CONTINUE record, that record starts with one option byte of its own saying whether
/// the rest are one byte (the low bytes of UTF-16 code units, high byte 0: ISO 8859-1) or two (UTF-16LE)
/// each, which may differ from the string's header. Reading past the last body is an error.
struct BIFFRecordReader {
    private let segments: [ArraySlice<UInt8>]
    private var segment = 0
    private var position: Int
    /// The record, for messages.
    private let what: String

    init(_ record: BIFFRecord, continuations: [ArraySlice<UInt8>] = []) {
        segments = [record.body] + continuations
        position = record.body.startIndex
        what = record.shown
    }

    /// Whether every byte of every body has been read.
    var isAtEnd: Bool {
        position == segments[segment].endIndex && segments[(segment + 1)...].allSatisfy(\.isEmpty)
    }

    private func pastEnd(_ field: String) -> UpstreamDataError {
        .unreadableArchive("\(field) runs past the end of \(what) in the workbook stream")
    }

    // MARK: - Fixed-size fields

    mutating func uint8(_ field: String = "a field") throws(UpstreamDataError) -> UInt8 {
        while position == segments[segment].endIndex {
            guard segment + 1 < segments.count else { throw pastEnd(field) }
            segment += 1
            position = segments[segment].startIndex
        }
        defer { position += 1 }
        return segments[segment][position]
    }

    mutating func uint16(_ field: String = "a field") throws(UpstreamDataError) -> Int {
        Int(try uint8(field)) | Int(try uint8(field)) << 8
    }

    mutating func uint32(_ field: String = "a field") throws(UpstreamDataError) -> UInt32 {
        UInt32(try uint16(field)) | UInt32(try uint16(field)) << 16
    }

    /// An IEEE 754 double, little-endian.
    mutating func float64(_ field: String = "a number") throws(UpstreamDataError) -> Double {
        let low = UInt64(try uint32(field))
        let high = UInt64(try uint32(field))
        return Double(bitPattern: high << 32 | low)
    }

    mutating func skip(_ count: Int, _ field: String = "a field") throws(UpstreamDataError) {
        for _ in 0..<count { _ = try uint8(field) }
    }

    // MARK: - Strings

    /// A string as BIFF8 writes it: a character count of `countBytes` bytes (2 for XLUnicodeString, 1 for
    /// ShortXLUnicodeString), an option byte, then the characters. With `rich`, an
    /// XLUnicodeRichExtendedString (the shared string table's): the option byte may announce formatting
    /// runs and phonetic data, which are read past and left out; without it, such a flag is an error.
    mutating func string(countBytes: Int, rich: Bool = false, _ field: String = "a string") throws(UpstreamDataError) -> String {
        let count = countBytes == 1 ? Int(try uint8(field)) : try uint16(field)
        let options = try uint8(field)
        let known: UInt8 = rich ? 0x0D : 0x01
        guard options & ~known == 0 else {
            throw .unreadableArchive("\(field) in \(what) has option flags 0x\(String(options, radix: 16)), which a string there does not have")
        }
        let runs = options & 0x08 != 0 ? try uint16(field) : 0
        let phonetic = options & 0x04 != 0 ? Int(try uint32(field)) : 0
        var units: [UInt16] = []
        units.reserveCapacity(count)
        var wide = options & 0x01 != 0
        for _ in 0..<count {
            if position == segments[segment].endIndex {
                // The characters go on in the next CONTINUE record, after an option byte of its own.
                guard segment + 1 < segments.count, !segments[segment + 1].isEmpty else { throw pastEnd(field) }
                segment += 1
                position = segments[segment].startIndex
                let option = segments[segment][position]
                guard option & ~0x01 == 0 else {
                    throw .unreadableArchive("\(field) in \(what) goes on in a CONTINUE record whose option byte is 0x\(String(option, radix: 16))")
                }
                wide = option == 0x01
                position += 1
            }
            if wide {
                guard position + 2 <= segments[segment].endIndex else {
                    throw .unreadableArchive("\(field) in \(what) has a two-byte character split between records, or runs past its record")
                }
                units.append(UInt16(segments[segment][position]) | UInt16(segments[segment][position + 1]) << 8)
                position += 2
            } else {
                guard position < segments[segment].endIndex else { throw pastEnd(field) }
                units.append(UInt16(segments[segment][position]))
                position += 1
            }
        }
        try skip(4 * runs, field)
        try skip(phonetic, field)
        return String(decoding: units, as: UTF16.self)
    }
}
