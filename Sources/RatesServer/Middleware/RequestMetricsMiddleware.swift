import Hummingbird

/// Counts every answer by route, method and status, with the time the handler took to answer.
///
/// Runs outside ``ProblemMiddleware``, so errors are counted with the status the client got.
/// Requests that match no route count under the router's `NotFound`: arbitrary paths never become labels.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.requestRecorder(route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: response.status.code)
            .record(duration: start.duration(to: .now))
        return response
    }
}
