import Hummingbird

/// Answers 405 with an `Allow` header when a known path is called with a method it does not take.
///
/// The router alone would answer 404, which tells a client the path is wrong when only the method is.
struct MethodNotAllowedRoutes<Context: RequestContext>: Sendable {
    /// Each path with the methods it does take.
    let allowed: [String: [HTTPRequest.Method]]

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        let candidates: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch]
        for (path, methods) in allowed {
            let allow = (methods + (methods.contains(.get) ? [.head] : [])).map(\.rawValue).joined(separator: ", ")
            for method in candidates where !methods.contains(method) {
                routes.on(RouterPath(path), method: method) { request, _ -> Response in
                    throw Problem(.methodNotAllowed, "\(request.method) is not allowed on \(request.uri.path); use \(allow).", headers: [.allow: allow])
                }
            }
        }
        return routes
    }
}
