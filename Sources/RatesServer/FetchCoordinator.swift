import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream

/// Runs upstream fetches one at a time: a caller arriving while one runs joins it.
///
/// It chooses the file (full history for an empty database, the 90-day file to catch up,
/// the daily file otherwise), fetches conditionally, ingests in one transaction, records
/// every outcome, and publishes the new snapshot.
public actor FetchCoordinator {
    /// What one fetch did.
    public struct Report: Sendable {
        public var run: FetchRun
        /// `Retry-After` asked for by the upstream, in seconds.
        public var retryAfter: Double?
    }

    private let store: RatesStore
    private let client: ECBClient
    private let state: ServerState
    private let calendar: PublicationCalendar
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let metrics: ServerMetrics?
    private var running: Task<Report, Never>?

    /// A coordinator; `metrics`, when given, counts every fetch by outcome.
    public init(
        store: RatesStore, client: ECBClient, state: ServerState, calendar: PublicationCalendar, now: @escaping @Sendable () -> Date, logger: Logger,
        metrics: ServerMetrics? = nil
    ) {
        self.store = store
        self.client = client
        self.state = state
        self.calendar = calendar
        self.now = now
        self.logger = logger
        self.metrics = metrics
    }

    /// Fetches now, or joins the fetch already running, and returns its report.
    public func refresh() async -> Report {
        if let running { return await running.value }
        let task = Task { await self.fetchOnce() }
        running = task
        state.updateFetchStatus { $0.fetching = true }
        let report = await task.value
        running = nil
        state.updateFetchStatus { $0.fetching = false }
        return report
    }

    /// The file that brings the database up to date with the least transfer.
    static func file(latestStored: Day?, expected: Day, calendar: PublicationCalendar) -> ECBFile {
        guard let latestStored else { return .history }
        let missing = calendar.publicationDays(after: latestStored, through: expected).count
        if missing <= 1 { return .daily }
        // The 90-day file covers about 62 publications; beyond that only the history has every day.
        return missing <= 55 ? .ninetyDays : .history
    }

    private func fetchOnce() async -> Report {
        let startedAt = now()
        let expected = calendar.latestPublication(asOf: startedAt)
        let file = Self.file(latestStored: state.snapshot.latest?.day, expected: expected, calendar: calendar)
        var logger = logger
        logger[metadataKey: "rates.file"] = "\(file.rawValue)"
        var run = FetchRun(startedAt: startedAt, source: .upstream, file: file.rawValue, outcome: .failed)
        var retryAfter: Double?
        do {
            let validators = try store.validators(forFile: file.rawValue)
            let response = try await client.fetch(
                file, etag: validators.etag, lastModified: validators.lastModified,
                notAfter: Day(containing: startedAt).adding(days: 1), logger: logger)
            run.httpStatus = response.httpStatus
            run.etag = response.etag
            run.lastModified = response.lastModified
            run.finishedAt = now()
            if let batch = response.batch {
                do throws(UpstreamDataError) {
                    try RatesValidation.checkContinuity(batch, after: state.snapshot.latest)
                } catch {
                    throw UpstreamError.rejected(error, httpStatus: response.httpStatus)
                }
                run = try store.ingest(batch, run: run)
            } else {
                run.outcome = .notModified
                run = try store.record(run)
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
            if let recorded = try? store.record(run) { run = recorded }
        }
        let finished = run
        metrics?.recordFetch(finished.outcome)
        state.updateFetchStatus { status in
            status.lastRun = finished
            if finished.outcome.isSuccess { status.lastSuccessfulFetchAt = finished.finishedAt }
            if finished.outcome == .updated { status.dataOrigin = .upstream }
        }
        // The status first, then the data: a reader never sees new data with an old fetch record.
        if finished.outcome == .updated {
            do {
                try reloadSnapshot()
            } catch {
                logger.error("stored data could not be reloaded", metadata: ["error": "\(error)"])
            }
        }
        return Report(run: finished, retryAfter: retryAfter)
    }

    private func reloadSnapshot() throws {
        let stored = try store.snapshot()
        state.replace(snapshot: RatesSnapshot(epoch: stored.epoch, version: stored.version, days: stored.days))
    }
}
