import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream
import Synchronization

/// The one way data enters the dataset: every source's publications, seeded, imported or
/// fetched, go through ``ingest(_:of:run:notAfter:)``.
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
    /// Whether each ingest brings ``state`` forward by the changes it logged.
    let followsIngests: Bool
    /// Held for a whole ingest or catch-up: one writer of the dataset at a time.
    private let serial = Mutex(())

    /// - Parameter followsIngests: Whether each ingest brings `state` forward by the changes it
    ///   logged (the default). A one-shot import passes `false`: nothing reads its in-memory
    ///   dataset, and reading back every change a whole history logs costs as much as its merge.
    public init(store: RatesStore, state: ServerState, mergePolicy: MergePolicy = .default, followsIngests: Bool = true, logger: Logger) {
        self.store = store
        self.state = state
        self.mergePolicy = mergePolicy
        self.followsIngests = followsIngests
        self.logger = logger
    }

    /// Logs `found` (the values the consensus flagged on the merged days `recomputed`): one line with
    /// how many of each provider's, each value at debug level (a history of an indicative source flags
    /// thousands). Keeps them in the server state in place of what was known of those days.
    func record(_ found: [ConsensusExclusion], recomputed: [ClosedRange<Day>]) {
        if !found.isEmpty {
            let counts = Dictionary(grouping: found, by: \.provider).map { "\($0.key): \($0.value.count)" }.sorted()
            logger.warning(
                "values flagged by the same-day consensus and not served",
                metadata: ["rates.flagged": "\(found.count)", "rates.providers": "\(counts.joined(separator: ", "))"])
        }
        for exclusion in found {
            logger.debug(
                "value flagged by the same-day consensus and not served: further from the median than its bound",
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
        if applied > 0 { returnFreedMemory() }
        return applied
    }

    /// Gives back what the work just done left behind: the store's caches, then the freed heap.
    public func returnFreedMemory() {
        store.releaseMemory()
        Allocator.returnFreedMemory()
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
