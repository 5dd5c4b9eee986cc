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
/// counted in the same metrics. It also tells ``FastPathHandler`` when a request opens an event
/// stream (`/v1/events`), which the connection then carries itself.
final class FastPath: Sendable {
    let state: ServerState
    let cache: ResponseCache
    let answers: DataAnswers
    let cachePolicy: CacheControlPolicy
    let metrics: ServerMetrics
    let cors: CORSPolicy
    let maxURILength: Int
    /// How many `/v1/events` subscribers may register (at the state's ``ServerState/events``).
    let maxEventSubscribers: Int
    private let dates = HTTPDateCache()
    private let recentAnswers: RecentAnswers
    private let requestIDs = RequestIDSequence()

    init(
        state: ServerState, cache: ResponseCache, answers: DataAnswers, cachePolicy: CacheControlPolicy, metrics: ServerMetrics,
        cors: CORSPolicy, configuration: ServerConfiguration
    ) {
        self.state = state
        self.cache = cache
        recentAnswers = RecentAnswers(capacity: cache.capacity)
        self.answers = answers
        self.cachePolicy = cachePolicy
        self.metrics = metrics
        self.cors = cors
        maxURILength = configuration.maxURILength
        maxEventSubscribers = configuration.maxEventSubscribers
    }

    /// An answer as the bytes to send: its head (status line and headers), then its body, if any.
    struct Answer {
        var head: ByteBuffer
        var body: ByteBuffer?
    }

    /// The answer to `request`, when it is prepared or a data route's that builds without error, else `nil`.
    ///
    /// Only keep-alive HTTP/1.1 `GET`s are answered here: anything that ends the connection or
    /// needs the older protocol's rules is left to the framework. The head is written as NIO's
    /// encoder would frame it: `Content-Length` for a body, nothing for a 304. An answer given
    /// just before to the same target is sent again from ``RecentAnswers`` (unless its CORS
    /// headers depend on the request's `Origin`), with this request's ID and date.
    func answer(to request: HTTPRequestHead, allocator: ByteBufferAllocator) -> Answer? {
        guard request.method == .GET, request.version == .http1_1, request.uri.utf8.count <= maxURILength else { return nil }
        let fields = RequestFields(request.headers)
        // Prepared answers here are JSON: a client preferring another format is answered by the route.
        guard fields.isKeepAlive, !fields.hasBody, !AnswerFormat.namesAnotherFormat(fields.accept) || AnswerFormat.negotiated(fields.accept) == .json else { return nil }
        let start = ContinuousClock.now
        let snapshot = state.snapshot
        guard !snapshot.isEmpty else { return nil }
        let freshness = cachePolicy.freshness(of: snapshot, confirmed: state.isDataConfirmed)
        let acceptsGzip = PreparedAnswer.acceptsGzip(fields.acceptEncoding)

        var isPreparedNow = false
        func prepare() -> RecentAnswers.Answer? {
            isPreparedNow = true
            let path = Self.path(of: request.uri)
            guard let entry = cache.cached(for: request.uri, generation: freshness.generation, gzip: acceptsGzip)
                ?? built(for: request.uri, path: path, snapshot: snapshot, freshness: freshness, gzip: acceptsGzip)
            else { return nil }
            let prepared = PreparedAnswer(ifNoneMatch: fields.ifNoneMatch, acceptsGzip: acceptsGzip, entry: entry, freshness: freshness, policy: cachePolicy)
            var head = allocator.buffer(capacity: 512)
            head.writeStaticString("HTTP/1.1 ")
            head.writeString(String(prepared.status.code))
            head.writeStaticString(" ")
            head.writeString(prepared.status.reasonPhrase)
            head.writeStaticString("\r\n")
            let header = { (name: HTTPField.Name, value: String) in Self.writeHeader(name, value, into: &head) }
            prepared.forEachHeader(header)
            cors.forEachHeader(path: path, origin: fields.origin, header)
            if let body = prepared.body { header(.contentLength, String(body.readableBytes)) }
            return RecentAnswers.Answer(
                head: head, body: prepared.body, route: entry.route, isNotModified: prepared.status == .notModified,
                recorder: metrics.requestRecorder(route: entry.route.path, method: "GET", status: prepared.status.code))
        }
        let key = RecentAnswers.Key(
            target: request.uri, generation: freshness.generation, acceptsGzip: acceptsGzip, ifNoneMatch: fields.ifNoneMatch,
            etag: freshness.etag, cacheControl: freshness.untilNextPublication)
        guard let answer = fields.origin != nil && cors.variesByOrigin ? prepare() : recentAnswers.answer(for: key, make: prepare) else { return nil }
        // A recent answer is a prepared one served again: the cache's lookup counts it as a hit.
        if !isPreparedNow { cache.metrics?.recordCacheLookup(hit: true) }

        var head = allocator.buffer(capacity: answer.head.readableBytes + 128)
        head.writeImmutableBuffer(answer.head)
        writeClosingHeaders(requestID: fields.requestID, into: &head)

        if answer.route == .sync { metrics.recordSync(notModified: answer.isNotModified) }
        answer.recorder.record(duration: start.duration(to: .now))
        return Answer(head: head, body: answer.body)
    }

    // MARK: - Event streams

    /// Whether `request` asks for the event stream as the fast path serves it: a keep-alive
    /// HTTP/1.1 `GET` of `/v1/events` without a body. ``FastPathHandler`` then carries the stream
    /// on the connection itself: a subscriber costs a registration, not a request in the application.
    func isEventStream(_ request: HTTPRequestHead) -> Bool {
        guard request.method == .GET, request.version == .http1_1, Self.path(of: request.uri) == Route.events.path else { return false }
        let fields = RequestFields(request.headers)
        return fields.isKeepAlive && !fields.hasBody
    }

