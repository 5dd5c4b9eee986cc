import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream
import Synchronization

/// One source's fetch, the same for every source: it chooses what to ask for, fetches it
/// conditionally, checks what came against what is stored (for a source that declares a
/// ``RatesUpstream/RatesProvider/maxRateMove``), ingests it through the one ingest path, and
/// records the run whatever its outcome.
///
/// What it asks for (``window(stored:now:)``): its newest publication, unless nothing of the
/// source is stored or its schedule says more than one publication was missed since the newest
/// stored one (downtime); then the adapter's catch-up
/// (``RatesUpstream/RatesProvider/catchUp(after:backfillDays:today:)``: the last `backfillDays`
/// days, or the ECB's 90-day or whole-history file).
///
/// Fetches are conditional: the validators of the last good answer go with the next fetch, and make
/// each request to the same URL conditional, whatever the window (a source polled every minute while
/// behind asks for its catch-up file again and again). An answer the source says has not changed
/// (304 to every request) stores nothing but the run record.
public final class ProviderFetch: UpstreamFetch {
    public var provider: String { client.provider.key }
    private let client: ProviderClient
    private let ingestor: Ingestor
    private let backfillDays: Int
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let recordOutcome: (@Sendable (FetchRun.Outcome) -> Void)?
    /// The validators to send with the next fetch, kept once the publications they came with are stored.
    private let validators = Mutex(ProviderValidators())

    /// A source's fetch; `recordOutcome`, when given, is told the outcome of every fetch (metrics).
    public init(
        client: ProviderClient, ingestor: Ingestor, backfillDays: Int, now: @escaping @Sendable () -> Date, logger: Logger,
        recordOutcome: (@Sendable (FetchRun.Outcome) -> Void)? = nil
    ) {
        self.client = client
        self.ingestor = ingestor
        self.backfillDays = backfillDays
        self.now = now
        self.logger = logger
        self.recordOutcome = recordOutcome
    }

    /// What a fetch at `now` asks for, given the source's newest stored publication.
    func window(stored: Day?, now: Date) -> FetchWindow {
        let source = client.provider
        if let stored, source.schedule.publicationsDue(after: stored, asOf: now) <= 1 { return .latest }
        return source.catchUp(after: stored, backfillDays: backfillDays, today: Day(containing: now))
    }

    public func expedite() { client.expedite() }

    public func run(expedited: Bool) async -> FetchCoordinator.Report {
        let key = provider
        let started = now()
        var retryAfter: Double?
        let today = Day(containing: started)
        let (ingestor, store) = (ingestor, ingestor.store)
        // Store calls wait for the database off the tasks the process shares (RatesStore.offloaded).
        func record(_ finished: FetchRun) async throws -> FetchRun { try await store.offloaded { try store.record(finished) } }
        let stored = (try? await store.offloaded { try store.latestPublication(of: key) }) ?? nil
        let window = window(stored: stored?.day, now: started)
        var run = FetchRun(startedAt: started, source: .upstream, provider: key, file: Self.describe(window, of: client.provider), outcome: .failed)
        var logger = logger
        logger[metadataKey: "rates.provider"] = "\(key)"
        do {
            let sent = try await rememberedValidators()
            let fetched = try await client.fetch(window, validators: sent, expedited: expedited, logger: logger)
            run.httpStatus = 200
            run.finishedAt = now()
            switch fetched {
            case .notModified:
                (run.etag, run.lastModified) = sent.single ?? (nil, nil)
                validators.withLock { $0 = sent }
                run.httpStatus = 304
                run.outcome = .notModified
                run = try await record(run)
            case .fetched(let publications, let next):
                (run.etag, run.lastModified) = next.single ?? (nil, nil)
                if publications.isEmpty {
                    run.outcome = .unchanged
                    run = try await record(run)
                } else {
                    if let maxMove = client.provider.maxRateMove {
                        try ProviderValidation.checkContinuity(publications, after: stored, maxMove: maxMove)
                    }
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
            logger.info("fetched", metadata: ["rates.outcome": "\(run.outcome.rawValue)", "rates.rowsChanged": "\(run.rowsChanged)"])
        } catch {
            // Data that is not the source's layout is rejected, whether the client or the ingest's validation found it.
            let isRejection = if case UpstreamError.rejected = error { true } else { error is UpstreamDataError }
            run.outcome = isRejection ? .rejected : .failed
            run.httpStatus = (error as? UpstreamError)?.httpStatus ?? (error is UpstreamDataError ? 200 : nil)
            retryAfter = (error as? UpstreamError)?.retryAfter
            run.detail = "\(error)"
            run.finishedAt = now()
            let recorded = (try? await record(run)) ?? run
            ingestor.state.updateProviderStatus(key) { $0.lastRun = recorded }
            logger.warning("fetch failed", metadata: ["rates.outcome": "\(run.outcome.rawValue)", "rates.reason": "\(error)"])
            run = recorded
        }
        recordOutcome?(run.outcome)
        let latest = (try? await store.offloaded { try store.latestPublicationDay(of: key) }) ?? nil
        return FetchCoordinator.Report(run: run, retryAfter: retryAfter, latestPublication: latest)
    }

    /// The validators for the next fetch: those of the last one, or after a restart those the record of
    /// the last fetch of the newest publication kept (a source fetched with one request).
    private func rememberedValidators() async throws -> ProviderValidators {
        let kept = validators.withLock { $0 }
        let latest = client.provider.requests(for: .latest)
        guard kept.isEmpty, latest.count == 1 else { return kept }
        let (store, key) = (ingestor.store, provider)
        guard let last = try await store.offloaded({ try store.lastSuccessfulRun(source: .upstream, provider: key) }),
            last.file == Self.describe(.latest, of: client.provider)
        else { return kept }
        return ProviderValidators(url: latest[0].url, etag: last.etag, lastModified: last.lastModified)
    }

    /// What a run record says was fetched: the one file when the window is one request (the ECB's
    /// `eurofxref-daily.xml`), else the window.
    static func describe(_ window: FetchWindow, of provider: any RatesProvider) -> String {
        let requests = provider.requests(for: window)
        if requests.count == 1, let name = requests[0].url.split(separator: "?")[0].split(separator: "/").last { return String(name) }
        return "\(window)"
    }
}
