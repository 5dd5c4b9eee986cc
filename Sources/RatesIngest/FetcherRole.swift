import Foundation
import Logging
import RatesCore
import RatesStore
import ServiceLifecycle
import Synchronization

/// Whether this replica is the one that fetches, among several sharing one PostgreSQL database.
///
/// Exactly one replica at a time runs the schedulers (``FetcherRoleService``); the others serve
/// what it stores, and hand it the refreshes operators ask of them (``forward(_:)``).
/// With SQLite there is one process, which always fetches: it has no role object at all.
public final class FetcherRole: Sendable {
    private let held = Atomic(false)
    let coordination: ReplicaCoordination
    let store: RatesStore
    /// How long a forwarded refresh waits for the fetcher's runs.
    let forwardTimeout: Duration

    /// The role among the replicas of `store`'s database, or `nil` when it is not shared (SQLite).
    public init?(store: RatesStore, forwardTimeout: Duration) {
        guard let coordination = store.coordination else { return nil }
        self.coordination = coordination
        self.store = store
        self.forwardTimeout = forwardTimeout
    }

    /// Whether this replica holds the role now.
    public var isHeld: Bool { held.load(ordering: .acquiring) }

    func set(_ isHeld: Bool) { held.store(isHeld, ordering: .releasing) }

    /// A refresh of `keys` asked of this replica while another fetches: that one is told to fetch
    /// them (a notification), and this one waits for the runs it records, up to ``forwardTimeout``.
    ///
    /// - Returns: A report per key from the run the fetcher recorded after the request; a key
    ///   whose run does not appear in time reports `failed`, saying so.
    func forward(_ keys: [String]) async -> FetchCoordinators.Refresh {
        let (timeout, store) = (forwardTimeout, store)
        // Store calls wait for the database off the tasks the process shares (RatesStore.offloaded).
        let before = (try? await store.offloaded { try store.lastRunID() }) ?? 0
        do {
            try await coordination.notify(.refresh, keys.joined(separator: ","))
        } catch {
            return Self.unanswered(keys, detail: "the fetcher replica could not be asked: \(error)")
        }
        let deadline = ContinuousClock.now + timeout
        var runs: [String: FetchRun] = [:]
        while runs.count < keys.count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(200))
            let missing = keys.filter { runs[$0] == nil }
            let recorded = (try? await store.offloaded { try missing.map { try store.lastRun(provider: $0) } }) ?? []
            for case let run? in recorded { if let id = run.id, id > before { runs[run.provider] = run } }
        }
        let found = runs
        let latest = (try? await store.offloaded { try found.keys.map { ($0, try store.latestPublicationDay(of: $0)) } }) ?? []
        let latestByKey = Dictionary(uniqueKeysWithValues: latest)
        return FetchCoordinators.Refresh(
            reports: keys.map { key in
                guard let run = runs[key] else {
                    return Self.unanswered([key], detail: "the fetcher replica recorded no fetch within \(timeout)").reports[0]
                }
                return FetchCoordinator.Report(run: run, latestPublication: latestByKey[key] ?? nil)
            })
    }

    private static func unanswered(_ keys: [String], detail: String) -> FetchCoordinators.Refresh {
        FetchCoordinators.Refresh(
            reports: keys.map { FetchCoordinator.Report(run: FetchRun(startedAt: Date(), source: .upstream, provider: $0, file: "-", outcome: .failed, detail: detail)) })
    }
}

/// Runs the fetch schedulers only while this replica holds the fetcher role, and carries out the
/// refreshes other replicas forward to it.
///
/// A replica refused the role (or that lost it) makes none of the start's fetches its state still
/// expects (``ServerState/finishStartFetches()``): the fetcher's reach it through the change log.
///
/// When the role is lost (its database connection broke), the schedulers are cancelled and the
/// replica asks for the role again; when the replica holding it dies, another takes it within
/// `checkInterval`.
public struct FetcherRoleService: Service {
    let role: FetcherRole
    let schedulers: [any Service]
    let coordinators: FetchCoordinators
    let state: ServerState
    let checkInterval: Duration
    let logger: Logger

    public init(
        role: FetcherRole, schedulers: [any Service], coordinators: FetchCoordinators, state: ServerState, checkInterval: Duration = .seconds(5),
        logger: Logger
    ) {
        self.role = role
        self.schedulers = schedulers
        self.coordinators = coordinators
        self.state = state
        self.checkInterval = checkInterval
        self.logger = logger
    }

    public func run() async throws {
        let (schedulers, coordinators, role, state, checkInterval) = (schedulers, coordinators, role, state, checkInterval)
        let roleChanged: @Sendable (Bool) -> Void = { isHeld in
            role.set(isHeld)
            if !isHeld { state.finishStartFetches() }
        }
        await cancelWhenGracefulShutdown {
            await role.coordination.runAsFetcher(checkEvery: checkInterval, roleChanged: roleChanged) {
                await withTaskGroup(of: Void.self) { group in
                    for scheduler in schedulers { group.addTask { try? await scheduler.run() } }
                    group.addTask {
                        await role.coordination.listen(.refresh, retryAfter: checkInterval) { payload in
                            let keys = payload.split(separator: ",").map(String.init).filter(coordinators.keys.contains)
                            _ = await coordinators.refresh(keys.isEmpty ? nil : keys)
                        }
                    }
                    await group.waitForAll()
                }
            }
        }
    }
}
