import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream

/// The ECB's fetch: the file that brings the database up to date with the least transfer (the full
/// history for an empty database, the 90-day file to catch up, the daily file otherwise), fetched
/// conditionally, ingested with the ECB's own checks, and recorded whatever its outcome.
public struct ECBFetch: UpstreamFetch {
    public let provider = ProviderKey.ecb
    private let ingestor: Ingestor
    private let client: ECBClient
    private let calendar: PublicationCalendar
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let recordOutcome: (@Sendable (FetchRun.Outcome) -> Void)?

    /// The ECB's fetch; `recordOutcome`, when given, is told the outcome of every fetch (metrics).
    public init(
        ingestor: Ingestor, client: ECBClient, calendar: PublicationCalendar, now: @escaping @Sendable () -> Date, logger: Logger,
        recordOutcome: (@Sendable (FetchRun.Outcome) -> Void)? = nil
    ) {
        self.ingestor = ingestor
        self.client = client
        self.calendar = calendar
        self.now = now
        self.logger = logger
        self.recordOutcome = recordOutcome
    }

    private var state: ServerState { ingestor.state }

    /// The file that brings the database up to date with the least transfer.
    static func file(latestStored: Day?, expected: Day, calendar: PublicationCalendar) -> ECBFile {
        guard let latestStored else { return .history }
        let missing = calendar.publicationDays(after: latestStored, through: expected).count
        if missing <= 1 { return .daily }
        // The 90-day file covers about 62 publications; beyond that only the history has every day.
        return missing <= 55 ? .ninetyDays : .history
    }

    public func run() async -> FetchCoordinator.Report {
        let startedAt = now()
        let expected = calendar.latestPublication(asOf: startedAt)
        let file = Self.file(latestStored: state.snapshot.latest?.day, expected: expected, calendar: calendar)
        var logger = logger
        logger[metadataKey: "rates.file"] = "\(file.rawValue)"
        var run = FetchRun(startedAt: startedAt, source: .upstream, file: file.rawValue, outcome: .failed)
        var retryAfter: Double?
        let (ingestor, store) = (ingestor, ingestor.store)
        do {
            // Store calls wait for the database off the tasks the process shares (RatesStore.offloaded).
            let validators = try await store.offloaded { try store.validators(forFile: file.rawValue) }
            let notAfter = Day(containing: startedAt).adding(days: 1)
            let response = try await client.fetch(file, etag: validators.etag, lastModified: validators.lastModified, logger: logger)
            run.httpStatus = response.httpStatus
            run.etag = response.etag
            run.lastModified = response.lastModified
            run.finishedAt = now()
            if let batch = response.batch {
                do {
                    let fetched = run
                    run = try await store.offloaded { try ingestor.ingest(batch, run: fetched, notAfter: notAfter, checkContinuity: true) }
                } catch let error as UpstreamDataError {
                    throw UpstreamError.rejected(error, httpStatus: response.httpStatus)
                }
            } else {
                run.outcome = .notModified
                let fetched = run
                run = try await store.offloaded { try store.record(fetched) }
            }
            logger.info("fetch finished", metadata: ["rates.outcome": "\(run.outcome.rawValue)", "rates.rowsChanged": "\(run.rowsChanged)"])
        } catch {
            run.finishedAt = now()
            run.etag = nil
            run.lastModified = nil
            if let upstream = error as? UpstreamError {
                run.httpStatus = upstream.httpStatus
                run.outcome = if case .rejected = upstream { .rejected } else { .failed }
                retryAfter = upstream.retryAfter
            }
            run.detail = String(describing: error)
            logger.warning("fetch failed", metadata: ["rates.outcome": "\(run.outcome.rawValue)", "rates.reason": "\(run.detail ?? "")"])
            let failed = run
            if let recorded = try? await store.offloaded({ try store.record(failed) }) { run = recorded }
        }
        let finished = run
        recordOutcome?(finished.outcome)
        state.updateFetchStatus { status in
            status.lastRun = finished
            if finished.outcome.isSuccess { status.lastSuccessfulFetchAt = finished.finishedAt }
        }
        let provider = provider
        let latest = (try? await store.offloaded { try store.latestPublicationDay(of: provider) }) ?? nil
        return FetchCoordinator.Report(run: finished, retryAfter: retryAfter, latestPublication: latest)
    }
}
