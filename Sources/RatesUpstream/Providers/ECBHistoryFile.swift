import Foundation
import RatesCore
import ZIPFoundation

/// A history file of ECB reference rates on disk, as the ECB publishes them:
/// `eurofxref-hist.xml`, `eurofxref-hist.csv`, or `eurofxref-hist.zip` holding the CSV.
public enum ECBHistoryFile {
    /// Largest CSV accepted from a zip, uncompressed (the 2026 history is about 2 MB).
    public static let maxUncompressedBytes = 64 << 20

    /// Reads an ECB history file, choosing the parser by extension (case-insensitive).
    ///
    /// `.xml` is parsed with ``ECBXML``, `.csv` with ``ECBCSV``, and `.zip` must hold exactly
    /// one `.csv` member (other members are ignored), stored or deflated, which is parsed with
    /// ``ECBCSV`` after its size and CRC-32 are checked. Day ranges are not checked: run
    /// ``ProviderValidation/validate(_:notAfter:notBefore:)`` on the result.
    ///
    /// - Throws: The file system's error when the file cannot be read; `UpstreamDataError`
    ///   when its content is rejected: `.unreadableArchive` for an unknown extension or a
    ///   damaged zip, the parsers' errors for bad content.
    public static func read(contentsOf url: URL) throws -> RatesBatch {
        let name = url.lastPathComponent
        switch url.pathExtension.lowercased() {
        case "xml":
            return try ECBXML.parse(Data(contentsOf: url))
        case "csv":
            return try ECBCSV.parse(Data(contentsOf: url))
        case "zip":
            let bytes = try Data(contentsOf: url)
            // ZIPFoundation reads the directory from the file: its in-memory archives trap on
            // some damaged directories (0.9.20, `Archive.MemoryFile.readData`).
            let archive: Archive
            do {
                archive = try Archive(url: url, accessMode: .read)
            } catch {
                throw UpstreamDataError.unreadableArchive("\(name) is not a readable zip archive (\(error))")
            }
            return try ECBCSV.parse(csvData(in: archive, bytes: bytes, named: name))
        default:
            throw UpstreamDataError.unreadableArchive("\(name): unknown file type; expected .xml, .csv or .zip")
        }
    }

    // MARK: - Zip

    /// The uncompressed bytes of the archive's only `.csv` member, size and CRC-32 checked.
    static func csvData(in archive: Archive, bytes: Data, named name: String) throws(UpstreamDataError) -> Data {
        let members = archive.filter { $0.type == .file && $0.path.lowercased().hasSuffix(".csv") }
        guard members.count == 1, let member = members.first else {
            throw .unreadableArchive(
                "\(name) holds \(members.count) .csv members (\(members.map(\.path).joined(separator: ", "))); expected exactly one")
        }
        guard member.uncompressedSize <= UInt64(maxUncompressedBytes) else {
            throw .unreadableArchive("\(member.path) in \(name) is larger than \(maxUncompressedBytes) bytes uncompressed")
        }
        let (method, compressed) = try storedBytes(of: member, in: bytes, named: name)
        let data: Data
        switch method {
        case 0:
            data = compressed
        case 8:
            data = try inflate(compressed, expectedSize: Int(member.uncompressedSize), member: member.path, named: name)
        default:
            throw .unreadableArchive("\(member.path) in \(name) uses compression method \(method); expected deflate or none")
        }
        guard data.count == Int(member.uncompressedSize), data.crc32(checksum: 0) == member.checksum else {
            throw .unreadableArchive("\(member.path) in \(name) is damaged: its size or CRC-32 does not match")
        }
        return data
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

    /// The compression method and stored bytes of `member`, found from its local file header.
    ///
    /// ZIPFoundation does not make a member's data offset public, so the local header is looked
    /// up by signature and name; the size is the central directory's.
    static func storedBytes(of member: Entry, in archive: Data, named name: String) throws(UpstreamDataError) -> (method: Int, bytes: Data) {
        let bytes = [UInt8](archive)
        let path = Array(member.path.utf8)
        let signature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]  // "PK\3\4"
        func uint16(at offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        var offset = 0
        while offset + 30 <= bytes.count {
            defer { offset += 1 }
            guard bytes[offset..<(offset + 4)].elementsEqual(signature), uint16(at: offset + 26) == path.count else { continue }
            let nameStart = offset + 30
            guard nameStart + path.count <= bytes.count, bytes[nameStart..<(nameStart + path.count)].elementsEqual(path) else { continue }
            let dataStart = nameStart + path.count + uint16(at: offset + 28)
            guard member.compressedSize <= UInt64(bytes.count), dataStart + Int(member.compressedSize) <= bytes.count else {
                throw .unreadableArchive("\(member.path) in \(name) is cut short")
            }
            return (uint16(at: offset + 8), Data(bytes[dataStart..<(dataStart + Int(member.compressedSize))]))
        }
        throw .unreadableArchive("no local header for \(member.path) in \(name)")
    }
}
