import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream
import ServiceLifecycle

/// Fetches one provider (other than the ECB, which ``FetchScheduler`` fetches by its calendar)
/// every `interval` and ingests what it publishes through the one ingest path.
///
/// The first fetch of a provider that has nothing stored asks for the last `backfillDays` days
/// (``FetchWindow/range(_:_:)``) when that is above zero; every other one for the newest publication. An answer the
/// provider says has not changed (304 to every request) stores nothing but the run record.
/// Failures back off (``RatesCore/Backoff``, equal jitter) up to `maxRetryDelay`.
public struct ProviderFetchService: Service {
    let client: ProviderClient
    let ingestor: Ingestor
    let interval: Duration
    let backoff: Backoff
    let backfillDays: Int
    let now: @Sendable () -> Date
    let logger: Logger

    public init(
        client: ProviderClient, ingestor: Ingestor, interval: Duration, retryDelay: Duration, maxRetryDelay: Duration, backfillDays: Int,
        now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.client = client
        self.ingestor = ingestor
        self.interval = interval
        self.backoff = Backoff(initial: retryDelay, maximum: maxRetryDelay)
        self.backfillDays = backfillDays
        self.now = now
        self.logger = logger
    }

    private var key: String { client.provider.key }

    public func run() async throws {
        var failures = 0
        var validators = ProviderValidators()
        while !Task.isCancelledOrShuttingDown {
            let succeeded = await fetchOnce(validators: &validators)
            failures = succeeded ? 0 : failures + 1
            let delay = succeeded ? interval : backoff.delay(afterFailures: failures, jitter: .equal, random: .random(in: 0...1))
            let wakeUp = now().addingTimeInterval(delay.seconds)
            ingestor.state.updateProviderStatus(key) { $0.nextFetchAt = wakeUp }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
        }
    }

    /// One fetch and its ingest; whether it succeeded (an unchanged answer is a success).
    func fetchOnce(validators: inout ProviderValidators) async -> Bool {
        let started = now()
        let today = Day(containing: started)
        let stored = (try? ingestor.store.latestPublication(of: key)) ?? nil
        let window: FetchWindow = stored == nil && backfillDays > 0 ? .range(today.adding(days: -backfillDays), today) : .latest
        var run = FetchRun(startedAt: started, source: .upstream, provider: key, file: "\(window)", outcome: .failed)
        do {
            switch try await client.fetch(window, validators: validators, logger: logger) {
            case .notModified:
                run.outcome = .notModified
                run.finishedAt = now()
                run = try ingestor.store.record(run)
            case .fetched(let publications, let next):
                if publications.isEmpty {
                    run.outcome = .unchanged
                    run.finishedAt = now()
                    run = try ingestor.store.record(run)
                } else {
                    run.outcome = .updated
                    run = try ingestor.ingest(publications, of: (key, client.provider.pivot), run: run, notAfter: today.adding(days: 1))
                }
                validators = next
            }
            ingestor.state.updateProviderStatus(key) {
                $0.lastRun = run
                $0.lastSuccessfulFetchAt = run.finishedAt
            }
            logger.info("provider fetched", metadata: ["rates.provider": "\(key)", "rates.outcome": "\(run.outcome.rawValue)", "rates.changed": "\(run.rowsChanged)"])
            return true
        } catch {
            // Data that is not the provider's layout is rejected, whether the client or the ingest's validation found it.
            let isRejection = if case UpstreamError.rejected = error { true } else { error is UpstreamDataError }
            run.outcome = isRejection ? .rejected : .failed
            run.httpStatus = (error as? UpstreamError)?.httpStatus
            run.detail = "\(error)"
            run.finishedAt = now()
            let recorded = (try? ingestor.store.record(run)) ?? run
            ingestor.state.updateProviderStatus(key) { $0.lastRun = recorded }
            logger.warning("provider fetch failed", metadata: ["rates.provider": "\(key)", "rates.reason": "\(error)"])
            return false
        }
    }
}
