import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import RatesCore

/// Fetches one provider's publications over HTTP: runs the adapter's requests, parses each answer,
/// combines the answers' days, keeps a range to its days and validates the whole before returning it.
///
/// HTTP goes through one client for every source (``makeHTTPClient()``: bounded connect and read
/// timeouts, at most 5 redirects and no cycles, gzip), with each request bounded in time (body included) and size.
/// Requests run at most ``maxConcurrentRequests`` at a time; one failure fails the whole fetch, and
/// nothing of it is returned:
///
/// - an error status, a timeout, an oversize body or no answer → its ``UpstreamError``;
/// - a body the adapter rejects → ``UpstreamError/rejected(_:httpStatus:)``;
/// - two answers giving one currency of one day different figures →
///   ``UpstreamDataError/duplicateCurrency(_:day:)``;
/// - a day after tomorrow (UTC) or any other failed check of ``ProviderValidation/validate(_:notAfter:notBefore:)``.
///
/// A 404 is "no publication" (not a failure) for a provider that says so (``NoPublicationStatus``).
///
/// Requests are conditional: the validators (`ETag`, `Last-Modified`) of the previous good answer
/// to the same URL (``ProviderValidators``) go with each GET. A 304 means that request's answer
/// has not changed: when every answer is 304 the fetch is ``ProviderFetchResult/notModified``;
/// when only some are, the unchanged ones contribute the publications remembered with their
/// validators, so a day combined from several answers (NBP tables A and B) stays whole.
public struct ProviderClient: Sendable {
    /// The adapter whose requests are run.
    public let provider: any RatesProvider
    /// Most requests of one fetch in flight at once.
    public let maxConcurrentRequests: Int
    private let http: UpstreamHTTP
    private let today: @Sendable () -> Day
    private let permits: FetchPermits?

    /// - Parameters:
    ///   - provider: The adapter (from ``ProviderRegistry``, which refuses a keyed provider without its key).
    ///   - httpClient: The shared HTTP client (``makeHTTPClient()``); its owner shuts it down.
    ///   - timeout: Limit for one whole request, body included.
    ///   - maxBodyBytes: Largest body accepted per request (the ECB's full history XML is about 6 MB).
    ///   - maxConcurrentRequests: Most requests in flight at once (per-day, per-currency and per-series
    ///     providers make dozens); at least 1.
    ///   - today: Today's day in UTC (the system clock unless given): days after tomorrow are rejected.
    ///   - override: Where the adapter's requests go instead of its own servers (`--upstream KEY=URL`), if anywhere.
    ///     The adapter still reads each answer as the answer to the request it made.
    ///   - permits: Shared by the clients of every source: each fetch holds one for its whole run (`nil`: no bound).
    public init(
        provider: any RatesProvider, httpClient: HTTPClient, timeout: Duration = .seconds(60), maxBodyBytes: Int = 32 << 20,
        maxConcurrentRequests: Int = 4, today: @escaping @Sendable () -> Day = { Day(containing: Date()) }, override: UpstreamOverride? = nil,
        permits: FetchPermits? = nil
    ) {
        self.permits = permits
        self.provider = provider
        self.http = UpstreamHTTP(httpClient: httpClient, timeout: timeout, maxBodyBytes: maxBodyBytes, override: override)
        self.maxConcurrentRequests = max(1, maxConcurrentRequests)
        self.today = today
    }

    /// Most redirects an upstream request follows.
    static let maxRedirects = 5

