import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream
import Synchronization

/// One provider's fetch (any but the ECB, whose ``ECBFetch`` follows its calendar): the newest
/// publication, or the last `backfillDays` days when nothing of the provider is stored (and
/// `backfillDays` is above zero), ingested through the one ingest path and recorded whatever its outcome.
///
/// Fetches are conditional: the validators of the last good answer go with the next fetch. An
/// answer the provider says has not changed (304 to every request) stores nothing but the run record.
public final class ProviderFetch: UpstreamFetch {
    public var provider: String { client.provider.key }
    private let client: ProviderClient
    private let ingestor: Ingestor
    private let backfillDays: Int
    private let now: @Sendable () -> Date
    private let logger: Logger
    /// The validators to send with the next fetch, kept once the publications they came with are stored.
    private let validators = Mutex(ProviderValidators())

    public init(client: ProviderClient, ingestor: Ingestor, backfillDays: Int, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.client = client
        self.ingestor = ingestor
        self.backfillDays = backfillDays
        self.now = now
        self.logger = logger
    }

    public func run() async -> FetchCoordinator.Report {
        let key = provider
        let started = now()
        var retryAfter: Double?
        let today = Day(containing: started)
        let (ingestor, store) = (ingestor, ingestor.store)
        // Store calls wait for the database off the tasks the process shares (RatesStore.offloaded).
        let stored = (try? await store.offloaded { try store.latestPublicationDay(of: key) }) ?? nil
        let window: FetchWindow = stored == nil && backfillDays > 0 ? .range(today.adding(days: -backfillDays), today) : .latest
        var run = FetchRun(startedAt: started, source: .upstream, provider: key, file: "\(window)", outcome: .failed)
        do {
            switch try await client.fetch(window, validators: validators.withLock { $0 }, logger: logger) {
            case .notModified:
                run.outcome = .notModified
                run.finishedAt = now()
                let finished = run
                run = try await store.offloaded { try store.record(finished) }
            case .fetched(let publications, let next):
                if publications.isEmpty {
                    run.outcome = .unchanged
                    run.finishedAt = now()
                    let finished = run
                    run = try await store.offloaded { try store.record(finished) }
                } else {
                    run.outcome = .updated
                    let (started, pivot) = (run, client.provider.pivot)
                    run = try await store.offloaded {
                        try ingestor.ingest(publications, of: (key, pivot), run: started, notAfter: today.adding(days: 1))
                    }
                }
                validators.withLock { $0 = next }
            }
            let finished = run
            ingestor.state.updateProviderStatus(key) {
                $0.lastRun = finished
                $0.lastSuccessfulFetchAt = finished.finishedAt
            }
            logger.info("provider fetched", metadata: ["rates.provider": "\(key)", "rates.outcome": "\(run.outcome.rawValue)", "rates.changed": "\(run.rowsChanged)"])
        } catch {
            // Data that is not the provider's layout is rejected, whether the client or the ingest's validation found it.
            let isRejection = if case UpstreamError.rejected = error { true } else { error is UpstreamDataError }
            run.outcome = isRejection ? .rejected : .failed
            run.httpStatus = (error as? UpstreamError)?.httpStatus
            retryAfter = (error as? UpstreamError)?.retryAfter
            run.detail = "\(error)"
            run.finishedAt = now()
            let failed = run
            let recorded = (try? await store.offloaded { try store.record(failed) }) ?? run
            ingestor.state.updateProviderStatus(key) { $0.lastRun = recorded }
            logger.warning("provider fetch failed", metadata: ["rates.provider": "\(key)", "rates.reason": "\(error)"])
            run = recorded
        }
        let latest = (try? await store.offloaded { try store.latestPublicationDay(of: key) }) ?? nil
        return FetchCoordinator.Report(run: run, retryAfter: retryAfter, latestPublication: latest)
    }
}
