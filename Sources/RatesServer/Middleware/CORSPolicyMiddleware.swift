import HTTPTypes
import Hummingbird

/// Applies the ``CORSPolicy`` to what the application answers: answers preflights itself, before
/// any access check (a browser sends no API key with a preflight), and adds the policy's headers
/// to every other answer, problems included. ``FastPath`` applies the same policy to the answers
/// it gives in front of the application.
struct CORSPolicyMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: CORSPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let origin = request.headers[.origin]
        if request.method == .options, let origin, request.headers[.accessControlRequestMethod] != nil,
           let headers = policy.preflightHeaders(path: request.uri.path, origin: origin)
        {
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        policy.forEachHeader(path: request.uri.path, origin: origin) { response.headers.append(HTTPField(name: $0, value: $1)) }
        return response
    }
}
