import Foundation
import RatesCore

/// What one ``RatesClient/sync()`` did.
///
/// ```swift
/// let report = try await client.sync()
/// switch report.outcome {
/// case .updated: print("\(report.upserted) rates updated, now at \(report.latestDate!)")
/// case .upToDate: print("already up to date")
/// case .offline(let reason): print("offline (\(reason)); showing cached rates")
/// }
/// ```
public struct SyncReport: Sendable, Hashable {
    /// How a sync ended.
    public enum Outcome: Sendable, Hashable {
        /// Pages were applied and the cache data changed.
        case updated
        /// The cache already held everything the server has (304, or pages without changes).
        case upToDate
        /// The server could not be reached or failed; the cache is intact and still served.
        /// Pages applied before the failure (``SyncReport/pagesApplied``) are kept; the next sync resumes.
        case offline(OfflineReason)
    }

    /// How the sync ended.
    public var outcome: Outcome
    /// Pages applied to the cache (each in its own transaction, with its cursor).
    public var pagesApplied: Int
    /// Values written (for a snapshot: every value of the new state).
    public var upserted: Int
    /// Values removed by the server's tombstones.
    public var deleted: Int
    /// Whether a full snapshot was started (first sync, server reset, window change) — and, when
    /// ``isComplete``, the cache's data was replaced by it.
    public var reset: Bool
    /// The newest publication day in the cache after the sync.
    public var latestDate: Day?

    /// Creates a report; the client builds these.
    ///
    /// ```swift
    /// let report = SyncReport(outcome: .upToDate)
    /// ```
    public init(outcome: Outcome, pagesApplied: Int = 0, upserted: Int = 0, deleted: Int = 0, reset: Bool = false, latestDate: Day? = nil) {
        self.outcome = outcome
        self.pagesApplied = pagesApplied
        self.upserted = upserted
        self.deleted = deleted
        self.reset = reset
        self.latestDate = latestDate
    }

    /// Whether the cache caught up with the server (not offline).
    ///
    /// ```swift
    /// if !(try await client.sync()).isComplete { scheduleRetry() }
    /// ```
    public var isComplete: Bool {
        if case .offline = outcome { false } else { true }
    }
}

/// Why a sync could not reach the server's data. Never the app's fault; try again later.
///
/// ```swift
/// if case .offline(.serviceUnavailable(let retryAfter?)) = report.outcome {
///     print("server busy, retry in \(retryAfter)")
/// }
/// ```
public enum OfflineReason: Sendable, Hashable, CustomStringConvertible {
    /// No HTTP response: no network, server down, DNS or TLS failure, timeout. `detail` is the system's message.
    case unreachable(detail: String)
    /// The server answered 503 (no data loaded yet, or busy) or 429 (too many requests); it asked to wait `retryAfter`.
    case serviceUnavailable(retryAfter: Duration?)
    /// The server failed with another 5xx status.
    case serverError(status: Int)

    /// A short explanation, for a status line.
    ///
    /// ```swift
    /// print(OfflineReason.serverError(status: 502))   // server error (HTTP 502)
    /// ```
    public var description: String {
        switch self {
        case .unreachable(let detail): return "server unreachable: \(detail)"
        case .serviceUnavailable(let retryAfter?): return "server unavailable (retry after \(retryAfter.components.seconds) s)"
        case .serviceUnavailable(nil): return "server unavailable"
        case .serverError(let status): return "server error (HTTP \(status))"
        }
    }
}
