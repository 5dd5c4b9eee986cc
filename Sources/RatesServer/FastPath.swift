import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes
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

    /// The full answer to `request` when it is prepared, else `nil`.
    func answer(to request: HTTPRequest) -> (head: HTTPResponse, body: ByteBuffer?)? {
        guard request.method == .get, let target = request.path, target.utf8.count <= maxURILength,
              !(corsOrigins && request.headerFields[.origin] != nil),
              request.headerFields[.connection]?.lowercased().contains("close") != true
        else { return nil }
        let start = ContinuousClock.now
        let snapshot = state.snapshot
        guard !snapshot.isEmpty, let entry = cache.cached(for: target, version: snapshot.version) else { return nil }
        let prepared = PreparedAnswer(
            requestHeaders: request.headerFields, body: entry.body, gzipped: entry.gzipped, etag: snapshot.etag, gzipEtag: snapshot.gzipEtag,
            cacheControl: cachePolicy.value(for: entry.caching, snapshot: snapshot))
        var headers = prepared.headers
        headers[.contentLength] = String(prepared.body?.readableBytes ?? 0)
        headers[.requestID] = RequestID().description
        headers[.date] = dates.now
        headers[.server] = "rates-relay"
        if entry.route == "/v1/sync" { metrics.recordSync(notModified: prepared.status == .notModified) }
        metrics.recordRequest(route: entry.route, method: "GET", status: prepared.status.code, duration: start.duration(to: .now))
        return (HTTPResponse(status: prepared.status, headerFields: headers), prepared.body)
    }
}

/// A connection's fast path: answers what ``FastPath`` can on the event loop, passes the rest on.
///
/// HTTP/1.1 answers must go out in request order, so it answers only while no earlier request
/// of the connection is still with the application.
final class FastPathHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let fastPath: FastPath
    /// Requests handed to the application and not yet fully answered.
    private var pending = 0
    /// Whether the rest of the current request (its body and end) belongs to an answer given here.
    private var answeredHere = false

    init(fastPath: FastPath) {
        self.fastPath = fastPath
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if pending == 0, let answer = fastPath.answer(to: request) {
                answeredHere = true
                context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
                if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            pending += 1
            context.fireChannelRead(data)
        case .body:
            if !answeredHere { context.fireChannelRead(data) }
        case .end:
            if answeredHere {
                answeredHere = false
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { pending = max(0, pending - 1) }
        context.write(data, promise: promise)
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
