import Foundation
import RatesCore
import RatesStore
import RatesUpstream
import Synchronization

/// What the running server knows right now: the current snapshot and each source's fetch status.
///
/// Handlers read it on every request; the ``Ingestor`` advances the snapshot, the fetch
/// coordinators and schedulers update the fetch status.
public final class ServerState: Sendable {
    /// What is known of one source's fetches.
    public struct ProviderStatus: Sendable {
        public var lastRun: FetchRun?
        public var lastSuccessfulFetchAt: Date?
        public var nextFetchAt: Date?
        public var fetching = false
        /// Refreshes waiting for the fetch that starts when the running one ends.
        public var refreshesWaiting = 0

        /// Nothing known: no fetch yet.
        public init() {}
    }

    private let current: Mutex<RatesSnapshot>
    private let providers = Mutex<[String: ProviderStatus]>([:])
    private let origin = Mutex<FetchRun.Source?>(nil)
    /// The newest fetch record ``loadFetchRecord(from:)`` has read.
    private let loadedRunID = Mutex<Int64?>(nil)
    /// ``isDataConfirmed``, kept up to date by every change of what it depends on: answers read it on every request.
    private let confirmed = Atomic<Bool>(false)
    private let exclusions = Mutex<[ConsensusExclusion]>([])
    private let databaseFailure = Mutex<Date?>(nil)
    /// The sources whose fetch at start has not ended (``expectStartFetches(of:)``).
    private let startFetches = Mutex<Set<String>>([])
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
        self.init(snapshot: RatesSnapshot(epoch: stored.epoch, version: stored.version, days: stored.days))
        try loadFetchRecord(from: store)
    }

    /// Reads the record of every source's fetches (the last run, the last good one) and where the
    /// data came from, from `store`, whichever process made them: at start, and on a replica that
    /// follows another's fetches.
    ///
    /// - Throws: When the store cannot be read; the status is unchanged then.
    public func loadFetchRecord(from store: RatesStore) throws {
        // Nothing was recorded since the last read: the statuses read then still hold.
        let runID = try store.lastRunID()
        guard loadedRunID.withLock({ $0 }) != runID else { return }
        let runs = try store.lastRunsByProvider(source: .upstream)
        let stored = try store.dataOrigin()
        providers.withLock { statuses in
            for key in ProviderRegistry.keys {
                guard let last = runs.last[key] else { continue }
                statuses[key, default: ProviderStatus()].lastRun = last
                statuses[key, default: ProviderStatus()].lastSuccessfulFetchAt = runs.successful[key]?.finishedAt
            }
        }
        origin.withLock { $0 = stored }
        loadedRunID.withLock { $0 = runID }
        updateConfirmation()
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

    /// Where the dataset's newest change came from (seed, import, upstream); `nil` for an empty one.
    public var dataOrigin: FetchRun.Source? { origin.withLock { $0 } }

    /// Records where an ingest that changed the dataset came from.
    func recordDataOrigin(_ source: FetchRun.Source) {
        origin.withLock { $0 = source }
        updateConfirmation()
    }

    /// Whether an upstream has vouched for the data: it came from one, or some source's fetch
    /// succeeded since (seeded or imported data is unconfirmed until then).
    public var isDataConfirmed: Bool { confirmed.load(ordering: .relaxed) }

    /// Computed and stored under the providers' lock, so the last change's value is the one kept.
    private func updateConfirmation() {
        providers.withLock { statuses in
            let vouched = origin.withLock { $0 == .upstream } || statuses.values.contains { $0.lastSuccessfulFetchAt != nil }
            confirmed.store(vouched, ordering: .relaxed)
        }
    }

    /// Since when reads of the database fail, while they have not succeeded since; `nil` while it answers.
    public var databaseUnreachableSince: Date? { databaseFailure.withLock { $0 } }

    /// Records whether a read of the database (``ChangeLogFollower``'s regular one) succeeded at `date`.
    public func recordDatabaseRead(succeeded: Bool, at date: Date) {
        databaseFailure.withLock { since in since = succeeded ? nil : since ?? date }
    }

    /// Each source's fetch status, by key (those fetched, scheduled or with a recorded fetch).
    public var providerStatus: [String: ProviderStatus] { providers.withLock { $0 } }

    /// Changes `key`'s fetch status.
    public func updateProviderStatus(_ key: String, _ change: (inout ProviderStatus) -> Void) {
        providers.withLock { change(&$0[key, default: ProviderStatus()]) }
        updateConfirmation()
    }

    // MARK: - The start's fetches

    /// Notes that this process fetches `providers` on their schedules from its start: until each
    /// one's scheduler has ended its first pass (``finishStartFetch(of:)``), the start's fetches are out.
    /// Called before the server answers its first request, so readiness never misses one.
    public func expectStartFetches(of providers: some Sequence<String>) {
        startFetches.withLock { $0.formUnion(providers) }
    }

    /// Records that `provider`'s scheduler ended its first pass: the fetch it made at start
    /// finished, whether it succeeded or failed, or none was due. Later passes change nothing.
    public func finishStartFetch(of provider: String) {
        startFetches.withLock { _ = $0.remove(provider) }
    }

    /// Records that this process makes none of the start's fetches it expected: another replica
    /// on the shared database holds the fetcher role, and its fetches reach this one through the change log.
    public func finishStartFetches() {
        startFetches.withLock { $0.removeAll() }
    }

    /// Whether some source's fetch at start has not ended yet.
    public var isAwaitingStartFetches: Bool { startFetches.withLock { !$0.isEmpty } }

    /// Whether the data held is the bundled seed's (its newest change came from the seed) while the
    /// start's fetches are out: it may be weeks old, and those fetches are about to say. `/readyz`
    /// answers 503 meanwhile; once they have ended, succeeded or failed, the data is what the
    /// server can serve.
    public var isSeedAwaitingStartFetches: Bool { dataOrigin == .seed && isAwaitingStartFetches }

    // MARK: - Consensus exclusions

    /// How many consensus exclusions ``consensusExclusions`` keeps.
    public static let maxExclusionsKept = 200

    /// The values the consensus check leaves out of the merge, as of the ingests of this process,
    /// oldest merged day first (at most ``maxExclusionsKept``, the newest days kept).
    public var consensusExclusions: [ConsensusExclusion] { exclusions.withLock { $0 } }

    /// Keeps `found`, the exclusions of the merged days in `recomputed`, in place of what was known of those days.
    func keepConsensusExclusions(_ found: [ConsensusExclusion], replacingThoseOf recomputed: [ClosedRange<Day>]) {
        exclusions.withLock { kept in
            kept.removeAll { exclusion in recomputed.contains { $0.contains(exclusion.day) } }
            kept += found
            kept.sort { ($0.day, $0.currency, $0.provider) < ($1.day, $1.currency, $1.provider) }
            if kept.count > Self.maxExclusionsKept { kept.removeFirst(kept.count - Self.maxExclusionsKept) }
        }
    }
}
