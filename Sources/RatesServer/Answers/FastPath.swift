import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import RatesCore
import RatesIngest
import Synchronization

/// Answers `GET`s of prepared answers and of the data routes straight from the connection's pipeline.
///
/// Handing a request to the application costs far more than its answer (a task, the router, the
/// middleware chain), so ``FastPathHandler`` asks this first and writes the answer on the event
/// loop: an answer the cache holds for the current generation, or a data route's answer built
/// here by ``DataAnswers`` in microseconds (a time series only when short: ``DataAnswers/isCheap(_:parameter:query:)``)
/// and stored in the cache. Whatever it declines goes the normal way: errors (the application
/// answers them as problems), other routes and methods, long time series, and everything while
/// API keys or rate limits are configured, since those are checked by middleware. Answers are the
/// same bytes and headers the routes send, CORS headers included (the same ``CORSPolicy``),
/// counted in the same metrics.
struct FastPath: Sendable {
    let state: ServerState
    let cache: ResponseCache
    let answers: DataAnswers
    let cachePolicy: CacheControlPolicy
    let metrics: ServerMetrics
    let cors: CORSPolicy
    let maxURILength: Int
    private let dates = HTTPDateCache()

    init(
        state: ServerState, cache: ResponseCache, answers: DataAnswers, cachePolicy: CacheControlPolicy, metrics: ServerMetrics,
        cors: CORSPolicy, configuration: ServerConfiguration
    ) {
        self.state = state
        self.cache = cache
        self.answers = answers
        self.cachePolicy = cachePolicy
        self.metrics = metrics
        self.cors = cors
        maxURILength = configuration.maxURILength
    }

    /// The answer to `request` when it is prepared or a data route's that builds without error, else `nil`.
    ///
    /// Only keep-alive HTTP/1.1 `GET`s are answered here: anything that ends the connection or
    /// needs the older protocol's rules is left to the framework.
    func answer(to request: HTTPRequestHead) -> (head: HTTPResponseHead, body: ByteBuffer?)? {
        guard request.method == .GET, request.version == .http1_1, request.isKeepAlive, request.uri.utf8.count <= maxURILength,
              !Self.hasBody(request)
        else { return nil }
        let start = ContinuousClock.now
        let snapshot = state.snapshot
        guard !snapshot.isEmpty else { return nil }
        let freshness = cachePolicy.freshness(of: snapshot, confirmed: state.isDataConfirmed)
        let acceptsGzip = PreparedAnswer.acceptsGzip(request.headers["Accept-Encoding"])
        guard let entry = cache.cached(for: request.uri, generation: freshness.generation, gzip: acceptsGzip) ?? built(for: request.uri, snapshot: snapshot, freshness: freshness, gzip: acceptsGzip)
        else { return nil }
        let conditions = request.headers["If-None-Match"]
        let prepared = PreparedAnswer(
            ifNoneMatch: conditions.count < 2 ? conditions.first : conditions.joined(separator: ", "), acceptsGzip: acceptsGzip, entry: entry,
            freshness: freshness, policy: cachePolicy)

        var headers = HTTPHeaders()
        headers.reserveCapacity(13)
        prepared.forEachHeader { headers.add(name: $0.rawName, value: $1) }
        cors.forEachHeader(path: request.uri.prefix(while: { $0 != "?" }), origin: request.headers.first(name: "Origin")) {
            headers.add(name: $0.rawName, value: $1)
        }
        if let body = prepared.body { headers.add(name: "Content-Length", value: String(body.readableBytes)) }
        // The caller's own ID when it is sane, as the application's answers do (RequestIDMiddleware).
        let incomingID = request.headers.first(name: "X-Request-ID")
        headers.add(name: "X-Request-ID", value: incomingID.flatMap { RequestIDMiddleware<RatesRequestContext>.isAcceptable($0) ? $0 : nil } ?? RequestID().description)
        headers.add(name: "Date", value: dates.now)
        headers.add(name: "Server", value: "rates-relay")
        let head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: prepared.status.code), headers: headers)

        if entry.route == .sync { metrics.recordSync(notModified: prepared.status == .notModified) }
        metrics.recordRequest(route: entry.route.path, method: "GET", status: prepared.status.code, duration: start.duration(to: .now))
        return (head, prepared.body)
    }
}

extension FastPath {
    /// Whether `request` announces a body: such a `GET` is left to the application, whose
    /// middleware refuses bodies over the limit before anything is answered.
    static func hasBody(_ request: HTTPRequestHead) -> Bool {
        request.headers.contains(name: "Transfer-Encoding") || request.headers["Content-Length"].contains { $0 != "0" }
    }

    /// A data route's answer to `target`, built and stored; `nil` for other routes, long time
    /// series and requests the route refuses (the application answers those).
    private func built(for target: String, snapshot: RatesSnapshot, freshness: Freshness, gzip: Bool) -> ResponseCache.Entry? {
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        guard let (route, parameter) = DataAnswers.route(ofPath: path) else { return nil }
        let query = QueryParameters(target: target)
        guard answers.isCheap(route, parameter: parameter, query: query),
              let entry = try? answers.entry(route, parameter: parameter, query: query, snapshot: snapshot, freshness: freshness)
        else { return nil }
        return cache.store(entry, for: target, generation: freshness.generation, gzip: gzip)
    }
}

/// The `Date` header value, formatted once a second.
private final class HTTPDateCache: Sendable {
    private let cached = Mutex<(second: Int, text: String)>((0, ""))

    var now: String {
        let date = Date()
        let second = Int(date.timeIntervalSince1970)
        if let text = cached.withLock({ $0.second == second ? $0.text : nil }) { return text }
        let text = Self.imfFixdate(date)
        cached.withLock { $0 = (second, text) }
        return text
    }

    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7), by arithmetic: a `DateFormatter`
    /// would load ICU's calendar machinery every second.
    private static func imfFixdate(_ date: Date) -> String {
        let day = Day(containing: date)
        let (year, month, dayOfMonth) = day.parts
        let time = Int(date.timeIntervalSince1970.rounded(.down)) - day.dayNumber * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(weekdays[day.isoWeekday - 1]), \(two(dayOfMonth)) \(months[month - 1]) \(year) "
            + "\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }
}
