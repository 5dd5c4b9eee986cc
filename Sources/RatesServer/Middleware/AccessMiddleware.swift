import HTTPTypes
import Hummingbird
import NIOCore

/// Checks every request before routing: request target length, body size, and for the data
/// endpoints (`/v1/`, and Frankfurter's at the root) the client's API key (when keys are
/// configured) and its rate limit, per key or else per peer IP address (without its port).
///
/// Operator endpoints (`/v1/admin/`) have their own bearer token and no rate limit; health,
/// readiness, metrics and the contract are open. Refusals are problems (401, 413, 414, 429) that
/// ``ProblemMiddleware`` answers.
struct AccessMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let maxURILength: Int
    let maxBodyBytes: Int
    let apiKeys: Set<String>
    let rateLimiter: RateLimiter?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.string.utf8.count <= maxURILength else {
            throw Problem(.uriTooLong, "The request target is longer than \(maxURILength) bytes.")
        }
        var request = request
        try await limitBody(of: &request)
        let path = Route.canonical(request.uri.path)
        guard Self.isGuarded(path) else { return try await next(request, context) }
        let key = request.headers[.apiKey]
        if !apiKeys.isEmpty {
            guard let key, apiKeys.contains(where: { constantTimeEquals(key.utf8, $0.utf8) }) else {
                throw Problem(.unauthorized, "A valid API key is required in the 'X-API-Key' header.", headers: [.wwwAuthenticate: "ApiKey realm=\"rates-relay\""])
            }
        }
        if let rateLimiter {
            // A known key identifies the client across addresses; otherwise its address does.
            let client = (apiKeys.isEmpty ? nil : key).map { "key:" + $0 } ?? "ip:" + (context.remoteAddress?.ipAddress ?? "unknown")
            if let wait = rateLimiter.acquire(for: client) {
                let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
                throw Problem(
                    .tooManyRequests, "More than \(rateLimiter.describe) from this client; retry after \(seconds) s.",
                    headers: [.retryAfter: String(seconds)])
            }
        }
        return try await next(request, context)
    }

    /// Refuses a body over `maxBodyBytes`: at once when `Content-Length` announces one, else
    /// (a chunked body) once that much has arrived. The refusal closes the connection, so the
    /// rest of the body is never read.
    private func limitBody(of request: inout Request) async throws {
        let tooLarge = Problem(
            .contentTooLarge, "The request body is larger than \(maxBodyBytes) bytes; no endpoint takes a body.", headers: [.connection: "close"])
        if let length = request.headers[.contentLength].flatMap({ Int($0) }) {
            guard length <= maxBodyBytes else { throw tooLarge }
        } else if request.headers[.transferEncoding] != nil {
            do {
                _ = try await request.collectBody(upTo: maxBodyBytes)
            } catch is NIOTooManyBytesError {
                throw tooLarge
            }
        }
    }

    /// Whether API keys and rate limits apply to `path`: the data API, ours under `/v1/` (but the
    /// admin endpoint, which has its token) and Frankfurter's at the root; not the operator
    /// endpoints or other root paths.
    static func isGuarded(_ path: String) -> Bool {
        if path.hasPrefix(Route.apiFolder) { return !path.hasPrefix(Route.adminFolder) }
        return DataAnswers.route(ofPath: path[...]) != nil
    }
}
