import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import RatesUpstream
import Synchronization

/// A real HTTP server on loopback that answers any provider's requests with the banks' real
/// recorded answers (`Tests/Fixtures/<bank>/…`), by path.
///
/// Tests name the paths it serves and what (``serve(_:query:_:)``): a fixture file, a status, a
/// body. A fixture is answered 200 with an `ETag`, or 304 when the request sends that `ETag` back
/// in `If-None-Match`; ``change()`` changes every `ETag`, as a new publication would. Anything not
/// named is 404. It counts what was asked, and can hold every answer until released.
package final class FakeProviderUpstream: Sendable {
    /// What a path is answered with.
    package enum Answer: Sendable {
        /// 200 with this file of `Tests/Fixtures` (`"nbp-poland/tables_A_2026-03-01_2026-03-05.json"`), or 304.
        case fixture(String)
        /// This status, with a short HTML body.
        case status(Int)
        /// 200 with this body, without validators.
        case body(String)
        /// No answer until ``release()``, then 503: a source that accepts the request and hangs.
        case hang
    }

    /// One request as received.
    package struct Received: Sendable {
        package var method: String
        /// The path and, when there is one, `?` and the query.
        package var target: String
        /// The `If-None-Match` sent, if any.
        package var ifNoneMatch: String?
    }

    private struct Route {
        var path: String
        var query: [String]
        var body: [String]
        var answer: Answer

        func matches(path requested: String, query requestedQuery: String, body requestedBody: String) -> Bool {
            let pathMatches = path.hasSuffix("*") ? requested.hasPrefix(path.dropLast()) : requested == path
            return pathMatches && query.allSatisfy(requestedQuery.contains) && body.allSatisfy(requestedBody.contains)
        }
    }

    private struct State {
        var routes: [Route] = []
        var received: [Received] = []
        var revision = 0
        var pathRevisions: [String: Int] = [:]
        var held = false
        var hangsReleased = false
        /// Requests received and not yet answered, and the most there ever were at once.
        var inFlight = 0
        var maxInFlight = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Answers requests for `path` whose query contains every string of `query` and whose body every
    /// string of `body` (a SOAP operation, a form field) with `answer`.
    /// A `path` ending in `*` stands for every path starting with what comes before it. A later call for
    /// the same path, query and body replaces the earlier one (a test turning a file into a 500); of several
    /// that match a request, the last one made answers it.
    package func serve(_ path: String, query: [String] = [], body: [String] = [], _ answer: Answer) {
        state.withLock { state in
            state.routes.removeAll { $0.path == path && $0.query == query && $0.body == body }
            state.routes.append(Route(path: path, query: query, body: body, answer: answer))
        }
    }

    /// Changes the `ETag` of every path (or of `path` alone) from now on: the next conditional request
    /// gets the file again, as after a new publication.
    package func change(_ path: String? = nil) {
        state.withLock { state in
            if let path { state.pathRevisions[path, default: 0] += 1 } else { state.revision += 1 }
        }
    }

    /// Holds every answer from now on until ``release()``: requests are received and counted, then wait.
    package func hold() { state.withLock { $0.held = true } }

    /// Lets held requests and every later one be answered, and ends every ``Answer/hang``.
    package func release() {
        state.withLock { state in
            state.held = false
            state.hangsReleased = true
        }
    }

    /// The requests received so far, in order.
    package var received: [Received] { state.withLock { $0.received } }

    /// The most requests received and not yet answered at one moment, so far.
    package var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    /// How many requests were for a path starting with `prefix`.
    package func requestCount(_ prefix: String) -> Int { received.filter { $0.target.hasPrefix(prefix) }.count }

    /// Runs the server on a free loopback port for the duration of `body`, passing its base URL
    /// (`http://127.0.0.1:PORT`, no trailing slash).
    package func run<Value: Sendable>(_ body: @Sendable (String) async throws -> Value) async throws -> Value {
        let router = Router()
        router.on("**", method: .get) { request, _ in try await self.respond(to: request) }
        router.on("**", method: .post) { request, _ in try await self.respond(to: request) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(client.port!)")
        }
    }

    private func respond(to request: Request) async throws -> Response {
        var request = request
        let path = request.uri.path
        let query = request.uri.query ?? ""
        let body = String(buffer: try await request.collectBody(upTo: 1 << 20))
        let ifNoneMatch = request.headers[.ifNoneMatch]
        defer { state.withLock { $0.inFlight -= 1 } }
        let (route, revision) = state.withLock { state in
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            state.received.append(Received(method: request.method.rawValue, target: query.isEmpty ? path : path + "?" + query, ifNoneMatch: ifNoneMatch))
            let route = state.routes.last { $0.matches(path: path, query: query, body: body) }
            return (route, "\(state.revision).\(state.pathRevisions[path] ?? 0)")
        }
        while state.withLock({ $0.held }) { try await Task.sleep(for: .milliseconds(5)) }
        switch route?.answer {
        case nil:
            return Self.statusResponse(404)
        case .status(let code):
            return Self.statusResponse(code)
        case .body(let text):
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: text)))
        case .hang:
            while !state.withLock({ $0.hangsReleased }) { try await Task.sleep(for: .milliseconds(5)) }
            return Self.statusResponse(503)
        case .fixture(let name):
            let etag = "\"\(name)-\(revision)\""
            if ifNoneMatch == etag { return Response(status: .notModified, headers: [.eTag: etag]) }
            return Response(status: .ok, headers: [.eTag: etag], body: .init(byteBuffer: try Self.fixture(name)))
        }
    }

    private static func statusResponse(_ code: Int) -> Response {
        Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "<html><body>\(code)</body></html>")))
    }

    /// Overrides sending each provider's requests to `<root>/<key in lower case>` (`--upstream NBP=<root>/nbp`):
    /// NBP's `https://api.nbp.pl/api/exchangerates/tables/A/` becomes `<root>/nbp/api/exchangerates/tables/A/`.
    package static func overrides(root: String, _ keys: [String]) -> [String: UpstreamOverride] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0, try! UpstreamOverride(root + "/" + $0.lowercased())) })
    }

    /// The bytes of `Tests/Fixtures/NAME`.
    package static func fixture(_ name: String) throws -> ByteBuffer {
        ByteBuffer(bytes: try Fixtures.data(name))
    }
}
