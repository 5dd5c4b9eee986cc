import Foundation
import RatesCore

/// A history file of ECB reference rates on disk, as the ECB publishes them:
/// `eurofxref-hist.xml`, `eurofxref-hist.csv`, or `eurofxref-hist.zip` holding the CSV.
public enum ECBHistoryFile {
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
            let bytes = try [UInt8](Data(contentsOf: url))
            // An empty file is a damaged zip, not an empty payload.
            guard !bytes.isEmpty else { throw UpstreamDataError.unreadableArchive("\(name) is empty") }
            let archive = try ZIPArchive(bytes, name: name)
            let members = archive.members.filter { $0.path.lowercased().hasSuffix(".csv") }
            guard members.count == 1, let member = members.first else {
                throw UpstreamDataError.unreadableArchive(
                    "\(name) holds \(members.count) .csv members (\(members.map(\.path).joined(separator: ", "))); expected exactly one")
            }
            return try ECBCSV.parse(archive.data(member.path))
        default:
            throw UpstreamDataError.unreadableArchive("\(name): unknown file type; expected .xml, .csv or .zip")
        }
    }
}
