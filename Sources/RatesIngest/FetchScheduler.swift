import Foundation
import Logging
import RatesCore
import RatesStore
import ServiceLifecycle

/// Fetches one source by its publication schedule, through its ``FetchCoordinator`` (so a
/// scheduled fetch joins a refresh already running); what a fetch does is the source's ``ProviderFetch``.
///
/// On start it fetches when the source is behind its schedule, has nothing stored, or has no
/// successful fetch on record (seeded or imported data is confirmed by one); once that first pass
/// has ended, the fetch finished (succeeded or failed) or none was due, it tells the server state
/// (``ServerState/finishStartFetch(of:)``): readiness on the bundled seed waits for it. From each expected
/// publication time it polls every `pollInterval` until the publication is in — a newer one
/// arrived since that time, or the newest stored one is as recent as the schedule expects — or
/// `pollWindow` has passed; then it waits for the next expected publication, but never longer
/// than `maxInterval`: a safety net for a publisher off its schedule. Failures back off
/// (``RatesCore/Backoff``, equal jitter), honouring the upstream's `Retry-After`.
public struct FetchScheduler: Service {
    /// When to poll and how to back off.
    public struct Timing: Sendable {
        /// Time between polls while an expected publication has not appeared.
        public var pollInterval: Duration
        /// How long after the expected publication time to keep polling.
        public var pollWindow: Duration
        /// First delay after a failed fetch; it doubles per failure, with jitter, up to `maxRetryDelay`.
        public var retryDelay: Duration
        public var maxRetryDelay: Duration
        /// The longest wait between two fetches of a source, whatever its schedule says.
        public var maxInterval: Duration

        public init(pollInterval: Duration, pollWindow: Duration, retryDelay: Duration, maxRetryDelay: Duration, maxInterval: Duration) {
            self.pollInterval = pollInterval
            self.pollWindow = pollWindow
            self.retryDelay = retryDelay
            self.maxRetryDelay = maxRetryDelay
            self.maxInterval = maxInterval
        }
    }

    let coordinator: FetchCoordinator
    let ingestor: Ingestor
    let schedule: PublicationSchedule
    let timing: Timing
    let now: @Sendable () -> Date
    let logger: Logger

    public init(
        coordinator: FetchCoordinator, ingestor: Ingestor, schedule: PublicationSchedule, timing: Timing, now: @escaping @Sendable () -> Date,
        logger: Logger
    ) {
        self.coordinator = coordinator
        self.ingestor = ingestor
        self.schedule = schedule
        self.timing = timing
        self.now = now
        self.logger = logger
    }

    public func run() async throws {
        let backoff = Backoff(initial: timing.retryDelay, maximum: timing.maxRetryDelay)
        var failures = 0
        let (store, provider) = (ingestor.store, coordinator.provider)
        var latest = (try? await store.offloaded { try store.latestPublicationDay(of: provider) }) ?? nil
        var lastArrival: Date?
        var fetchNow = latest.map { schedule.publicationsDue(after: $0, asOf: now()) > 0 } ?? true
            || ingestor.state.providerStatus[provider]?.lastSuccessfulFetchAt == nil
        while !Task.isCancelledOrShuttingDown {
            var now = self.now()
            // After a failed fetch, the backoff's wait; otherwise until the schedule's next check.
            var retry: TimeInterval?
            if fetchNow {
                let report = await coordinator.fetchOrJoin()
                now = self.now()
                if let fetched = report.latestPublication, latest.map({ fetched > $0 }) ?? true { lastArrival = now }
                latest = report.latestPublication ?? latest
                if report.run.outcome.isSuccess {
                    failures = 0
                } else {
                    failures += 1
                    retry = Self.retryDelay(afterFailures: failures, retryAfter: report.retryAfter, backoff: backoff)
                }
            }
            // The first pass ends this source's fetch at start; later passes find it ended.
            ingestor.state.finishStartFetch(of: provider)
            let delay = retry
                ?? Self.nextCheck(after: now, latest: latest, lastArrival: lastArrival, schedule: schedule, timing: timing).timeIntervalSince(now)
            let wait = max(1, delay)
            fetchNow = true
            let wakeUp = now.addingTimeInterval(wait)
            ingestor.state.updateProviderStatus(provider) { $0.nextFetchAt = wakeUp }
            logger.debug("next fetch", metadata: ["rates.provider": "\(provider)", "rates.nextFetchAt": "\(wakeUp)"])
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(wait)) }
        }
    }

    /// When to fetch next after a successful fetch at `now`, given the newest publication stored
    /// (`latest`) and when the last newer one arrived.
    static func nextCheck(after now: Date, latest: Day?, lastArrival: Date?, schedule: PublicationSchedule, timing: Timing) -> Date {
        let cap = now.addingTimeInterval(timing.maxInterval.seconds)
        let due = schedule.expectedTime(of: schedule.latestPublication(asOf: now))
        if now < due.addingTimeInterval(timing.pollWindow.seconds) {
            let arrived = lastArrival.map { $0 >= due } ?? false
            let current = latest.map { schedule.publicationsDue(after: $0, asOf: now) == 0 } ?? false
            if !arrived && !current { return min(now.addingTimeInterval(timing.pollInterval.seconds), cap) }
        }
        // A minute after the expected time: publishers are rarely early.
        return min(schedule.expectedTime(of: schedule.nextPublication(after: now)).addingTimeInterval(60), cap)
    }

    /// The wait after `failures` consecutive failed fetches: the backoff with equal jitter (never
    /// less than half the step), or the upstream's `Retry-After` when that is longer.
    static func retryDelay(afterFailures failures: Int, retryAfter: TimeInterval?, backoff: Backoff, random: Double = .random(in: 0...1)) -> TimeInterval {
        max(backoff.delay(afterFailures: failures, jitter: .equal, random: random).seconds, retryAfter ?? 0)
    }
}

extension Task where Success == Never, Failure == Never {
    static var isCancelledOrShuttingDown: Bool { isCancelled || isShuttingDownGracefully }
}