    /// The head of an event stream's answer, as the route's (`200`, `text/event-stream`, `no-cache`,
    /// chunked, the CORS headers), and counts the request.
    func eventStreamHead(for request: HTTPRequestHead, allocator: ByteBufferAllocator) -> ByteBuffer {
        let fields = RequestFields(request.headers)
        var head = allocator.buffer(capacity: 512)
        head.writeStaticString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n")
        cors.forEachHeader(path: Route.events.path, origin: fields.origin) { Self.writeHeader($0, $1, into: &head) }
        writeClosingHeaders(requestID: fields.requestID, into: &head)
        metrics.requestRecorder(route: Route.events.path, method: "GET", status: 200).record(duration: .zero)
        return head
    }

    // MARK: - Heads

    /// The path of a request target, found by bytes: iterating a String's Characters would run
    /// grapheme breaking on every request.
    static func path(of target: String) -> Substring {
        target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
    }

    /// One header line of a head.
    static func writeHeader(_ name: HTTPField.Name, _ value: String, into head: inout ByteBuffer) {
        head.writeString(name.rawName)
        head.writeStaticString(": ")
        head.writeString(value)
        head.writeStaticString("\r\n")
    }

    /// The lines every head written here ends with: `X-Request-ID` (the caller's own `requestID`
    /// when it is sane, as the application's answers keep it: RequestIDMiddleware), `Date` and
    /// `Server`, then the blank line.
    func writeClosingHeaders(requestID: String?, into head: inout ByteBuffer) {
        let requestID = requestID.flatMap { RequestIDMiddleware<RatesRequestContext>.isAcceptable($0) ? $0 : nil } ?? requestIDs.next()
        head.writeStaticString("X-Request-ID: ")
        head.writeString(requestID)
        head.writeStaticString("\r\nDate: ")
        head.writeString(dates.now)
        head.writeStaticString("\r\nServer: rates-relay\r\n\r\n")
    }

    /// The request headers the fast path reads, found in one pass over the request's headers.
    struct RequestFields {
        var accept: [String] = []
        var acceptEncoding: [String] = []
        /// Every `If-None-Match` value, joined by commas.
        var ifNoneMatch: String?
        var origin: String?
        var requestID: String?
        /// A body is announced: such a `GET` is left to the application, whose middleware
        /// refuses bodies over the limit before anything is answered.
        var hasBody = false
        /// HTTP/1.1's default, unless a `Connection` header says `close`.
        var isKeepAlive = true

        init(_ headers: HTTPHeaders) {
            for (name, value) in headers {
                switch name.utf8.count {
                case 6 where name.caseInsensitiveEquals("Origin"):
                    if origin == nil { origin = value }
                case 6 where name.caseInsensitiveEquals("Accept"):
                    accept.append(value)
                case 10 where name.caseInsensitiveEquals("Connection"):
                    if value.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces).caseInsensitiveEquals("close") }) {
                        isKeepAlive = false
                    }
                case 12 where name.caseInsensitiveEquals("X-Request-ID"):
                    if requestID == nil { requestID = value }
                case 13 where name.caseInsensitiveEquals("If-None-Match"):
                    ifNoneMatch = ifNoneMatch.map { $0 + ", " + value } ?? value
                case 14 where name.caseInsensitiveEquals("Content-Length"):
                    if value != "0" { hasBody = true }
                case 15 where name.caseInsensitiveEquals("Accept-Encoding"):
                    acceptEncoding.append(value)
                case 17 where name.caseInsensitiveEquals("Transfer-Encoding"):
                    hasBody = true
                default:
                    break
                }
            }
        }
    }

    /// A data route's answer to `target` (whose path is `path`), built and stored, its cache miss
    /// counted; `nil` for other routes, long time series and requests the route refuses (the application answers those).
    private func built(for target: String, path: Substring, snapshot: RatesSnapshot, freshness: Freshness, gzip: Bool) -> ResponseCache.Entry? {
        guard let (route, parameter) = DataAnswers.route(ofPath: path) else { return nil }
        let query = QueryParameters(target: target)
        guard answers.isCheap(route, parameter: parameter, query: query),
              let entry = try? answers.entry(route, parameter: parameter, query: query, snapshot: snapshot, freshness: freshness)
        else { return nil }
        cache.metrics?.recordCacheLookup(hit: false)
        return cache.insert(entry, for: target, generation: freshness.generation, gzip: gzip)
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

/// Request IDs for answers given on the fast path: a random prefix per process and a counter,
/// 32 hex digits like the framework's own IDs (`RequestID`), made without its string concatenations.
private final class RequestIDSequence: Sendable {
    private let prefix = UInt64.random(in: .min ... .max)
    private let counter = Atomic<UInt64>(UInt64.random(in: .min ... .max))

    func next() -> String {
        let (value, _) = counter.wrappingAdd(1, ordering: .relaxed)
        return String(unsafeUninitializedCapacity: 32) { digits in
            for index in 0..<32 {
                let nibble = UInt8(truncatingIfNeeded: (index < 16 ? prefix : value) >> UInt64(60 - 4 * (index % 16))) & 0xF
                digits[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 32
        }
    }
}

extension StringProtocol {
    /// ASCII case-insensitive equality, as header names compare.
    func caseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
        }
    }
}
