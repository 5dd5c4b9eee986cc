import Hummingbird
import Logging

/// Turns every error into an `application/problem+json` answer, so clients never see another error format.
///
/// `Problem`s pass through as they are; the framework's errors (unknown route, bad request)
/// keep their status (a 404 for a known path turns into 405 with `Allow`: ``Route/allowedMethods(for:)``);
/// anything else is logged and answered 500, which no input should reach.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return problem.response
        } catch let error as any HTTPResponseError where (400..<500).contains(error.status.code) {
            switch error.status {
            case .notFound:
                // 405 only when the path takes other methods: a route the router did not reach (a
                // trailing slash) may match a pattern that takes this very method.
                if let allowed = Route.allowedMethods(for: request.uri.path), !allowed.contains(request.method) {
                    let allow = allowed.map(\.rawValue).joined(separator: ", ")
                    return Problem(.methodNotAllowed, "\(request.method) is not allowed on \(request.uri.path); use \(allow).", headers: [.allow: allow])
                        .response
                }
                return Problem.noEndpoint(request.method, request.uri.path).response
            case .methodNotAllowed:
                return Problem(.methodNotAllowed, "\(request.method) is not allowed on \(request.uri.path).").response
            default:
                return Problem(.badRequest, error.status.reasonPhrase).response
            }
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            return Problem(.internalError, "The server failed to answer; the error was logged.").response
        }
    }
}
