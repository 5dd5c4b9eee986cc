import Foundation
import Logging
import RatesCore
import RatesStore
import ServiceLifecycle

/// Fetches one provider (other than the ECB, which ``FetchScheduler`` fetches by its calendar)
/// every `interval`, through its ``FetchCoordinator`` (so a scheduled fetch joins a refresh
/// already running); what a fetch does is the provider's ``ProviderFetch``.
/// Failures back off (``RatesCore/Backoff``, equal jitter) up to `maxRetryDelay`.
public struct ProviderFetchService: Service {
    let coordinator: FetchCoordinator
    let ingestor: Ingestor
    let interval: Duration
    let backoff: Backoff
    let now: @Sendable () -> Date
    let logger: Logger

    public init(
        coordinator: FetchCoordinator, ingestor: Ingestor, interval: Duration, retryDelay: Duration, maxRetryDelay: Duration,
        now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.coordinator = coordinator
        self.ingestor = ingestor
        self.interval = interval
        self.backoff = Backoff(initial: retryDelay, maximum: maxRetryDelay)
        self.now = now
        self.logger = logger
    }

    public func run() async throws {
        var failures = 0
        while !Task.isCancelledOrShuttingDown {
            let succeeded = await coordinator.fetchOrJoin().run.outcome.isSuccess
            failures = succeeded ? 0 : failures + 1
            let delay = succeeded ? interval : backoff.delay(afterFailures: failures, jitter: .equal, random: .random(in: 0...1))
            let wakeUp = now().addingTimeInterval(delay.seconds)
            ingestor.state.updateProviderStatus(coordinator.provider) { $0.nextFetchAt = wakeUp }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
        }
    }
}
