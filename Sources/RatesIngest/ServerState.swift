import Foundation
import RatesCore
import RatesStore
import Synchronization

/// What the running server knows right now: the current snapshot and the fetch status.
///
/// Handlers read it on every request; the ``Ingestor`` advances the snapshot, the fetch
/// coordinator and scheduler update the fetch status.
public final class ServerState: Sendable {
    /// The fetch side of `/v1/status`.
    public struct FetchStatus: Sendable {
        public var lastRun: FetchRun?
        public var lastSuccessfulFetchAt: Date?
        public var dataOrigin: FetchRun.Source?
        public var nextFetchAt: Date?
        public var fetching = false
        /// Refreshes waiting for the fetch that starts when the running one ends.
        public var refreshesWaiting = 0

        /// Whether the upstream has vouched for the data: it came from the upstream, or a fetch
        /// succeeded since (seeded or imported data is unconfirmed until then).
        public var isConfirmed: Bool { dataOrigin == .upstream || lastSuccessfulFetchAt != nil }
    }

    /// What is known of one provider's fetches (the ECB's are in ``fetchStatus``).
    public struct ProviderStatus: Sendable {
        public var lastRun: FetchRun?
        public var lastSuccessfulFetchAt: Date?
        public var nextFetchAt: Date?
        public var fetching = false
        /// Refreshes waiting for the fetch that starts when the running one ends.
        public var refreshesWaiting = 0
    }

    private let current: Mutex<RatesSnapshot>
    private let fetch = Mutex(FetchStatus())
    private let providers = Mutex<[String: ProviderStatus]>([:])
    private let exclusions = Mutex<[ConsensusExclusion]>([])
    private let databaseFailure = Mutex<Date?>(nil)
    /// Subscribers to new publications (`/v1/events`).
    public let events = PublicationEvents()

    public init(snapshot: RatesSnapshot) {
        current = Mutex(snapshot)
    }

    /// A state holding what `store` holds: its rates, read in one transaction, and the record of its last fetches.
    ///
    /// - Throws: `DatabaseError` when the store cannot be read.
    public convenience init(loadingFrom store: RatesStore) throws {
        let stored = try store.snapshot()
        self.init(snapshot: RatesSnapshot(epoch: stored.epoch, version: stored.version, dailyRates: stored.days))
        try loadFetchRecord(from: store)
    }

    /// Reads the record of the ECB's fetches (the last run, the last good one, where the data came
    /// from) from `store` into the fetch status, whichever process made them: at start, and on a
    /// replica that follows another's fetches.
    ///
    /// - Throws: When the store cannot be read; the status is unchanged then.
    public func loadFetchRecord(from store: RatesStore) throws {
        let lastRun = try store.lastRun(source: .upstream, provider: ProviderDay.ecbKey)
        let lastSuccess = try store.lastSuccessfulRun(source: .upstream, provider: ProviderDay.ecbKey)
        let origin = try store.dataOrigin()
        updateFetchStatus { status in
            status.lastRun = lastRun
            status.lastSuccessfulFetchAt = lastSuccess?.finishedAt
            status.dataOrigin = origin
        }
    }

    /// The snapshot handlers answer from.
    public var snapshot: RatesSnapshot { current.withLock { $0 } }

    /// Makes `snapshot` the one handlers answer from, and announces it when the dataset changed.
    func replace(snapshot: RatesSnapshot) {
        let previous = current.withLock { current in
            defer { current = snapshot }
            return current
        }
        guard previous.version != snapshot.version || previous.epoch != snapshot.epoch, let latest = snapshot.latest else { return }
        let cursor = SyncCursor(epoch: snapshot.epoch, sequence: snapshot.version, from: nil, position: .changes)
        events.publish(.init(epoch: snapshot.epoch, cursor: cursor.encoded, latestDate: latest.day.description))
    }

    public var fetchStatus: FetchStatus { fetch.withLock { $0 } }

    /// Since when reads of the database fail, while they have not succeeded since; `nil` while it answers.
    public var databaseUnreachableSince: Date? { databaseFailure.withLock { $0 } }

    /// Records whether a read of the database (``ChangeLogFollower``'s regular one) succeeded at `date`.
    public func recordDatabaseRead(succeeded: Bool, at date: Date) {
        databaseFailure.withLock { since in since = succeeded ? nil : since ?? date }
    }

    /// ``FetchStatus/isConfirmed``, read without copying the status (answers ask on every request).
    public var isDataConfirmed: Bool { fetch.withLock { $0.isConfirmed } }

    public func updateFetchStatus(_ body: (inout FetchStatus) -> Void) {
        fetch.withLock { body(&$0) }
    }

    /// Each provider's fetch status, by key (the providers other than the ECB that were fetched or scheduled).
    public var providerStatus: [String: ProviderStatus] { providers.withLock { $0 } }

    /// Changes `key`'s fetch status.
    public func updateProviderStatus(_ key: String, _ change: (inout ProviderStatus) -> Void) {
        providers.withLock { change(&$0[key, default: ProviderStatus()]) }
    }

    /// Records whether a fetch of `provider` runs: the ECB's in ``fetchStatus``, another's in ``providerStatus``.
    func setFetching(_ fetching: Bool, of provider: String) {
        if provider == ProviderKey.ecb {
            updateFetchStatus { $0.fetching = fetching }
        } else {
            updateProviderStatus(provider) { $0.fetching = fetching }
        }
    }

    /// Adds `change` to the refreshes waiting for `provider`'s next fetch: the ECB's in ``fetchStatus``, another's in ``providerStatus``.
    func countWaitingRefreshes(_ change: Int, of provider: String) {
        if provider == ProviderKey.ecb {
            updateFetchStatus { $0.refreshesWaiting += change }
        } else {
            updateProviderStatus(provider) { $0.refreshesWaiting += change }
        }
    }

    // MARK: - Consensus exclusions

    /// How many consensus exclusions ``consensusExclusions`` keeps.
    public static let maxExclusionsKept = 200

    /// The values the consensus check leaves out of the merge, as of the ingests of this process,
    /// oldest merged day first (at most ``maxExclusionsKept``, the newest days kept).
    public var consensusExclusions: [ConsensusExclusion] { exclusions.withLock { $0 } }

    /// Keeps `found`, the exclusions of the merged days in `recomputed`, in place of what was known of those days.
    func keepConsensusExclusions(_ found: [ConsensusExclusion], replacingThoseOf recomputed: ClosedRange<Day>) {
        exclusions.withLock { kept in
            kept.removeAll { recomputed.contains($0.day) }
            kept += found
            kept.sort { ($0.day, $0.currency, $0.provider) < ($1.day, $1.currency, $1.provider) }
            if kept.count > Self.maxExclusionsKept { kept.removeFirst(kept.count - Self.maxExclusionsKept) }
        }
    }
}
