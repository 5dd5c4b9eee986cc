import Hummingbird

/// Every route the server answers, declared once.
///
/// The router registers each at its ``path`` with its ``method``; the 405 answers
/// (``allowedMethods(for:)``), the `route` label of the request metrics (the application's and the fast
/// path's alike), the prepared-answer cache and the fast path's recognition of data paths
/// (``RouteTable``, built once from the paths) all derive from this table, so a route cannot be
/// known to one of them and missing from another, or counted under two names.
enum Route: String, CaseIterable, Sendable {
    case latest = "/v1/latest"
    case rates = "/v1/rates/{date}"
    case timeseries = "/v1/timeseries"
    case convert = "/v1/convert"
    case currencies = "/v1/currencies"
    case providers = "/v1/providers"
    case provider = "/v1/providers/{key}"
    case status = "/v1/status"
    case sync = "/v1/sync"
    case events = "/v1/events"
    case adminRefresh = "/v1/admin/refresh"
    case health = "/healthz"
    case readiness = "/readyz"
    case metrics = "/metrics"
    case contract = "/openapi.yaml"
    case page = "/"
    case webFile = "/web/{file}"
    /// Frankfurter's v1 API beside ours: `/v1/2025-06-13`, `/v1/2025-01-02..2025-01-31`, `/v1/2025-01-02..`.
    case frankfurterDates = "/v1/{dates}"
    /// Frankfurter's old host served its v1 API at the root: `/latest`, `/currencies`, `/2025-06-13`, `/2025-01-02..`.
    case legacyLatest = "/latest"
    case legacyCurrencies = "/currencies"
    case legacyDates = "/{dates}"
    /// exchangerate.host's keyless API (before 2023) at the root, beside Frankfurter's old host:
    /// `/convert`, `/timeseries`, `/fluctuation`, `/symbols` (`/latest` and `/{date}` answer both APIs' clients).
    case exchangerateConvert = "/convert"
    case exchangerateTimeseries = "/timeseries"
    case exchangerateFluctuation = "/fluctuation"
    case exchangerateSymbols = "/symbols"
    /// Frankfurter's v2 API (`https://api.frankfurter.dev/v2`): one record per currency pair, its own errors.
    case v2Rates = "/v2/rates"
    /// `/v2/rates` as CSV (`date,base,quote,rate`), as Frankfurter v2 answers the `.csv` form of the path.
    case v2RatesCSV = "/v2/rates.csv"
    case v2Rate = "/v2/rate/{base}/{quote}"
    case v2Currencies = "/v2/currencies"
    case v2Currency = "/v2/currency/{code}"
    case v2Providers = "/v2/providers"
    /// One provider of `/v2/providers`, by key in any letter case.
    case v2Provider = "/v2/providers/{key}"
    /// `/v2/rates` of one provider: `/v2/rates?providers={key}`, with the other parameters of `/v2/rates`.
    case v2ProviderRates = "/v2/providers/{key}/rates"

    /// The path pattern (`{name}` matches one segment); also the `route` metric label.
    var path: String { rawValue }

    /// Whether the route is for operators, not for clients' pages: the admin endpoints, the probes
    /// and the metrics. API keys, rate limits and CORS leave them out.
    var isOperator: Bool { [.adminRefresh, .health, .readiness, .metrics].contains(self) }

    /// The folder of our API's routes (`/v1/`): where API keys and rate limits apply.
    static let apiFolder = folder(of: .latest)

    /// The folder of the admin endpoints (`/v1/admin/`): every path in it is an operator's, known or not.
    static let adminFolder = folder(of: .adminRefresh)

    /// The operator routes' paths outside ``adminFolder``.
    static let operatorPaths = allCases.filter { $0.isOperator && !$0.path.hasPrefix(adminFolder) }.map(\.path)

    /// The path of `route` up to its last `/`, that included.
    private static func folder(of route: Route) -> String {
        String(route.path[...route.path.lastIndex(of: "/")!])
    }

