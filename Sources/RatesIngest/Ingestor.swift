import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream
import Synchronization

/// The one way data enters the dataset: every provider's publications go through
/// ``ingest(_:of:run:notAfter:)``; the ECB's batches (seed, `import`, its fetches) reach it through
/// ``ingest(_:run:notAfter:checkContinuity:)``, which adds the ECB's own checks.
///
/// An ingest validates the publications, stores them in one transaction (the provider's quotes,
/// the merged days they touch, change log and fetch record), then brings the in-memory
/// ``RatesSnapshot`` forward by exactly the changes the store logged, and announces the new version. Version, data and cursor therefore move
/// together: nothing in memory ever shows rows of a version it does not name. Ingests are
/// serialized, so changes are applied in the order they were committed.
///
/// ``catchUp()`` applies changes another process logged (`rates-relay prune`, an import into
/// the file of a running server) the same way.
public final class Ingestor: Sendable {
    public let store: RatesStore
    public let state: ServerState
    private let logger: Logger
    /// How providers' publications become merged values.
    public let mergePolicy: MergePolicy
    /// Held for a whole ingest or catch-up: one writer of the dataset at a time.
    private let serial = Mutex(())

    public init(store: RatesStore, state: ServerState, mergePolicy: MergePolicy = .default, logger: Logger) {
        self.store = store
        self.state = state
        self.mergePolicy = mergePolicy
        self.logger = logger
    }

    /// Logs `found` (the exclusions of the merged days `recomputed`) and keeps them in the server
    /// state in place of what was known of those days.
    func record(_ found: [ConsensusExclusion], recomputed: ClosedRange<Day>) {
        for exclusion in found {
            logger.warning(
                "value left out of the merge: more than the consensus threshold from the median",
                metadata: [
                    "rates.day": "\(exclusion.day)", "rates.currency": "\(exclusion.currency)", "rates.provider": "\(exclusion.provider)",
                    "rates.value": "\(exclusion.rate.value)", "rates.median": "\(exclusion.median)",
                ])
        }
        state.keepConsensusExclusions(found, replacingThoseOf: recomputed)
    }

    /// Runs `body` as the only writer of the dataset.
    func exclusively<Result>(_ body: () throws -> Result) throws -> Result {
        try serial.withLock { _ in try body() }
    }

    /// Validates `batch` (the ECB's publications), stores it as the ECB's quotes with the merged
    /// days it touches, and applies what changed to the in-memory dataset.
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
        try RatesValidation.validate(batch, notAfter: notAfter)
        if checkContinuity {
            try RatesValidation.checkContinuity(batch, after: ecbLatest())
        }
        let publications = batch.days.map { daily in
            ProviderPublication(
                day: daily.day,
                quotes: daily.rates.map { PublishedQuote(currency: $0.key, value: $0.value, unit: 1, direction: .unitsPerPivot) })
        }
        return try ingest(publications, of: (ProviderDay.ecbKey, .euro), run: run, notAfter: notAfter)
    }

    /// The ECB's newest stored publication, for the continuity check of its next batch.
    private func ecbLatest() throws -> DailyRates? {
        try store.latestPublication(of: ProviderDay.ecbKey).map { publication in
            DailyRates(day: publication.day, rates: Dictionary(uniqueKeysWithValues: publication.quotes.map { ($0.currency, $0.value) }))
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

    @discardableResult
    func applyLoggedChanges() throws -> Int {
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
