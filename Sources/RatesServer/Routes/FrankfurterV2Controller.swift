import Hummingbird
import NIOCore
import RatesCore
import RatesStore
import RatesUpstream

/// Frankfurter's v2 API under `/v2`, for its existing clients (change the base URL only):
/// `/v2/rates` (and `/v2/rates.csv`), `/v2/rate/{base}/{quote}`, `/v2/currencies`,
/// `/v2/currency/{code}`, `/v2/providers`, `/v2/providers/{key}` and `/v2/providers/{key}/rates`,
/// errors in v2's shape (``Problem/frankfurterV2Response``).
///
/// The data routes are prepared answers like ours (``RatesController/dataResponse(_:route:parameter:)``,
/// built by ``DataAnswers/frankfurterV2Answer(_:parameter:query:snapshot:format:)``); `/v2/providers` is
/// `/v1/providers`' registry and holdings in v2's shape, `no-cache` with a tag of its bytes as that one is
/// (and `/v2/providers/{key}` one of them); `/v2/providers/{key}/rates` is `/v2/rates?providers={key}`.
struct FrankfurterV2Controller<Context: RequestContext>: Sendable {
    let rates: RatesController<Context>
    let providers: ProvidersController<Context>

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        for route in [Route.v2Rates, .v2RatesCSV, .v2Currencies] {
            routes.on(route) { request, _ in try await rates.answering(request) { answer(request, route: route) } }
        }
        routes.on(.v2Rate) { request, context in
            let pair = "\(context.parameters.get("base") ?? "")/\(context.parameters.get("quote") ?? "")"
            return try await rates.answering(request) { answer(request, route: .v2Rate, parameter: pair[...]) }
        }
        for (route, name) in [(Route.v2Currency, "code"), (.v2ProviderRates, "key")] {
            routes.on(route) { request, context in
                let parameter = context.parameters.get(name)?[...] ?? ""
                return try await rates.answering(request) { answer(request, route: route, parameter: parameter) }
            }
        }
        routes.on(.v2Providers) { request, _ in
            try await providers.store.offloaded { inV2Shape { () throws(Problem) in try providersAnswer(request) } }
        }
        routes.on(.v2Provider) { request, context in
            let key = context.parameters.get("key") ?? ""
            return try await providers.store.offloaded { inV2Shape { () throws(Problem) in try providersAnswer(request, key: key) } }
        }
        return routes
    }

    /// A v2 data route's prepared answer, or its error in v2's shape.
    func answer(_ request: Request, route: Route, parameter: Substring? = nil) -> Response {
        inV2Shape { () throws(Problem) in try rates.dataResponse(request, route: route, parameter: parameter) }
    }

    /// What `answer` answers, or its error in v2's shape.
    func inV2Shape(_ answer: () throws(Problem) -> Response) -> Response {
        do {
            return try answer()
        } catch {
            return error.frankfurterV2Response
        }
    }

    /// `/v2/providers`: each provider holding rates, by key, as v2 describes it: `rate_type` is the
    /// figure it contributes; we hold no links, so `data_url` and `terms_url` are `null`; `currencies`
    /// are those of its newest publication. With `key` (any letter case), that provider's object alone;
    /// 404 when no provider of that key holds rates.
    func providersAnswer(_ request: Request, key: String? = nil) throws(Problem) -> Response {
        let holdings = try providers.holdings()
        let now = providers.configuration.now()
        func write(_ key: String, _ held: RatesStore.ProviderHoldings, _ provider: ProviderIdentity, into json: inout JSONWriter) {
            json.field("key", string: key)
            json.field("name", string: provider.name)
            json.field("country_code", optionalString: provider.country)
            json.field("rate_type", string: provider.rateType)
            json.field("pivot_currency", string: provider.pivot.rawValue)
            json.field("data_url", optionalString: nil)
            json.field("terms_url", optionalString: nil)
            json.field("start_date", string: held.firstDay.description)
            json.field("end_date", string: held.latestDay.description)
            json.field("publishes_missed", number: String(provider.schedule.publicationsDue(after: held.latestDay, asOf: now)))
            json.field("publish_cadence", string: provider.schedule.cadence.rawValue)
            json.field("currencies", strings: held.latestCurrencies.map(\.rawValue))
        }
        let body: ByteBuffer
        if let key {
            guard let provider = ProviderRegistry.entry(key.uppercased())?.identity, let held = holdings[provider.key] else {
                throw Problem(.notFound, "No provider holding rates has the key '\(key.prefix(20))'.")
            }
            body = JSONWriter.object { write(provider.key, held, provider, into: &$0) }
        } else {
            body = JSONWriter.array { json in
                for key in ProviderRegistry.keys.sorted() {
                    guard let held = holdings[key], let provider = ProviderRegistry.entry(key)?.identity else { continue }
                    json.element { write(key, held, provider, into: &$0) }
                }
            }
        }
        return PreparedAnswer(requestHeaders: request.headers, uncachedBody: body).response
    }
}
