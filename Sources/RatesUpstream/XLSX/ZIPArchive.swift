import Foundation
import ZIPFoundation

/// The members of a zip archive held in memory, read strictly: what an XLSX workbook and the ECB's
/// history file (``ECBHistoryFile``) are packed in.
///
/// Only the central directory is trusted for the list of members; each member's local header must
/// be where the directory says and name the same path, and its data must inflate to the stated
/// size with the stated CRC-32. Members whose sizes or offset are in a Zip64 extra field (as streaming
/// writers store them) are read. Not read (rejected): encrypted members, archives of more than 65,535
/// members or a Zip64 end record, archives split over several disks, compression other than none or
/// deflate. Workbooks use none of them.
///
/// ZIPFoundation's `Archive` is not used on the bytes: its in-memory archives trap on some damaged
/// directories (0.9.20, `Archive.MemoryFile.readData`), which a fetched body must never do. Its raw
/// inflater is (``inflate(_:expectedSize:member:named:)``), fed exactly the member's bytes.
struct ZIPArchive {
    /// Largest member inflated, in bytes (the biggest workbook sheet recorded is 3.6 MB, the ECB's
    /// 2026 history CSV about 2 MB).
    static let maxMemberBytes = 64 << 20

    /// One member, as the central directory lists it.
    struct Member: Equatable {
        var path: String
        var method: Int
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    /// The members by path, in directory order.
    let members: [Member]
    private let bytes: [UInt8]
    /// What the archive is called in messages (`workbook`).
    private let name: String

    /// Reads the archive's central directory.
    ///
    /// - Throws: `UpstreamDataError.empty` for no bytes; `.unreadableArchive` for anything that is
    ///   not a whole zip archive (a truncated or damaged one, an HTML page).
    init(_ bytes: [UInt8], name: String) throws(UpstreamDataError) {
        guard !bytes.isEmpty else { throw .empty }
        self.bytes = bytes
        self.name = name
        guard bytes.count >= 22, bytes[0..<4].elementsEqual([0x50, 0x4B, 0x03, 0x04]) else {
            throw .unreadableArchive("the \(name) is not a zip archive: it does not start with a local file header")
        }
        // The end of central directory record: 22 bytes and a comment of at most 65,535, at the very end.
        let end = stride(from: bytes.count - 22, through: max(0, bytes.count - 22 - 0xFFFF), by: -1).first { offset in
            bytes[offset] == 0x50 && bytes[offset + 1] == 0x4B && bytes[offset + 2] == 0x05 && bytes[offset + 3] == 0x06
                && offset + 22 + Self.uint16(bytes, offset + 20) == bytes.count
        }
        guard let end else { throw .unreadableArchive("the \(name) is cut short or damaged: no end of central directory record") }
        let disk = Self.uint16(bytes, end + 4)
        let directoryDisk = Self.uint16(bytes, end + 6)
        let entriesHere = Self.uint16(bytes, end + 8)
        let entries = Self.uint16(bytes, end + 10)
        let directorySize = Self.uint32(bytes, end + 12)
        let directoryOffset = Self.uint32(bytes, end + 16)
        guard disk == 0, directoryDisk == 0, entriesHere == entries else {
            throw .unreadableArchive("the \(name) is split over several disks")
        }
        guard entries != 0xFFFF, directorySize != 0xFFFF_FFFF, directoryOffset != 0xFFFF_FFFF else {
            throw .unreadableArchive("the \(name) is a Zip64 archive, which is not read")
        }
        guard directoryOffset + directorySize == end else {
            throw .unreadableArchive("the \(name)'s central directory does not end where its end record starts")
        }
        var members: [Member] = []
        var seen = Set<String>()
        var position = directoryOffset
        for _ in 0..<entries {
            guard position + 46 <= end, bytes[position..<position + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]) else {
                throw .unreadableArchive("the \(name)'s central directory is damaged at byte \(position)")
            }
            let flags = Self.uint16(bytes, position + 8)
            let nameLength = Self.uint16(bytes, position + 28)
            let extraLength = Self.uint16(bytes, position + 30)
            let commentLength = Self.uint16(bytes, position + 32)
            let nameStart = position + 46
            let next = nameStart + nameLength + extraLength + commentLength
            guard next <= end, let path = String(validating: bytes[nameStart..<nameStart + nameLength], as: UTF8.self) else {
                throw .unreadableArchive("the \(name)'s central directory is damaged at byte \(position)")
            }
            guard flags & 1 == 0 else { throw .unreadableArchive("\(path) in the \(name) is encrypted") }
            var member = Member(
                path: path, method: Self.uint16(bytes, position + 10), crc32: UInt32(Self.uint32(bytes, position + 16)),
                compressedSize: Self.uint32(bytes, position + 20), uncompressedSize: Self.uint32(bytes, position + 24),
                localHeaderOffset: Self.uint32(bytes, position + 42))
            // A field at its 32-bit maximum is in the Zip64 extended information extra field (ID 1), 8 bytes
            // each, in the order uncompressed size, compressed size, local header offset: streaming writers
            // put them there even for small members.
            let needed = [member.uncompressedSize, member.compressedSize, member.localHeaderOffset].filter { $0 == 0xFFFF_FFFF }.count
            if needed > 0 {
                var extra = nameStart + nameLength
                let extraEnd = extra + extraLength
                var values: [Int]?
                while extra + 4 <= extraEnd {
                    let id = Self.uint16(bytes, extra)
                    let size = Self.uint16(bytes, extra + 2)
                    guard extra + 4 + size <= extraEnd else { break }
                    if id == 1, size >= 8 * needed {
                        values = (0..<needed).map { Self.uint64(bytes, extra + 4 + 8 * $0) }
                    }
                    extra += 4 + size
                }
                guard var values, values.allSatisfy({ $0 >= 0 && $0 <= Int(UInt32.max) * 16 }) else {
                    throw .unreadableArchive("\(path) in the \(name) has 32-bit fields at their maximum and no Zip64 extra field with their values")
                }
                if member.uncompressedSize == 0xFFFF_FFFF { member.uncompressedSize = values.removeFirst() }
                if member.compressedSize == 0xFFFF_FFFF { member.compressedSize = values.removeFirst() }
                if member.localHeaderOffset == 0xFFFF_FFFF { member.localHeaderOffset = values.removeFirst() }
            }
            guard seen.insert(path).inserted else { throw .unreadableArchive("the \(name) holds \(path) twice") }
            members.append(member)
            position = next
        }
        guard position == end else { throw .unreadableArchive("the \(name)'s central directory holds more than its \(entries) members") }
        self.members = members
    }

