import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream

/// Runs upstream fetches one at a time and hands what they bring to the ``Ingestor``.
///
/// It chooses the file (full history for an empty database, the 90-day file to catch up,
/// the daily file otherwise), fetches conditionally, ingests, and records every outcome.
///
/// Two ways in: ``refresh()`` answers with a fetch that *starts after the call* (an operator
/// who asks for a refresh wants the publication that is out now, not the result of a fetch
/// that began before it); ``fetchOrJoin()`` lets the scheduler join a fetch already running.
public actor FetchCoordinator {
    /// What one fetch did.
    public struct Report: Sendable {
        public var run: FetchRun
        /// `Retry-After` asked for by the upstream, in seconds.
        public var retryAfter: Double?
    }

    private let ingestor: Ingestor
    private let client: ECBClient
    private let calendar: PublicationCalendar
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let recordOutcome: (@Sendable (FetchRun.Outcome) -> Void)?
    /// The fetch in progress.
    private var running: Task<Report, Never>?
    /// The fetch that starts when the running one ends, shared by every refresh that arrived meanwhile.
    private var next: Task<Report, Never>?

    /// A coordinator; `recordOutcome`, when given, is told the outcome of every fetch (metrics).
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

    /// Fetches in a fetch that starts after this call, and returns its report.
    ///
    /// With no fetch running, one starts now. While one runs, the caller waits for it to end
    /// and then for exactly one more, which every refresh that arrived meanwhile shares.
    public func refresh() async -> Report {
        guard let running else { return await start() }
        let following =
            next
            ?? Task {
                _ = await running.value
                return await self.start()
            }
        next = following
        state.updateFetchStatus { $0.refreshesWaiting += 1 }
        defer { state.updateFetchStatus { $0.refreshesWaiting -= 1 } }
        return await following.value
    }

    /// Joins the fetch in progress, or starts one: for the scheduler, to which any fresh fetch will do.
    public func fetchOrJoin() async -> Report {
        if let running { return await running.value }
        return await start()
    }

    /// Starts a fetch now; the caller made sure none runs.
    private func start() async -> Report {
        let task = Task { await self.fetchOnce() }
        running = task
        next = nil
        state.updateFetchStatus { $0.fetching = true }
        let report = await task.value
        if running == task {
            running = nil
            if next == nil { state.updateFetchStatus { $0.fetching = false } }
        }
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
            let validators = try ingestor.store.validators(forFile: file.rawValue)
            let notAfter = Day(containing: startedAt).adding(days: 1)
            let response = try await client.fetch(file, etag: validators.etag, lastModified: validators.lastModified, logger: logger)
            run.httpStatus = response.httpStatus
            run.etag = response.etag
            run.lastModified = response.lastModified
            run.finishedAt = now()
            if let batch = response.batch {
                do {
                    run = try ingestor.ingest(batch, run: run, notAfter: notAfter, checkContinuity: true)
                } catch let error as UpstreamDataError {
                    throw UpstreamError.rejected(error, httpStatus: response.httpStatus)
                }
            } else {
                run.outcome = .notModified
                run = try ingestor.store.record(run)
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
            if let recorded = try? ingestor.store.record(run) { run = recorded }
        }
        let finished = run
        recordOutcome?(finished.outcome)
        state.updateFetchStatus { status in
            status.lastRun = finished
            if finished.outcome.isSuccess { status.lastSuccessfulFetchAt = finished.finishedAt }
        }
        return Report(run: finished, retryAfter: retryAfter)
    }
}