    /// An HTTP client configured for upstream fetches: bounded connect and read timeouts, no
    /// retries of failed connections, at most 5 redirects, no cycles, gzip decompressed up to 20x.
    public static func makeHTTPClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        configuration.redirectConfiguration = .follow(max: maxRedirects, allowCycles: false)
        configuration.decompression = .enabled(limit: .ratio(20))
        // A failed connection fails the fetch at once, with its real reason ("Connection
        // refused"), instead of being retried inside the client until the fetch times out:
        // the scheduler already retries fetches, with backoff.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Fetches `window`: every request of the adapter, conditionally where `validators` know the URL.
    ///
    /// - Parameters:
    ///   - window: `.latest`, or a range whose days alone are kept (an answer may hold days around it).
    ///   - validators: What the previous good fetch of the same window returned (empty for none).
    ///     Pass the ones of a ``ProviderFetchResult/fetched(_:validators:)`` once its publications are stored.
    ///   - expedited: Whether it runs at once, without waiting for a permit (an operator's refresh).
    /// - Returns: `.notModified` when every answer was 304; otherwise the validated publications in
    ///   ascending day order (none when every request had no publication, or a range held no day of
    ///   its own), with the validators to send next time.
    /// - Throws: ``UpstreamError``; nothing of a failed fetch is returned.
    public func fetch(_ window: FetchWindow, validators: ProviderValidators = ProviderValidators(), expedited: Bool = false, logger: Logger)
        async throws(UpstreamError) -> ProviderFetchResult
    {
        guard let permits, !expedited else { return try await fetchNow(window, validators: validators, logger: logger) }
        return try await permits.withPermit(for: provider.key) { () async throws(UpstreamError) in
            try await fetchNow(window, validators: validators, logger: logger)
        }
    }

    /// Lets a fetch of this source that waits for a permit start now, without one.
    public func expedite() { permits?.expedite(provider.key) }

    private func fetchNow(_ window: FetchWindow, validators: ProviderValidators, logger: Logger) async throws(UpstreamError) -> ProviderFetchResult {
        var logger = logger
        logger[metadataKey: "rates.provider"] = "\(provider.key)"
        let requests = try await requests(for: window, logger: logger)
        // Remembered publications make a lone 304 among fresh answers usable; a single request needs none.
        let keepsPublications = requests.count > 1
        let outcomes = try await run(requests, validators: validators, requireRemembered: keepsPublications, logger: logger)

        if outcomes.contains(where: { if case .notModified = $0 { true } else { false } }),
            outcomes.allSatisfy({ if case .fetched = $0 { false } else { true } })
        {
            return .notModified
        }

        var next = ProviderValidators()
        var parts: [[ProviderPublication]] = []
        for (request, outcome) in zip(requests, outcomes) {
            switch outcome {
            case .noPublication:
                continue
            case .notModified(let remembered):
                parts.append(remembered.publications ?? [])
                next.entries[request.url] = remembered
            case .fetched(let publications, let etag, let lastModified):
                parts.append(publications)
                if request.method == .get, etag != nil || lastModified != nil {
                    next.entries[request.url] = .init(etag: etag, lastModified: lastModified, publications: keepsPublications ? publications : nil)
                }
            }
        }

        do throws(UpstreamDataError) {
            var publications = try Self.combine(parts)
            if case .range(let first, let last) = window {
                publications.removeAll { $0.day < first || $0.day > last }
            }
            guard !publications.isEmpty else { return .fetched([], validators: next) }
            return .fetched(try ProviderValidation.validate(publications, notAfter: today().adding(days: 1), notBefore: provider.historyStart), validators: next)
        } catch {
            throw .rejected(error, httpStatus: 200)
        }
    }

    /// The adapter's requests for `window`, after its session request when it has one.
    private func requests(for window: FetchWindow, logger: Logger) async throws(UpstreamError) -> [ProviderRequest] {
        guard let sessionRequest = provider.sessionRequest(for: window) else { return provider.requests(for: window) }
        let exchange = try await http.exchange(Self.outgoing(sessionRequest), logger: logger)
        let session = ProviderSession(body: exchange.body.map { Array($0.readableBytesView) } ?? [], setCookies: exchange.headers["Set-Cookie"])
        do throws(UpstreamDataError) {
            return try provider.requests(for: window, session: session)
        } catch {
            throw .rejected(error.attributed(to: provider.key), httpStatus: exchange.status)
        }
    }

