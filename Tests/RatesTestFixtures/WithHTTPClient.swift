import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Runs `body` with `client`, then shuts the client down, whether `body` returned or threw.
///
/// An `HTTPClient` released without `shutdown()` stops the whole test process; a failing
/// expectation that throws must not take every other test down with it.
package func withHTTPClient<Value: Sendable>(_ client: HTTPClient, _ body: (HTTPClient) async throws -> Value) async throws -> Value {
    do {
        let value = try await body(client)
        try await client.shutdown()
        return value
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// One answer read whole: status, `ETag` and body.
package struct HTTPAnswer: Sendable {
    package var status: UInt
    package var etag: String?
    package var body: ByteBuffer
    /// The body parsed as a JSON object (empty when it is not one).
    package var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:] }
}

extension HTTPClient {
    /// GET `url`, with `If-None-Match` when given and not empty, read whole (at most `maxBytes`).
    package func answer(_ url: String, ifNoneMatch: String? = nil, timeout: Duration, maxBytes: Int) async throws -> HTTPAnswer {
        var request = HTTPClientRequest(url: url)
        if let ifNoneMatch, !ifNoneMatch.isEmpty { request.headers.add(name: "If-None-Match", value: ifNoneMatch) }
        let response = try await execute(request, timeout: .init(timeout))
        return HTTPAnswer(status: response.status.code, etag: response.headers.first(name: "ETag"), body: try await response.body.collect(upTo: maxBytes))
    }
}
