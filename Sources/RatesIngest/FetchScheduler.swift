import Foundation
import Logging
import RatesCore
import RatesStore
import ServiceLifecycle

/// Fetches after each expected ECB publication, catching up at once after downtime.
///
/// On start it fetches when the data is behind the publication calendar (or only seeded).
/// After each expected publication time it polls every `pollInterval` until the new day
/// appears or `pollWindow` has passed, then sleeps until the next publication. Failures
/// back off (``RatesCore/Backoff``, equal jitter), honouring the upstream's `Retry-After`.
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

        public init(pollInterval: Duration, pollWindow: Duration, retryDelay: Duration, maxRetryDelay: Duration) {
            self.pollInterval = pollInterval
            self.pollWindow = pollWindow
            self.retryDelay = retryDelay
            self.maxRetryDelay = maxRetryDelay
        }
    }

    let coordinator: FetchCoordinator
    let ingestor: Ingestor
    let calendar: PublicationCalendar
    let timing: Timing
    let now: @Sendable () -> Date
    let logger: Logger

    public init(
        coordinator: FetchCoordinator, ingestor: Ingestor, calendar: PublicationCalendar, timing: Timing, now: @escaping @Sendable () -> Date,
        logger: Logger
    ) {
        self.coordinator = coordinator
        self.ingestor = ingestor
        self.calendar = calendar
        self.timing = timing
        self.now = now
        self.logger = logger
    }

    private var state: ServerState { ingestor.state }

    public func run() async throws {
        var failures = 0
        var firstRound = true
        while !Task.isCancelledOrShuttingDown {
            let now = self.now()
            let expected = calendar.latestPublication(asOf: now)
            let delay: TimeInterval
            if needsFetch(expected: expected, now: now, firstRound: firstRound) {
                let report = await coordinator.fetchOrJoin()
                if report.run.outcome.isSuccess {
                    failures = 0
                    delay = idleDelay(now: self.now())
                } else {
                    failures += 1
                    delay = Self.retryDelay(afterFailures: failures, retryAfter: report.retryAfter, backoff: backoff)
                }
            } else {
                delay = idleDelay(now: now)
            }
            firstRound = false
            let wakeUp = self.now().addingTimeInterval(delay)
            state.updateFetchStatus { $0.nextFetchAt = wakeUp }
            logger.debug("next fetch check", metadata: ["rates.nextFetchAt": "\(wakeUp)"])
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(delay)) }
        }
    }

    /// Whether the stored data lacks a publication that should be out, and trying now makes sense.
    private func needsFetch(expected: Day, now: Date, firstRound: Bool) -> Bool {
        let status = state.fetchStatus
        let behind = (state.snapshot.latest?.day).map { $0 < expected } ?? true
        if firstRound { return behind || !status.isConfirmed }
        guard behind else { return false }
        // Within the window after the expected publication time, keep polling; later, wait for the next one.
        return now < calendar.publicationTime(of: expected).addingTimeInterval(timing.pollWindow.seconds)
            || status.lastRun.map { !$0.outcome.isSuccess } ?? true
    }

    /// Time until the next check when nothing failed: the poll interval while a publication is due, else the next publication.
    private func idleDelay(now: Date) -> TimeInterval {
        let expected = calendar.latestPublication(asOf: now)
        let behind = (state.snapshot.latest?.day).map { $0 < expected } ?? true
        if behind && now < calendar.publicationTime(of: expected).addingTimeInterval(timing.pollWindow.seconds) {
            return timing.pollInterval.seconds
        }
        // A minute after the expected time: the ECB is rarely early.
        let next = calendar.publicationTime(of: calendar.nextPublication(after: now)).addingTimeInterval(60)
        return max(1, next.timeIntervalSince(now))
    }

    private var backoff: Backoff { Backoff(initial: timing.retryDelay, maximum: timing.maxRetryDelay) }

    /// The wait after `failures` consecutive failed fetches: the backoff with equal jitter (never
    /// less than half the step), or the upstream's `Retry-After` when that is longer.
    static func retryDelay(afterFailures failures: Int, retryAfter: TimeInterval?, backoff: Backoff, random: Double = .random(in: 0...1)) -> TimeInterval {
        max(backoff.delay(afterFailures: failures, jitter: .equal, random: random).seconds, retryAfter ?? 0)
    }
}

extension Task where Success == Never, Failure == Never {
    static var isCancelledOrShuttingDown: Bool { isCancelled || isShuttingDownGracefully }
}
