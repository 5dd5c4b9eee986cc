import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream
import ServiceLifecycle

/// Fetches one provider (any but the ECB, whose ``FetchScheduler`` also knows its holidays) by
/// the provider's publication schedule, through its ``FetchCoordinator`` (so a scheduled fetch
/// joins a refresh already running); what a fetch does is the provider's ``ProviderFetch``.
///
/// It fetches once on start. From each expected publication time it polls every `pollInterval`
/// until the publication is in — a newer one arrived since that time, or the newest stored one
/// is as recent as the schedule expects — or `pollWindow` has passed; then it waits for the
/// next expected publication, but never longer than `maxInterval`: a safety net for a
/// publisher off its schedule. Failures back off like the ECB's, honouring `Retry-After`.
public struct ProviderFetchScheduler: Service {
    let coordinator: FetchCoordinator
    let ingestor: Ingestor
    let schedule: PublicationSchedule
    let timing: FetchScheduler.Timing
    let maxInterval: Duration
    let now: @Sendable () -> Date
    let logger: Logger

    public init(
        coordinator: FetchCoordinator, ingestor: Ingestor, schedule: PublicationSchedule, timing: FetchScheduler.Timing, maxInterval: Duration,
        now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.coordinator = coordinator
        self.ingestor = ingestor
        self.schedule = schedule
        self.timing = timing
        self.maxInterval = maxInterval
        self.now = now
        self.logger = logger
    }

    public func run() async throws {
        let backoff = Backoff(initial: timing.retryDelay, maximum: timing.maxRetryDelay)
        var failures = 0
        let (store, provider) = (ingestor.store, coordinator.provider)
        var latest = (try? await store.offloaded { try store.latestPublicationDay(of: provider) }) ?? nil
        var lastArrival: Date?
        while !Task.isCancelledOrShuttingDown {
            let report = await coordinator.fetchOrJoin()
            let now = self.now()
            if let fetched = report.latestPublication, latest.map({ fetched > $0 }) ?? true { lastArrival = now }
            latest = report.latestPublication ?? latest
            let delay: TimeInterval
            if report.run.outcome.isSuccess {
                failures = 0
                let next = Self.nextCheck(after: now, latest: latest, lastArrival: lastArrival, schedule: schedule, timing: timing, maxInterval: maxInterval)
                delay = max(1, next.timeIntervalSince(now))
            } else {
                failures += 1
                delay = FetchScheduler.retryDelay(afterFailures: failures, retryAfter: report.retryAfter, backoff: backoff)
            }
            let wakeUp = now.addingTimeInterval(delay)
            ingestor.state.updateProviderStatus(coordinator.provider) { $0.nextFetchAt = wakeUp }
            logger.debug("next provider fetch", metadata: ["rates.provider": "\(coordinator.provider)", "rates.nextFetchAt": "\(wakeUp)"])
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(delay)) }
        }
    }

    /// When to fetch next after a successful fetch at `now`, given the newest publication stored
    /// (`latest`) and when the last newer one arrived.
    static func nextCheck(
        after now: Date, latest: Day?, lastArrival: Date?, schedule: PublicationSchedule, timing: FetchScheduler.Timing, maxInterval: Duration
    ) -> Date {
        let cap = now.addingTimeInterval(maxInterval.seconds)
        if let due = schedule.latestExpectedTime(asOf: now), now < due.addingTimeInterval(timing.pollWindow.seconds) {
            let arrived = lastArrival.map { $0 >= due } ?? false
            let current = latest.map { schedule.publicationsDue(after: $0, asOf: now) == 0 } ?? false
            if !arrived && !current { return min(now.addingTimeInterval(timing.pollInterval.seconds), cap) }
        }
        // A minute after the expected time: publishers are rarely early.
        let next = schedule.nextExpectedTime(after: now).map { $0.addingTimeInterval(60) } ?? cap
        return min(next, cap)
    }
}
