import HTTPTypes

/// Which web pages may read the server's answers in a browser (CORS), decided once from the
/// configuration and applied alike by ``CORSPolicyMiddleware`` and by ``FastPath``, so an answer
/// carries the same CORS headers whichever way it is served.
///
/// - No origins configured and no API keys (the default): any page. Every answer says
///   `Access-Control-Allow-Origin: *`, whether or not the request names an `Origin`, so the
///   answer does not vary by origin and a shared cache keeps one copy for every page.
/// - Origins configured: pages of those origins only. An answer to a request from a listed
///   `Origin` names that origin, and every answer says `Vary: Origin`, so a cache never hands
///   one origin's answer to another. A `*` in the list allows any page, as above.
/// - API keys configured and no origins: no page. A key in a web page is visible to everyone
///   who opens it; an operator who wants browsers anyway lists their origins (or `*`).
///
/// Credentials are never allowed: no answer says `Access-Control-Allow-Credentials`, so browsers
/// send no cookies and a page can only read what any other client could. The operator endpoints
/// (`/v1/admin/`, `/healthz`, `/readyz`, `/metrics`) are for operators and orchestrators, not
/// pages: their answers carry no CORS headers and their preflights are refused.
///
/// - Configuration keys:
///   - `cors.origins` (list of strings, optional, default: none): the origins allowed, or `*`.
///   - `api.keys` / `api.keys.file` (secret list, optional, default: none): whether clients need keys.
struct CORSPolicy: Sendable, Equatable {
    /// The pages allowed to read answers.
    enum Allowed: Sendable, Equatable {
        /// No page: answers carry no CORS headers.
        case none
        /// Any page: `Access-Control-Allow-Origin: *`.
        case anyOrigin
        /// Pages of these origins (`https://app.example`), each named back to itself.
        case origins(Set<String>)
    }

    let allowed: Allowed

    /// Response headers pages may read besides the CORS-safelisted ones: the tag to send back in
    /// `If-None-Match`, whether the data is behind, how long to wait after a 429 or 503, and the
    /// ID to quote in a report.
    static let exposedHeaders = "ETag, Rates-Stale, Retry-After, X-Request-ID"
    /// Methods pages may use: the data endpoints only read.
    static let allowedMethods = "GET, HEAD"
    /// Request headers pages may send besides the CORS-safelisted ones.
    static let allowedHeaders = "If-None-Match, X-API-Key, X-Request-ID"
    /// Seconds a browser may reuse a preflight's answer before asking again.
    static let preflightMaxAge = "600"

    init(_ configuration: ServerConfiguration) {
        if configuration.corsOrigins.contains("*") {
            allowed = .anyOrigin
        } else if !configuration.corsOrigins.isEmpty {
            allowed = .origins(Set(configuration.corsOrigins))
        } else {
            allowed = configuration.apiKeys.isEmpty ? .anyOrigin : .none
        }
    }

    /// Whether an answer's CORS headers depend on the request's `Origin` (only listed origins are named back).
    var variesByOrigin: Bool {
        if case .origins = allowed { true } else { false }
    }

    /// Whether answers on `path` are meant for pages: every path but the operator endpoints.
    static func covers(_ path: some StringProtocol) -> Bool {
        if Route.hasEmptySegment(path) { return covers(Route.canonical(path)) }
        // Compared as bytes: this runs on every answer, and the paths compared with are ASCII.
        let bytes = path.utf8
        return !(bytes.starts(with: Route.adminFolder.utf8) || Route.operatorPaths.contains { bytes.elementsEqual($0.utf8) })
    }

    /// Calls `write` with each CORS header of the answer to a request for `path` whose `Origin`
    /// header is `origin`; preflights are answered by ``preflightHeaders(path:origin:)`` instead.
    func forEachHeader(path: some StringProtocol, origin: String?, _ write: (HTTPField.Name, String) -> Void) {
        guard Self.covers(path) else { return }
        switch allowed {
        case .none:
            return
        case .anyOrigin:
            write(.accessControlAllowOrigin, "*")
        case .origins(let origins):
            write(.vary, "Origin")
            guard let origin, origins.contains(origin) else { return }
            write(.accessControlAllowOrigin, origin)
        }
        write(.accessControlExposeHeaders, Self.exposedHeaders)
    }

    /// The headers of a `204` answer to a preflight (`OPTIONS` with `Origin` and
    /// `Access-Control-Request-Method`) for `path` from `origin`; `nil` when that page may not
    /// call `path`, and the request is answered as any other `OPTIONS` would be.
    func preflightHeaders(path: some StringProtocol, origin: String) -> HTTPFields? {
        guard Self.covers(path) else { return nil }
        var headers = HTTPFields()
        switch allowed {
        case .none:
            return nil
        case .anyOrigin:
            headers[.accessControlAllowOrigin] = "*"
        case .origins(let origins):
            guard origins.contains(origin) else { return nil }
            headers[.accessControlAllowOrigin] = origin
            headers[.vary] = "Origin"
        }
        headers[.accessControlAllowMethods] = Self.allowedMethods
        headers[.accessControlAllowHeaders] = Self.allowedHeaders
        headers[.accessControlMaxAge] = Self.preflightMaxAge
        return headers
    }
}
