import Foundation
import GRDB

/// One attempt to change the stored rates: an upstream fetch, the bundled seed, a file import, or maintenance.
///
/// Every ingest writes one, in the same transaction as the rates it changed; failed and
/// rejected attempts are recorded too, with the reason, and change nothing else.
public struct FetchRun: Codable, Hashable, Sendable, FetchableRecord, MutablePersistableRecord {
    /// Where the data came from.
    public enum Source: String, Codable, Sendable {
        /// The ECB history bundled with the binary, loaded into an empty database.
        case seed
        /// A file loaded by `rates-relay import`.
        case `import`
        /// The upstream provider over HTTP.
        case upstream
        /// An operator's maintenance command (`rates-relay prune`).
        case maintenance
    }

    /// What the attempt achieved.
    public enum Outcome: String, Codable, Sendable, CaseIterable {
        /// New or changed rates were stored.
        case updated
        /// The payload was valid and identical to what was stored.
        case unchanged
        /// The upstream answered 304: nothing new since the last fetch of that file.
        case notModified
        /// The upstream could not be reached or answered an error status.
        case failed
        /// The payload arrived but failed validation; nothing was stored.
        case rejected

        /// Whether the attempt reached the provider and got good (or unchanged) data.
        public var isSuccess: Bool { self == .updated || self == .unchanged || self == .notModified }

        /// The outcomes of a run that succeeded (``isSuccess``), or of any run, as stored.
        static func stored(successful: Bool) -> [String] { allCases.filter { !successful || $0.isSuccess }.map(\.rawValue) }
    }

    public static let databaseTableName = "fetchRun"

    public var id: Int64?
    public var startedAt: Date
    public var finishedAt: Date
    public var source: Source
    /// The provider fetched or imported (`ECB`, `NBP`, …).
    public var provider: String
    /// The file or URL path fetched or imported (`eurofxref-daily.xml`).
    public var file: String
    /// The upstream's HTTP status, when an HTTP answer arrived.
    public var httpStatus: Int?
    public var outcome: Outcome
    /// Why a run failed or was rejected; `nil` on success.
    public var detail: String?
    /// How many (day, currency) values the run added, changed or removed.
    public var rowsChanged: Int
    /// The upstream's `ETag`, kept for the next conditional GET of the same file.
    public var etag: String?
    /// The upstream's `Last-Modified`, kept for the next conditional GET of the same file.
    public var lastModified: String?
    /// The newest day the payload held.
    public var latestDay: String?

    public init(
        startedAt: Date, finishedAt: Date = Date(), source: Source, provider: String, file: String, httpStatus: Int? = nil,
        outcome: Outcome, detail: String? = nil, rowsChanged: Int = 0, etag: String? = nil, lastModified: String? = nil,
        latestDay: String? = nil
    ) {
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.source = source
        self.provider = provider
        self.file = file
        self.httpStatus = httpStatus
        self.outcome = outcome
        self.detail = detail
        self.rowsChanged = rowsChanged
        self.etag = etag
        self.lastModified = lastModified
        self.latestDay = latestDay
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
