import Foundation
import Hummingbird
import NIOCore
import RatesCore
import RatesIngest
import RatesStore

/// The public JSON endpoints: rates, conversion, currencies, status, health and the contract.
///
/// Data answers are built from the current `RatesSnapshot`, stored per request target and
/// generation in the `ResponseCache`, and carry the `ETag` of the data and its freshness (304 on
/// `If-None-Match`) and a `Cache-Control` that expires at the next expected publication.
struct RatesController<Context: RequestContext>: Sendable {
    let state: ServerState
    let cache: ResponseCache
    let calendar: PublicationCalendar
    let configuration: ServerConfiguration
    let openAPIDocument: ByteBuffer
    let cachePolicy: CacheControlPolicy

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.on(.latest) { request, _ in try latest(request) }
        routes.on(.rates) { request, context in try rates(request, date: context.parameters.get("date") ?? "") }
        routes.on(.timeseries) { request, _ in try timeseries(request) }
        routes.on(.convert) { request, _ in try convert(request) }
        routes.on(.currencies) { request, _ in try currencies(request) }
        routes.on(.status) { request, _ in status(request) }
        routes.on(.health) { _, _ in jsonResponse(status: .ok) { $0.field("status", string: "ok") } }
        routes.on(.readiness) { _, _ in try ready() }
        routes.on(.contract) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml", .cacheControl: "no-cache"], body: .init(byteBuffer: openAPIDocument))
        }
        return routes
    }

    // MARK: - Data endpoints

    func latest(_ request: Request) throws(Problem) -> Response {
        try dataResponse(request, route: .latest) { snapshot, freshness throws(Problem) in
            let query = QueryParameters(request: request)
            let base = try query.currency("base") ?? snapshot.base
            let symbols = try query.symbols()
            let amount = try query.amount()
            guard let publication = snapshot.latest else { throw Self.noData }
            let overdue = overduePublication(after: publication, through: freshness.expected, freshness: freshness, snapshot: snapshot)
            return try ratesBody(publication, requested: nil, base: base, symbols: symbols, amount: amount, overdue: overdue, snapshot: snapshot)
        }
    }

    func rates(_ request: Request, date: String) throws(Problem) -> Response {
        try dataResponse(request, route: .rates) { snapshot, freshness throws(Problem) in
            let query = QueryParameters(request: request)
            let requested = try QueryParameters.day(date, parameter: "date")
            let base = try query.currency("base") ?? snapshot.base
            let symbols = try query.symbols()
            let amount = try query.amount()
            let publication = try publication(on: requested, parameter: "date", snapshot: snapshot)
            let overdue = overduePublication(
                after: publication, through: min(requested, freshness.expected), freshness: freshness, snapshot: snapshot)
            return try ratesBody(
                publication, requested: requested, base: base, symbols: symbols, amount: amount, overdue: overdue, snapshot: snapshot)
        }
    }

    func timeseries(_ request: Request) throws(Problem) -> Response {
        try dataResponse(request, route: .timeseries) { snapshot, _ throws(Problem) in
            let query = QueryParameters(request: request)
            guard let start = try query.day("start") else { throw Problem.invalid("start", "'start' is required: the first date, YYYY-MM-DD.") }
            let today = configuration.today
            let end = try query.day("end") ?? today
            let base = try query.currency("base") ?? snapshot.base
            let symbols = try query.symbols()
            let amount = try query.amount()
            guard end <= today else { throw Problem.dateInFuture("end", end, today: today) }
            guard start <= end else { throw Problem(.invalidRange, "'start' \(start) is after 'end' \(end).", parameter: "start") }
            _ = try publication(on: end, parameter: "end", snapshot: snapshot)

            let publications = snapshot.publications(from: start, through: end)
            let isAvailable = { (code: CurrencyCode) in publications.contains { snapshot.crossRates($0).contains(code) } }
            if let code = RatesRules.firstMissing(base: base, symbols: symbols, isAvailable: isAvailable) {
                throw unknownCurrency(code, parameter: code == base ? "base" : "symbols", within: "between \(start) and \(end)", snapshot: snapshot)
            }
            var json = JSONWriter()
            json.object { json in
                json.field("amount", number: amount)
                json.field("base", string: base.rawValue)
                json.field("start", string: (publications.first?.day ?? start).description)
                json.field("end", string: (publications.last?.day ?? end).description)
                json.field("rates") { json in
                    for publication in publications {
                        let table = snapshot.crossRates(publication)
                        guard table.contains(base) else { continue }
                        json.field(publication.day.description) { json in
                            table.forEachRate(base: base, symbols: symbols) { code, rate in
                                json.field(code, number: rate.scaled(by: amount).exact)
                            }
                        }
                    }
                }
            }
            return (json.buffer, nil)
        }
    }

    func convert(_ request: Request) throws(Problem) -> Response {
        try dataResponse(request, route: .convert) { snapshot, _ throws(Problem) in
            let query = QueryParameters(request: request)
            let from = try query.requiredCurrency("from")
            let to = try query.requiredCurrency("to")
            let amount = try query.amount()
            let requested = try query.day("date")
            let publication: DayTable
            if let requested {
                publication = try self.publication(on: requested, parameter: "date", snapshot: snapshot)
            } else {
                guard let latest = snapshot.latest else { throw Self.noData }
                publication = latest
            }
            let table = snapshot.crossRates(publication)
            for (code, parameter) in [(from, "from"), (to, "to")] where !table.contains(code) {
                throw unknownCurrency(code, parameter: parameter, within: "on \(publication.day)", snapshot: snapshot)
            }
            let rate = table.rate(from: from, to: to) ?? .computed(.zero)
            var json = JSONWriter()
            json.object { json in
                json.field("query") { json in
                    json.field("from", string: from.rawValue)
                    json.field("to", string: to.rawValue)
                    json.field("amount", number: amount)
                }
                json.field("info") { json in json.field("rate", number: rate.exact) }
                json.field("historical", bool: requested != nil)
                json.field("date", string: publication.day.description)
                if let requested, requested != publication.day { json.field("requestedDate", string: requested.description) }
                json.field("result", number: rate.scaled(by: amount).exact)
            }
            return (json.buffer, nil)
        }
    }

    func currencies(_ request: Request) throws(Problem) -> Response {
        try dataResponse(request, route: .currencies) { snapshot, _ in
            var json = JSONWriter()
            json.object { json in
                for code in snapshot.currencies.sorted() { json.field(code.rawValue, string: code.name ?? code.rawValue) }
            }
            return (json.buffer, nil)
        }
    }

    // MARK: - Operational endpoints

    func status(_ request: Request) -> Response {
        let snapshot = state.snapshot
        let fetch = state.fetchStatus
        let freshness = cachePolicy.freshness(of: snapshot, confirmed: fetch.isConfirmed)
        let dateText = { (date: Date?) in date?.formatted(.iso8601) }
        var json = JSONWriter()
        json.object { json in
            json.field("source", string: "ECB")
            json.field("base", string: snapshot.base.rawValue)
            json.field("upstreamURL", string: configuration.upstreamURL)
            json.field("epoch", string: snapshot.epoch)
            json.field("datasetVersion", number: String(snapshot.version))
            json.field("firstDate", optionalString: snapshot.firstDay?.description)
            json.field("latestDate", optionalString: snapshot.latest?.day.description)
            json.field("days", number: String(snapshot.days.count))
            json.field("expectedLatestDate", string: freshness.expected.description)
            json.field("stale", bool: freshness.isStale)
            json.field("dataOrigin", string: snapshot.isEmpty ? "empty" : (fetch.dataOrigin?.rawValue ?? "upstream"))
            if let run = fetch.lastRun {
                json.field("lastFetch") { json in
                    json.field("startedAt", string: run.startedAt.formatted(.iso8601))
                    json.field("finishedAt", string: run.finishedAt.formatted(.iso8601))
                    json.field("file", string: run.file)
                    json.field("httpStatus", number: run.httpStatus.map(String.init) ?? "null")
                    json.field("outcome", string: run.outcome.rawValue)
                    json.field("detail", optionalString: run.detail)
                    json.field("rowsChanged", number: String(run.rowsChanged))
                }
            } else {
                json.field("lastFetch", number: "null")
            }
            json.field("lastSuccessfulFetchAt", optionalString: dateText(fetch.lastSuccessfulFetchAt))
            json.field("nextFetchAt", optionalString: configuration.schedule ? dateText(fetch.nextFetchAt) : nil)
            json.field("fetching", bool: fetch.fetching)
            json.field("refreshesWaiting", number: String(fetch.refreshesWaiting))
        }
        return PreparedAnswer(requestHeaders: request.headers, body: json.buffer, etag: Self.contentTag(json.buffer), cacheControl: "no-cache").response
    }

    func ready() throws(Problem) -> Response {
        guard let latest = state.snapshot.latest else { throw Self.noData }
        return jsonResponse(status: .ok) { json in
            json.field("status", string: "ready")
            json.field("latestDate", string: latest.day.description)
        }
    }

    /// The publication an answer from `publication` lacks: the newest one due by `through`, when
    /// `publication` is the newest held and the calendar says a later one is out by then.
    func overduePublication(after publication: DayTable, through: Day, freshness: Freshness, snapshot: RatesSnapshot) -> Day? {
        guard freshness.isBehind, publication.day == snapshot.latest?.day, publication.day < through else { return nil }
        return calendar.publicationDays(after: publication.day, through: through).last
    }

    // MARK: - Helpers

    static var noData: Problem {
        Problem(.noData, "No rates have been loaded yet; the first fetch is under way.", headers: [.retryAfter: "30"])
    }

    /// A data answer: the cached body for this request and generation, with validators.
    ///
    /// `build` returns the body and, when the answer comes from an overdue newest publication,
    /// the publication it lacks (for the `Rates-Stale` header).
    func dataResponse(
        _ request: Request, route: Route, build: (RatesSnapshot, Freshness) throws(Problem) -> (body: ByteBuffer, overdue: Day?)
    ) throws(Problem) -> Response {
        let snapshot = state.snapshot
        guard !snapshot.isEmpty else { throw Self.noData }
        let freshness = cachePolicy.freshness(of: snapshot, confirmed: state.isDataConfirmed)
        return try cache.answer(to: request, freshness: freshness, policy: cachePolicy) { () throws(Problem) in
            let (body, overdue) = try build(snapshot, freshness)
            return ResponseCache.Entry(body: body, route: route, caching: route.caching ?? .untilNextPublication, staleNotice: overdue.map { "expected=\($0)" })
        }.response
    }

    /// A strong entity tag derived from the bytes themselves (FNV-1a), for answers that change without a new dataset version.
    static func contentTag(_ body: ByteBuffer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body.readableBytesView { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\"s" + String(hash, radix: 16) + "\""
    }

    func publication(on requested: Day, parameter: String, snapshot: RatesSnapshot) throws(Problem) -> DayTable {
        let today = configuration.today
        guard requested <= today else { throw Problem.dateInFuture(parameter, requested, today: today) }
        guard let publication = snapshot.publication(onOrBefore: requested) else {
            throw Problem(.dateBeforeData, "No rates before \(snapshot.firstDay?.description ?? "the first publication").", parameter: parameter)
        }
        return publication
    }

    /// A rates answer; `overdue` names the newer publication it lacks (`"stale": true`, `"expectedDate"`).
    func ratesBody(
        _ publication: DayTable, requested: Day?, base: CurrencyCode, symbols: [CurrencyCode]?, amount: ExactDecimal, overdue: Day?,
        snapshot: RatesSnapshot
    ) throws(Problem) -> (body: ByteBuffer, overdue: Day?) {
        let table = snapshot.crossRates(publication)
        if let code = RatesRules.firstMissing(base: base, symbols: symbols, isAvailable: table.contains) {
            throw unknownCurrency(code, parameter: code == base ? "base" : "symbols", within: "on \(publication.day)", snapshot: snapshot)
        }
        var json = JSONWriter()
        json.object { json in
            json.field("amount", number: amount)
            json.field("base", string: base.rawValue)
            json.field("date", string: publication.day.description)
            if let requested, requested != publication.day { json.field("requestedDate", string: requested.description) }
            if let overdue {
                json.field("stale", bool: true)
                json.field("expectedDate", string: overdue.description)
            }
            json.field("rates") { json in
                table.forEachRate(base: base, symbols: symbols) { code, rate in
                    json.field(code, number: rate.scaled(by: amount).exact)
                }
            }
        }
        return (json.buffer, overdue)
    }

    func unknownCurrency(_ code: CurrencyCode, parameter: String, within period: String, snapshot: RatesSnapshot) -> Problem {
        let detail =
            snapshot.currencies.contains(code)
            ? "\(code) has no published rate \(period)."
            : "\(code) is not a currency with published rates; GET /v1/currencies lists them."
        return Problem(.unknownCurrency, detail, parameter: parameter)
    }

    func jsonResponse(status: HTTPResponse.Status, _ fields: (inout JSONWriter) -> Void) -> Response {
        var json = JSONWriter()
        json.object(fields)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-cache"], body: .init(byteBuffer: json.buffer))
    }
}
