import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream
import Synchronization

/// The one way data enters the dataset: seed, `import` and every fetch call ``ingest(_:run:notAfter:checkContinuity:)``.
///
/// An ingest validates the batch, stores it in one transaction (rates, change log and fetch
/// record), then brings the in-memory ``RatesSnapshot`` forward by exactly the changes the
/// store logged, and announces the new version. Version, data and cursor therefore move
/// together: nothing in memory ever shows rows of a version it does not name. Ingests are
/// serialized, so changes are applied in the order they were committed.
///
/// ``catchUp()`` applies changes another process logged (`rates-relay prune`, an import into
/// the file of a running server) the same way.
public final class Ingestor: Sendable {
    public let store: RatesStore
    public let state: ServerState
    private let logger: Logger
    /// Held for a whole ingest or catch-up: one writer of the dataset at a time.
    private let serial = Mutex(())

    public init(store: RatesStore, state: ServerState, logger: Logger) {
        self.store = store
        self.state = state
        self.logger = logger
    }

    /// Validates `batch`, stores it and applies what changed to the in-memory dataset.
    ///
    /// - Parameters:
    ///   - run: The record of this ingest; stored with the data, with its outcome and count filled in.
    ///   - notAfter: The newest day a valid batch may hold (tomorrow, to allow for time zones).
    ///   - checkContinuity: Also reject a batch older than the stored data or with implausible
    ///     moves from it (``RatesValidation/checkContinuity(_:after:)``): for upstream fetches.
    /// - Returns: The recorded run: `.updated` with `rowsChanged`, or `.unchanged`.
    /// - Throws: `UpstreamDataError` when the batch is invalid (nothing is stored), `DatabaseError` when the write fails.
    @discardableResult
    public func ingest(_ batch: RatesBatch, run: FetchRun, notAfter: Day, checkContinuity: Bool) throws -> FetchRun {
        try serial.withLock { _ in
            try RatesValidation.validate(batch, notAfter: notAfter)
            if checkContinuity { try RatesValidation.checkContinuity(batch, after: state.snapshot.latest.map { DailyRates(day: $0.day, rates: $0.texts) }) }
            let recorded = try store.ingest(batch, run: run)
            // The origin first, then the data: a reader never sees new data with the old origin.
            if recorded.outcome == .updated { state.updateFetchStatus { $0.dataOrigin = recorded.source } }
            _ = try applyLoggedChanges()
            return recorded
        }
    }

    /// Applies to the in-memory dataset every change the store logged after its version.
    ///
    /// - Returns: How many logged changes were applied.
    /// - Throws: `DatabaseError` when the change log cannot be read; the in-memory dataset is unchanged then.
    @discardableResult
    public func catchUp() throws -> Int {
        try serial.withLock { _ in try applyLoggedChanges() }
    }

    private func applyLoggedChanges() throws -> Int {
        let applied = try advance()
        // Only now are the change set and the replaced snapshot released.
        if applied > 0 { Allocator.returnFreedMemory() }
        return applied
    }

    /// Moves the in-memory dataset forward by the changes logged after its version.
    private func advance() throws -> Int {
        let current = state.snapshot
        let changes = try store.changeLog(after: current.version)
        guard let last = changes.last else { return 0 }
        state.replace(snapshot: current.applying(changes, version: last.sequence))
        logger.debug("dataset advanced", metadata: ["rates.version": "\(last.sequence)", "rates.changes": "\(changes.count)"])
        return changes.count
    }
}
