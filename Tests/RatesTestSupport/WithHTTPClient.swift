import AsyncHTTPClient

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