    /// Whether the archive holds a member at `path`.
    func contains(_ path: String) -> Bool {
        members.contains { $0.path == path }
    }

    /// The uncompressed bytes of the member at `path`, size and CRC-32 checked.
    ///
    /// - Throws: `UpstreamDataError.unreadableArchive` when there is no such member or it is damaged.
    func data(_ path: String) throws(UpstreamDataError) -> [UInt8] {
        guard let member = members.first(where: { $0.path == path }) else { throw .unreadableArchive("the \(name) has no \(path)") }
        guard member.uncompressedSize <= Self.maxMemberBytes else {
            throw .unreadableArchive("\(path) in the \(name) is larger than \(Self.maxMemberBytes) bytes uncompressed")
        }
        let header = member.localHeaderOffset
        guard header + 30 <= bytes.count, bytes[header..<header + 4].elementsEqual([0x50, 0x4B, 0x03, 0x04]) else {
            throw .unreadableArchive("\(path) in the \(name) has no local header where the directory says")
        }
        let nameLength = Self.uint16(bytes, header + 26)
        let start = header + 30 + nameLength + Self.uint16(bytes, header + 28)
        guard header + 30 + nameLength <= bytes.count, bytes[(header + 30)..<(header + 30 + nameLength)].elementsEqual(path.utf8),
            start + member.compressedSize <= bytes.count
        else {
            throw .unreadableArchive("\(path) in the \(name) is cut short or its local header names another member")
        }
        let stored = Data(bytes[start..<start + member.compressedSize])
        let data: Data
        switch member.method {
        case 0: data = stored
        case 8: data = try Self.inflate(stored, expectedSize: member.uncompressedSize, member: path, named: "the \(name)")
        default: throw .unreadableArchive("\(path) in the \(name) uses compression method \(member.method); expected deflate or none")
        }
        guard data.count == member.uncompressedSize, data.crc32(checksum: 0) == member.crc32 else {
            throw .unreadableArchive("\(path) in the \(name) is damaged: its size or CRC-32 does not match")
        }
        return [UInt8](data)
    }

    /// Inflates a raw deflate stream, feeding the inflater exactly `compressed` and nothing more.
    ///
    /// `Archive.extract` is not used: in ZIPFoundation 0.9.20 on Linux it loops forever when a
    /// damaged stream does not end within the member's bytes, and it does not compare the CRC-32
    /// when extracting to a closure. Here the provider throws instead of running dry.
    static func inflate(_ compressed: Data, expectedSize: Int, member: String, named name: String) throws(UpstreamDataError) -> Data {
        struct StreamDoesNotEnd: Error {}
        struct TooLarge: Error {}
        var data = Data()
        // `expectedSize` is a ZIP member's stated size, or a PDF stream's bound: room for a deflate
        // stream's usual ratio at most, so that a bound is not taken whole for every small stream.
        data.reserveCapacity(min(expectedSize, compressed.count * 16))
        do {
            _ = try Data.decompress(
                size: Int64(compressed.count), bufferSize: 64 << 10, skipCRC32: true,
                provider: { position, size in
                    let start = Int(position)
                    guard start >= 0, start < compressed.count else { throw StreamDoesNotEnd() }
                    let base = compressed.startIndex
                    var chunk = Data(compressed[(base + start)..<(base + min(start + size, compressed.count))])
                    // ZIPFoundation tells zlib every chunk is `size` long: pad the last one, so a
                    // damaged stream reads our zeros rather than memory past the chunk.
                    if chunk.count < size { chunk.append(Data(count: size - chunk.count)) }
                    return chunk
                },
                consumer: { output in
                    guard data.count + output.count <= expectedSize else { throw TooLarge() }
                    data.append(output)
                })
        } catch is StreamDoesNotEnd {
            throw .unreadableArchive("\(member) in \(name) is damaged: its deflate stream does not end within the member")
        } catch is TooLarge {
            throw .unreadableArchive("\(member) in \(name) is damaged: it inflates to more than its stated \(expectedSize) bytes")
        } catch {
            throw .unreadableArchive("cannot inflate \(member) in \(name) (\(error))")
        }
        return data
    }

    private static func uint16(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> Int {
        uint16(bytes, offset) | uint16(bytes, offset + 2) << 16
    }

    /// A 64-bit little-endian field; one past `Int.max` reads as -1 (rejected by the callers' range checks).
    private static func uint64(_ bytes: [UInt8], _ offset: Int) -> Int {
        let high = uint32(bytes, offset + 4)
        return high >= 1 << 31 ? -1 : uint32(bytes, offset) | high << 32
    }
}