    /// The HTTP request that sends `request`, unconditionally.
    private static func outgoing(_ request: ProviderRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = request.method == .post ? .POST : .GET
        outgoing.headers.add(name: "User-Agent", value: "rates-relay/1.0")
        outgoing.headers.add(name: "Accept-Encoding", value: "gzip")
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { outgoing.headers.replaceOrAdd(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(string: body)) }
        return outgoing
    }

    // MARK: - Combining answers

    /// The days of several answers, one publication per day: the union of each day's quotes.
    ///
    /// The same quote in two answers (a bank repeating the table in force for two asked days) counts
    /// once, the first answer's text kept: a figure is the same however many trailing zeros each answer
    /// writes (the CBBH's daily answer writes `1.955830` where its period answer writes `1.95583`). The
    /// same currency of the same day with another figure, unit or direction is rejected.
    /// - Returns: The days in ascending order, quotes in the order first seen.
    public static func combine(_ parts: [[ProviderPublication]]) throws(UpstreamDataError) -> [ProviderPublication] {
        // One answer with each day once (the ECB's whole history): its days as they are, not copied a figure at a time.
        if parts.count == 1 {
            let days = parts[0].sorted { $0.day < $1.day }
            if zip(days, days.dropFirst()).allSatisfy({ $0.day < $1.day }) { return days }
        }
        var days: [Day: (quotes: [PublishedQuote], index: [CurrencyCode: Int])] = [:]
        for publication in parts.joined() {
            var day = days[publication.day] ?? ([], [:])
            for quote in publication.quotes {
                if let seen = day.index[quote.currency] {
                    guard day.quotes[seen].isSameFigure(as: quote) else { throw .duplicateCurrency(quote.currency, day: publication.day) }
                } else {
                    day.index[quote.currency] = day.quotes.count
                    day.quotes.append(quote)
                }
            }
            days[publication.day] = day
        }
        return days.keys.sorted().map { ProviderPublication(day: $0, quotes: days[$0]!.quotes) }
    }

    // MARK: - Requests

    /// What one request gave.
    private enum Outcome: Sendable {
        /// 200: the adapter's reading of the body, and the validators to send next time.
        case fetched([ProviderPublication], etag: String?, lastModified: String?)
        /// 304: unchanged since the remembered answer.
        case notModified(ProviderValidators.Entry)
        /// An error status the provider uses for "nothing published" (``NoPublicationStatus``).
        case noPublication
    }

