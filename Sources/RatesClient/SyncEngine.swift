import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RatesCore

/// Pulls `/v1/sync` pages into the cache; one sync at a time (concurrent callers share it).
actor SyncEngine {
    let cache: RatesCache
    let configuration: RatesClient.Configuration
    let transport: HTTPTransport
    let now: @Sendable () -> Date
    private var running: Task<SyncReport, any Error>?
    /// Callers of ``sync()`` waiting for the run under way (tests check that concurrent callers join one run).
    private(set) var callers = 0

    init(cache: RatesCache, configuration: RatesClient.Configuration, transport: HTTPTransport, now: @escaping @Sendable () -> Date) {
        self.cache = cache
        self.configuration = configuration
        self.transport = transport
        self.now = now
    }

    /// Runs a sync, or joins the one under way.
    func sync() async throws -> SyncReport {
        callers += 1
        defer { callers -= 1 }
        let task: Task<SyncReport, any Error>
        if let running {
            task = running
        } else {
            task = Task { try await self.perform() }
            running = task
        }
        defer { if running == task { running = nil } }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    // MARK: - The page loop

    private func perform() async throws -> SyncReport {
        let state = try cache.state()
        // A cursor is only good for the window it was issued for, and for rates whose sources are
        // known: a cache from before sources needs a snapshot to learn them.
        var cursor = state.window == configuration.window?.description && state.sourcesKnown ? state.cursor : nil
        var ifNoneMatch = cursor != nil && !state.snapshotInProgress ? state.etag : nil
        var report = SyncReport(outcome: .upToDate)
        var changed = false
        var restartedFresh = false

        pages: while true {
            try Task.checkCancellation()
            let request = makeRequest(cursor: cursor, ifNoneMatch: ifNoneMatch)
            ifNoneMatch = nil
            let exchange: HTTPExchange
            switch try await send(request) {
            case .offline(let reason):
                report.outcome = .offline(reason)
                report.latestDate = try cache.dayRange()?.upperBound
                return report
            case .answered(let answer):
                exchange = answer
            }
            switch exchange.status {
            case 304:
                try cache.recordUpToDate(at: now())
                break pages
            case 200..<300:
                let page = try SyncPage(json: exchange.body)
                let applied = try cache.apply(page, sentCursor: cursor != nil, window: configuration.window, etag: exchange.headers["etag"], now: now())
                report.pagesApplied += 1
                report.upserted += applied.upserted
                report.deleted += applied.deleted
                report.reset = report.reset || applied.startedSnapshot
                changed = changed || applied.dataChanged
                if !page.more { break pages }
                guard page.cursor != cursor else { throw RatesClientError.invalidResponse("the server asked for more pages without advancing its cursor") }
                cursor = page.cursor
            case 400 where cursor != nil && !restartedFresh:
                // The server cannot read our cursor (a client bug, or state from elsewhere): start over once.
                restartedFresh = true
                cursor = nil
            default:
                throw exchange.failure(server: configuration.server)
            }
        }
        report.outcome = changed ? .updated : .upToDate
        report.latestDate = try cache.dayRange()?.upperBound
        return report
    }

    /// `GET {server}/v1/sync?cursor=…` (or `?from=…` without a cursor).
    func makeRequest(cursor: String?, ifNoneMatch: String?) -> URLRequest {
        var items: [URLQueryItem] = []
        if let cursor {
            items.append(URLQueryItem(name: "cursor", value: cursor))
        } else if let window = configuration.window {
            items.append(URLQueryItem(name: "from", value: window.description))
        }
        var request = RatesClient.request("v1/sync", query: items, accept: "application/json", configuration: configuration)
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        return request
    }

    // MARK: - Retries

    enum Delivery: Sendable {
        case answered(HTTPExchange)
        case offline(OfflineReason)
    }

    /// Sends `request` with bounded retries: no response, 5xx and 429 are retried with full-jitter
    /// backoff (or the server's `Retry-After`); after the last attempt they mean offline.
    func send(_ request: URLRequest) async throws -> Delivery {
        let policy = configuration.retry
        var generator = SystemRandomNumberGenerator()
        var reason = OfflineReason.unreachable(detail: "no attempt made")
        for attempt in 0..<policy.maxAttempts {
            try Task.checkCancellation()
            var retryAfter: Duration?
            do {
                let exchange = try await transport.send(request)
                switch exchange.status {
                case 503, 429:
                    retryAfter = exchange.retryAfter
                    reason = .serviceUnavailable(retryAfter: retryAfter)
                case 500...599:
                    retryAfter = exchange.retryAfter
                    reason = .serverError(status: exchange.status)
                default:
                    return .answered(exchange)
                }
            } catch {
                if HTTPTransport.isCancellation(error) || Task.isCancelled { throw CancellationError() }
                reason = .unreachable(detail: HTTPTransport.describe(error, url: request.url ?? configuration.server))
            }
            guard attempt + 1 < policy.maxAttempts else { break }
            // Never come back sooner than asked; rather than block the caller for long, report offline.
            if let retryAfter, retryAfter > policy.maxDelay { break }
            try await Task.sleep(for: retryAfter ?? policy.delay(afterAttempt: attempt, using: &generator))
        }
        return .offline(reason)
    }
}
