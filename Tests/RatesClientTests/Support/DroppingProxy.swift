import AsyncHTTPClient
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Synchronization

/// A real HTTP proxy on loopback in front of the server that can cut a response off halfway
/// through its body, the way a dropped connection does.
final class DroppingProxy: Sendable {
    private struct Dropped: Error {}

    private let drops = Mutex(0)
    private let forwarded = Mutex<[String]>([])

    /// Cuts the next `count` responses after half their body.
    func dropNext(_ count: Int = 1) { drops.withLock { $0 = count } }

    /// Request targets (`/v1/sync?cursor=…`) forwarded so far.
    var requests: [String] { forwarded.withLock { $0 } }

    /// Runs the proxy on a free loopback port, forwarding to `target` (`http://127.0.0.1:8080/`),
    /// for the duration of `body`, which gets the proxy's own base URL.
    func run<Value: Sendable>(forwardingTo target: String, _ body: @Sendable (String) async throws -> Value) async throws -> Value {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let router = Router()
        router.get("**") { request, _ in try await self.forward(request, to: target, through: http) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        do {
            let value = try await app.test(.live) { client in try await body("http://127.0.0.1:\(client.port!)/") }
            try await http.shutdown()
            return value
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func forward(_ request: Request, to target: String, through http: HTTPClient) async throws -> Response {
        forwarded.withLock { $0.append(request.uri.string) }
        var outgoing = HTTPClientRequest(url: target + request.uri.string.drop { $0 == "/" })
        for field in request.headers where !["host", "connection"].contains(field.name.canonicalName) {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        let answer = try await http.execute(outgoing, timeout: .seconds(30))
        let body = try await answer.body.collect(upTo: 64 << 20)
        var headers = HTTPFields()
        for header in answer.headers where !["content-length", "transfer-encoding", "connection"].contains(header.name.lowercased()) {
            if let name = HTTPField.Name(header.name) { headers.append(HTTPField(name: name, value: header.value)) }
        }
        let status = HTTPResponse.Status(code: Int(answer.status.code))
        let drop = drops.withLock { count in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
        guard drop, let half = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2) else {
            return Response(status: status, headers: headers, body: .init(byteBuffer: body))
        }
        // The status line and half the body go out; then the connection closes.
        return Response(status: status, headers: headers, body: ResponseBody { writer in
            try await writer.write(half)
            throw Dropped()
        })
    }
}