    /// Runs `requests`, at most ``maxConcurrentRequests`` at a time, and returns their outcomes in order.
    ///
    /// The first failure cancels the requests still running and is thrown.
    private func run(_ requests: [ProviderRequest], validators: ProviderValidators, requireRemembered: Bool, logger: Logger)
        async throws(UpstreamError) -> [Outcome]
    {
        do {
            return try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
                var outcomes = [Outcome?](repeating: nil, count: requests.count)
                var started = 0
                let startNext = { (group: inout ThrowingTaskGroup<(Int, Outcome), any Error>) in
                    let index = started
                    let entry = validators.entries[requests[index].url]
                    let remembered = requireRemembered && entry?.publications == nil ? nil : entry
                    group.addTask { (index, try await self.perform(requests[index], remembered: remembered, logger: logger)) }
                    started += 1
                }
                while started < min(maxConcurrentRequests, requests.count) { startNext(&group) }
                while let (index, outcome) = try await group.next() {
                    outcomes[index] = outcome
                    if started < requests.count { startNext(&group) }
                }
                return outcomes.map { $0! }
            }
        } catch let error as UpstreamError {
            throw error
        } catch {
            throw .transport(String(describing: error))
        }
    }

    /// Sends one request, conditionally when `remembered` holds validators, and parses its answer.
    private func perform(_ request: ProviderRequest, remembered: ProviderValidators.Entry?, logger: Logger) async throws(UpstreamError) -> Outcome {
        var outgoing = Self.outgoing(request)
        let conditional = request.method == .get ? remembered : nil
        if let etag = conditional?.etag { outgoing.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified = conditional?.lastModified { outgoing.headers.add(name: "If-Modified-Since", value: lastModified) }

        let exchange: UpstreamHTTP.Exchange
        do {
            exchange = try await http.exchange(outgoing, logger: logger)
        } catch {
            if case .httpStatus(let status, _) = error, provider.answerMeansNoPublication(httpStatus: status, for: request) {
                logger.debug("no publication", metadata: ["rates.url": "\(request.url)", "rates.status": "\(status)"])
                return .noPublication
            }
            throw error
        }
        guard let body = exchange.body else {
            // 304: only an answer to validators we sent can mean "unchanged".
            guard let conditional else { throw .httpStatus(exchange.status, retryAfter: nil) }
            return .notModified(conditional)
        }
        do throws(UpstreamDataError) {
            let publications = try provider.parse(Array(body.readableBytesView), of: request)
            return .fetched(publications, etag: exchange.headers.first(name: "ETag"), lastModified: exchange.headers.first(name: "Last-Modified"))
        } catch {
            throw .rejected(error, httpStatus: exchange.status)
        }
    }
}

/// What a provider fetch brought back.
public enum ProviderFetchResult: Sendable {
    /// Every answer was 304: nothing changed since the validators sent.
    case notModified
    /// The validated publications, ascending by day, and the validators to send with the next fetch
    /// of the same window once these are stored.
    case fetched([ProviderPublication], validators: ProviderValidators)

    /// The publications, or `nil` when not modified.
    public var publications: [ProviderPublication]? { if case .fetched(let publications, _) = self { publications } else { nil } }
}

/// The validators of a fetch's good answers, by request URL: what makes the next fetch of the same
/// window conditional.
///
/// They are the caller's to keep: pass them back only once the publications they came with are
/// stored, so that a fetch that failed later (in the ingest) is not answered 304 next time. A value
/// holds the URLs of one fetch only; keep one per window fetched repeatedly.
public struct ProviderValidators: Sendable, Equatable {
    /// One URL's validators.
    public struct Entry: Sendable, Equatable {
        /// `ETag` of the answer, sent as `If-None-Match`.
        public var etag: String?
        /// `Last-Modified` of the answer, sent as `If-Modified-Since`.
        public var lastModified: String?
        /// The answer's publications, kept when the fetch made several requests: an unchanged
        /// answer among changed ones contributes these.
        var publications: [ProviderPublication]?
    }

    /// The entries by request URL.
    public internal(set) var entries: [String: Entry] = [:]

    /// No validators: the next fetch is unconditional.
    public init() {}

    /// The validators of one request's answer, remembered from an earlier process (a fetch record).
    public init(url: String, etag: String?, lastModified: String?) {
        if etag != nil || lastModified != nil { entries[url] = Entry(etag: etag, lastModified: lastModified) }
    }

    /// The one URL's validators, when they are of one request.
    public var single: (etag: String?, lastModified: String?)? {
        guard entries.count == 1, let entry = entries.first?.value else { return nil }
        return (entry.etag, entry.lastModified)
    }

    /// Whether no URL has validators.
    public var isEmpty: Bool { entries.isEmpty }
}

extension PublishedQuote {
    /// Whether `other` gives this currency the same figure: the same unit and direction, and an equal
    /// value whatever the trailing zeros of either text.
    func isSameFigure(as other: PublishedQuote) -> Bool {
        guard currency == other.currency, unit == other.unit, direction == other.direction else { return false }
        if value == other.value { return true }
        guard let mine = ExactDecimal(value), let theirs = ExactDecimal(other.value) else { return false }
        return mine == theirs
    }
}
