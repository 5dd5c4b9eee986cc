import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Synchronization

/// Answers requests whose answer is already prepared, straight from the connection's pipeline.
///
/// The data changes once a day, so almost every request is a `GET` for bytes the cache holds
/// for the current dataset version. Handing each to the application costs far more than the
/// answer itself (a task, the router, the middleware chain), so ``FastPathHandler`` asks this
/// first and writes the answer on the event loop. Whatever it declines goes the normal way:
/// first requests for a target, errors, other methods, and everything while API keys, rate
/// limits or (for requests with an `Origin`) CORS are configured, since those are checked by
/// middleware. Answers are the same bytes and headers the routes send, counted in the same metrics.
struct FastPath: Sendable {
    let state: ServerState
    let cache: ResponseCache
    let cachePolicy: CacheControlPolicy
    let metrics: ServerMetrics
    let maxURILength: Int
    let corsOrigins: Bool
    private let dates = HTTPDateCache()

    init(state: ServerState, cache: ResponseCache, cachePolicy: CacheControlPolicy, metrics: ServerMetrics, configuration: ServerConfiguration) {
        self.state = state
        self.cache = cache
        self.cachePolicy = cachePolicy
        self.metrics = metrics
        maxURILength = configuration.maxURILength
        corsOrigins = !configuration.corsOrigins.isEmpty
    }

    /// The answer to `request` as the bytes to send (the encoded head, then the body), when it
    /// is prepared; else `nil`.
    ///
    /// Only keep-alive HTTP/1.1 `GET`s are answered here: anything that ends the connection or
    /// needs the older protocol's rules is left to the framework.
    func answer(to request: HTTPRequestHead, allocator: ByteBufferAllocator) -> (head: ByteBuffer, body: ByteBuffer?)? {
        guard request.method == .GET, request.version == .http1_1, request.isKeepAlive, request.uri.utf8.count <= maxURILength,
              !(corsOrigins && request.headers.contains(name: "Origin"))
        else { return nil }
        let start = ContinuousClock.now
        let snapshot = state.snapshot
        guard !snapshot.isEmpty, let entry = cache.cached(for: request.uri, version: snapshot.version) else { return nil }
        let conditions = request.headers["If-None-Match"]
        let prepared = PreparedAnswer(
            ifNoneMatch: conditions.isEmpty ? nil : conditions.joined(separator: ", "), acceptEncoding: request.headers["Accept-Encoding"],
            body: entry.body, gzipped: entry.gzipped, etag: snapshot.etag, gzipEtag: snapshot.gzipEtag,
            cacheControl: cachePolicy.value(for: entry.caching, snapshot: snapshot))

        var head = allocator.buffer(capacity: 384)
        head.writeStaticString(prepared.status == .notModified ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n")
        for field in prepared.headers { head.writeHeader(field.name.rawName, field.value) }
        if let body = prepared.body { head.writeHeader("Content-Length", String(body.readableBytes)) }
        head.writeHeader("X-Request-ID", RequestID().description)
        head.writeHeader("Date", dates.now)
        head.writeStaticString("Server: rates-relay\r\n\r\n")

        if entry.route == "/v1/sync" { metrics.recordSync(notModified: prepared.status == .notModified) }
        metrics.recordRequest(route: entry.route, method: "GET", status: prepared.status.code, duration: start.duration(to: .now))
        return (head, prepared.body)
    }
}

extension ByteBuffer {
    /// Writes one `name: value` header line.
    fileprivate mutating func writeHeader(_ name: String, _ value: String) {
        writeString(name)
        writeStaticString(": ")
        writeString(value)
        writeStaticString("\r\n")
    }
}

/// The `Date` header value, formatted once a second.
private final class HTTPDateCache: Sendable {
    private let cached = Mutex<(second: Int, text: String)>((0, ""))

    var now: String {
        let date = Date()
        let second = Int(date.timeIntervalSince1970)
        if let text = cached.withLock({ $0.second == second ? $0.text : nil }) { return text }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let text = formatter.string(from: date)
        cached.withLock { $0 = (second, text) }
        return text
    }
}
