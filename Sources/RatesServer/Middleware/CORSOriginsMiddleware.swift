import HTTPTypes
import Hummingbird

/// CORS for the configured browser origins: Hummingbird's `CORSMiddleware` (preflight
/// answers, `Access-Control-*` headers, `Vary: Origin`), applied only to requests whose
/// `Origin` is allowed. Other requests pass untouched, so browsers refuse them.
struct CORSOriginsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The allowed origins; `*` allows any.
    let origins: Set<String>
    static var exposedHeaders: [String] { ["ETag", "Retry-After", "X-Request-ID"] }
    private let cors = CORSMiddleware<Context>(
        allowOrigin: .originBased,
        allowHeaders: [.accept, .contentType, .ifNoneMatch, .authorization, .apiKey],
        allowMethods: [.get, .head, .post, .options],
        exposedHeaders: Self.exposedHeaders,
        maxAge: .seconds(600))

    /// ``exposedHeaders`` as the header value, joined once.
    private let exposedHeaderList = Self.exposedHeaders.joined(separator: ", ")

    init(origins: [String]) {
        self.origins = Set(origins)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], origins.contains("*") || origins.contains(origin) else {
            return try await next(request, context)
        }
        var response = try await cors.handle(request, context: context, next: next)
        if request.method != .options { response.headers[.accessControlExposeHeaders] = exposedHeaderList }
        return response
    }
}
