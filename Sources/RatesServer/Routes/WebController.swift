import Hummingbird

/// `GET /`: the web page (rates, converter, chart, source health), and `GET /web/{file}`: its
/// script, style sheet and icon, answered from the files ``WebAssets`` prepared at start-up.
///
/// Every file goes out with the page's `Content-Security-Policy` and `X-Content-Type-Options: nosniff`.
struct WebController<Context: RequestContext>: Sendable {
    let assets: WebAssets

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.on(.page) { request, _ in try answer(WebAssets.pageName, request: request) }
        routes.on(.webFile) { request, context in try answer(context.parameters.get("file") ?? "", request: request) }
        return routes
    }

    func answer(_ name: String, request: Request) throws(Problem) -> Response {
        guard let file = assets.files[name] else {
            throw Problem(.notFound, "The web page has no file '\(name.prefix(40))'.")
        }
        var response = file.answer(requestHeaders: request.headers).response
        response.headers[.contentSecurityPolicy] = WebAssets.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
