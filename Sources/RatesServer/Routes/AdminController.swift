import Hummingbird
import RatesCore
import RatesIngest
import RatesStore

/// Operator endpoints, behind a bearer token. Without a configured token they do not exist (404).
struct AdminController<Context: RequestContext>: Sendable {
    let token: String?
    /// Every provider the server fetches, the ECB's first.
    let coordinators: FetchCoordinators

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.on(.adminRefresh) { request, _ in try await refresh(request) }
        return routes
    }

    /// Fetches every provider the server fetches, or those `providers=` names, and answers with
    /// the outcome of a fetch of each that started after the request arrived (see `FetchCoordinator.refresh()`):
    /// all of them together at the top level, each provider's under `providers`.
    func refresh(_ request: Request) async throws(Problem) -> Response {
        try authorize(request)
        let keys = try QueryParameters(request: request).providers(among: coordinators.keys)
        let refresh = await coordinators.refresh(keys)
        let body = JSONWriter.object { json in
            json.field("outcome", string: refresh.outcome.rawValue)
            json.field("latestDate", optionalString: refresh.latestPublication?.description)
            json.field("rowsChanged", number: String(refresh.rowsChanged))
            json.field("detail", optionalString: refresh.detail)
            json.field("providers") { json in
                for report in refresh.reports {
                    json.field(report.run.provider) { json in
                        json.field("outcome", string: report.run.outcome.rawValue)
                        json.field("latestDate", optionalString: report.latestPublication?.description)
                        json.field("rowsChanged", number: String(report.run.rowsChanged))
                        json.field("detail", optionalString: report.run.detail)
                    }
                }
            }
        }
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: body))
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
