import Hummingbird
import RatesCore
import RatesIngest
import RatesStore

/// Operator endpoints, behind a bearer token. Without a configured token they do not exist (404).
struct AdminController<Context: RequestContext>: Sendable {
    let token: String?
    /// Every provider the server fetches, the ECB's first.
    let coordinators: FetchCoordinators
    /// How long a refresh waits for its fetches before answering `202 Accepted` (`admin.refresh.wait`).
    let refreshWait: Duration

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.on(.adminRefresh) { request, _ in try await refresh(request) }
        return routes
    }

    /// Fetches every provider the server fetches, or those `providers=` names (``QueryParameters/providers()``;
    /// naming one the server does not fetch is a problem), and answers with the outcome of a fetch
    /// of each that started after the request arrived (see `FetchCoordinator.refresh()`): all of
    /// them together at the top level, each provider's under `providers`.
    ///
    /// It waits `refreshWait` at most: when some fetch is still running then, the answer is
    /// `202 Accepted` (`outcome: accepted`, those providers' `outcome: fetching`), the fetches go on,
    /// and each provider's `lastFetch` in `/v1/providers` (the `Location`: the one provider's own
    /// when one is pending) shows how they end.
    func refresh(_ request: Request) async throws(Problem) -> Response {
        try authorize(request)
        let named = try QueryParameters(request: request).providers()
        let fetched = coordinators.keys
        if let other = named?.sorted().first(where: { !fetched.contains($0) }) {
            throw .invalid(
                "providers", "'providers' names \(other), which this server does not fetch; it fetches \(fetched.joined(separator: ", ")).")
        }
        // The keys named, in the order of the server's providers.
        let keys = named.map { named in fetched.filter(named.contains) }
        let refresh = await coordinators.refresh(keys, answeringWithin: refreshWait)
        let accepted = !refresh.pending.isEmpty
        let body = JSONWriter.object { json in
            json.field("outcome", string: accepted ? "accepted" : refresh.outcome.rawValue)
            json.field("latestDate", optionalString: refresh.latestPublication?.description)
            json.field("rowsChanged", number: String(refresh.rowsChanged))
            let still = "still fetching after \(refreshWait): \(refresh.pending.joined(separator: ", ")); each one's lastFetch in /v1/providers tells how it ends"
            json.field("detail", optionalString: accepted ? [still, refresh.detail].compactMap { $0 }.joined(separator: "; ") : refresh.detail)
            json.field("providers") { json in
                for report in refresh.reports {
                    json.field(report.run.provider) { json in
                        json.field("outcome", string: report.run.outcome.rawValue)
                        json.field("latestDate", optionalString: report.latestPublication?.description)
                        json.field("rowsChanged", number: String(report.run.rowsChanged))
                        json.field("detail", optionalString: report.run.detail)
                    }
                }
                for key in refresh.pending {
                    json.field(key) { json in json.field("outcome", string: "fetching") }
                }
            }
        }
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        if accepted { headers[.location] = Route.providers.path + (refresh.pending.count == 1 ? "/" + refresh.pending[0] : "") }
        return Response(status: accepted ? .accepted : .ok, headers: headers, body: .init(byteBuffer: body))
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
