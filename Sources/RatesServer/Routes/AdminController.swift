import Hummingbird
import RatesIngest
import RatesStore

/// Operator endpoints, behind a bearer token. Without a configured token they do not exist (404).
struct AdminController<Context: RequestContext>: Sendable {
    let token: String?
    let coordinator: FetchCoordinator

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.on(.adminRefresh) { request, _ in try await refresh(request) }
        return routes
    }

    /// Answers with the outcome of a fetch that started after the request arrived (see `FetchCoordinator.refresh()`).
    func refresh(_ request: Request) async throws(Problem) -> Response {
        try authorize(request)
        let run = await coordinator.refresh().run
        var json = JSONWriter()
        json.object { json in
            json.field("outcome", string: run.outcome.rawValue)
            json.field("latestDate", optionalString: run.latestDay)
            json.field("rowsChanged", number: String(run.rowsChanged))
            json.field("detail", optionalString: run.detail)
        }
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: json.buffer))
    }

    private func authorize(_ request: Request) throws(Problem) {
        guard let token else { throw Problem(.notFound, "Operator endpoints are off: no admin token is configured.") }
        let presented = request.headers[.authorization].flatMap { header -> Substring? in
            let parts = header.split(separator: " ", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "bearer" ? parts[1] : nil
        }
        guard let presented, constantTimeEquals(presented.utf8, token.utf8) else {
            throw Problem(.unauthorized, "A valid 'Authorization: Bearer <token>' header is required.",
                          headers: [.wwwAuthenticate: "Bearer realm=\"rates-relay\""])
        }
    }
}