    /// The method the route takes (`HEAD` is answered wherever `GET` is).
    var method: HTTPRequest.Method { self == .adminRefresh ? .post : .get }

    /// How long clients may keep its answers prepared per dataset version; `nil` for routes whose
    /// answers are not (the web page's files are prepared once at start-up: ``WebAssets``).
    ///
    /// Sync pages choose per page: the tail grows with the next publication, full change-log pages never change.
    var caching: CacheControlPolicy.Caching? {
        switch self {
        case .latest, .rates, .timeseries, .convert, .currencies, .frankfurterDates, .legacyLatest, .legacyCurrencies, .legacyDates,
             .exchangerateConvert, .exchangerateTimeseries, .exchangerateFluctuation, .exchangerateSymbols,
             .v2Rates, .v2RatesCSV, .v2Rate, .v2Currencies, .v2Currency, .v2ProviderRates:
            .untilNextPublication
        case .sync: .syncTail
        case .providers, .provider, .v2Providers, .v2Provider, .status, .events, .adminRefresh, .health, .readiness, .metrics, .contract, .page, .webFile: nil
        }
    }

    /// Whether the route answers in another API's shape (Frankfurter's, exchangerate.host's), errors
    /// included: `{"message": …}`, and at the root also `"success": false` (``answersExchangerateHost``).
    var isCompatibility: Bool { answersExchangerateHost || [.frankfurterDates, .legacyCurrencies].contains(self) }

    /// Whether exchangerate.host's clients call this route: its own (`/convert`, `/timeseries`,
    /// `/fluctuation`, `/symbols`) and the root routes it shared with Frankfurter's old host
    /// (`/latest`, `/{date}`). Their errors carry both APIs' members (``Problem/response(for:)``).
    var answersExchangerateHost: Bool {
        [.legacyLatest, .legacyDates, .exchangerateConvert, .exchangerateTimeseries, .exchangerateFluctuation, .exchangerateSymbols].contains(self)
    }

    /// Whether the route is Frankfurter v2's (its path is under `/v2/`), errors included: `{"status": …, "message": …}`,
    /// 422 for input it cannot use.
    var isFrankfurterV2: Bool { path.hasPrefix("/v2/") }

    /// Whether the route answers in the format `Accept` prefers (``AnswerFormat``): v2's rates.
    var negotiatesFormat: Bool { self == .v2Rates || self == .v2ProviderRates }

    /// The media type of the route's prepared answers (in JSON, for a route that ``negotiatesFormat``).
    var contentType: String { (self == .v2RatesCSV ? AnswerFormat.csv : .json).contentType }

    /// `path` as the router matches it: empty segments dropped (`//v1//latest` is `/v1/latest`).
    ///
    /// Middleware that decides by path (API keys, rate limits, CORS) must decide on this, or a
    /// doubled slash would reach a route past its checks.
    static func canonical(_ path: some StringProtocol) -> String {
        guard hasEmptySegment(path) else { return String(path) }
        return "/" + path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    /// Whether `path` has an empty segment (`//`, or a trailing `/`), without allocating.
    static func hasEmptySegment(_ path: some StringProtocol) -> Bool {
        var previous: UInt8 = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/") { return true }
            previous = byte
        }
        return previous == UInt8(ascii: "/") && path.utf8.count > 1
    }

    /// The methods `path` takes, `HEAD` added wherever `GET` is, or `nil` when no route's pattern
    /// matches it (`{name}` matches one segment): a known path called with any other method — `PUT`,
    /// `TRACE`, `QUERY`, anything — answers 405 with `Allow` rather than 404, which would tell a
    /// client the path is wrong when only the method is.
    static func allowedMethods(for path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/")
        let route = allCases.first { route in
            let parts = route.path.split(separator: "/")
            return parts.count == segments.count && zip(parts, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
        return route.map { $0.method == .get ? [.get, .head] : [$0.method] }
    }
}

extension RouteCollection {
    /// Registers `handler` for `route` at its path and method.
    @discardableResult
    func on(
        _ route: Route, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        on(RouterPath(route.path), method: route.method, use: handler)
    }
}
