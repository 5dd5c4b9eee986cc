import Foundation
import NIOCore
import RatesCore
import RatesIngest

/// Builds the answers of the data routes (`/v1/latest`, `/v1/rates/{date}`, `/v1/timeseries`,
/// `/v1/convert`, `/v1/currencies`) from a snapshot and a request target: the one place they are
/// made, for the router (``RatesController``) and the fast path (``FastPath``) alike.
///
/// Building is synchronous and touches no lock: the snapshot is immutable and the arithmetic is
/// integer (``RatesCore/ExactDecimal``). Bad input throws the ``Problem`` the client gets. The two
/// options that need the providers' quotes as published read the store instead (``ProviderQuotes``):
/// `providers=` computes the answer from a dataset of those providers only, through the same code;
/// `expand=sources` adds each value's provider, its day and its published figure.
struct DataAnswers: Sendable {
    let calendar: PublicationCalendar
    let configuration: ServerConfiguration
    /// The published quotes; `nil` where there is no store (the answer benchmark): then `providers=`
    /// and `expand=sources` are refused.
    let quotes: ProviderQuotes?

    /// The routes built here.
    static let routes: Set<Route> = [.latest, .rates, .timeseries, .convert, .currencies]

    /// The route and path parameter of a data route's path (`/v1/rates/2026-10-30` → `.rates`,
    /// `"2026-10-30"`), or `nil` for any other path, a path with an empty segment or an escaped character.
    static func route(ofPath path: Substring) -> (route: Route, parameter: Substring?)? {
        switch path {
        case "/v1/latest": return (.latest, nil)
        case "/v1/timeseries": return (.timeseries, nil)
        case "/v1/convert": return (.convert, nil)
        case "/v1/currencies": return (.currencies, nil)
        default:
            let prefix = "/v1/rates/"
            guard path.hasPrefix(prefix) else { return nil }
            let date = path.dropFirst(prefix.utf8.count)
            guard !date.isEmpty, !date.utf8.contains(UInt8(ascii: "/")), !date.utf8.contains(UInt8(ascii: "%")) else { return nil }
            return (.rates, date)
        }
    }

    /// The answer to `route` for `query` (and the path's `parameter`), from `snapshot`.
    func entry(
        _ route: Route, parameter: Substring?, query: QueryParameters, snapshot: RatesSnapshot, freshness: Freshness
    ) throws(Problem) -> ResponseCache.Entry {
        // A dataset of some providers only is its own: the calendar's freshness speaks of the merged one.
        let subset = try providersDataset(route, parameter: parameter, query: query, snapshot: snapshot)
        let dataset = subset ?? snapshot
        let checked = subset == nil ? freshness : nil
        let body: ByteBuffer
        var overdue: Day?
        switch route {
        case .latest: (body, overdue) = try latest(query, snapshot: dataset, freshness: checked)
        case .rates: (body, overdue) = try rates(query, date: parameter ?? "", snapshot: dataset, freshness: checked)
        case .timeseries: body = try timeseries(query, snapshot: dataset)
        case .convert: body = try convert(query, snapshot: dataset)
        case .currencies: body = currencies(snapshot)
        default: preconditionFailure("\(route) is not a data route")
        }
        return ResponseCache.Entry(
            body: body, route: route, caching: route.caching ?? .untilNextPublication, staleNotice: overdue.map { "expected=\($0)" })
    }

    /// Whether building `route`'s answer for `query` takes a few microseconds, so the event loop
    /// may do it: every data route, except a time series over more than ``eventLoopSeriesDays`` days
    /// and answers that read the store (`providers=`, `expand=`).
    static func isCheap(_ route: Route, query: QueryParameters) -> Bool {
        guard !query.has("providers"), !query.has("expand") else { return false }
        guard route == .timeseries else { return true }
        guard let start = try? query.day("start"), let end = try? query.day("end") else { return false }
        return end.dayNumber - start.dayNumber <= eventLoopSeriesDays
    }

    /// The longest time series the event loop builds; longer ones are built by the application's tasks.
    static let eventLoopSeriesDays = 31

    // MARK: - Routes

    /// `freshness` is `nil` for a dataset of some providers only: it is not checked against the calendar.
    func latest(_ query: QueryParameters, snapshot: RatesSnapshot, freshness: Freshness?) throws(Problem) -> (ByteBuffer, Day?) {
        let base = try query.currency("base") ?? snapshot.base
        let symbols = try query.symbols()
        let amount = try query.amount()
        let sources = try expandedSources(query)
        guard let publication = snapshot.latest else { throw Problem.noData }
        let overdue = freshness.flatMap { overduePublication(after: publication, through: $0.expected, freshness: $0, snapshot: snapshot) }
        return try ratesBody(
            publication, requested: nil, base: base, symbols: symbols, amount: amount, overdue: overdue, sources: sources, snapshot: snapshot)
    }

    func rates(_ query: QueryParameters, date: Substring, snapshot: RatesSnapshot, freshness: Freshness?) throws(Problem) -> (ByteBuffer, Day?) {
        let requested = try QueryParameters.day(date, parameter: "date")
        let base = try query.currency("base") ?? snapshot.base
        let symbols = try query.symbols()
        let amount = try query.amount()
        let sources = try expandedSources(query)
        let publication = try publication(on: requested, parameter: "date", snapshot: snapshot)
        let overdue = freshness.flatMap {
            overduePublication(after: publication, through: min(requested, $0.expected), freshness: $0, snapshot: snapshot)
        }
        return try ratesBody(
            publication, requested: requested, base: base, symbols: symbols, amount: amount, overdue: overdue, sources: sources,
            snapshot: snapshot)
    }

    func timeseries(_ query: QueryParameters, snapshot: RatesSnapshot) throws(Problem) -> ByteBuffer {
        guard let start = try query.day("start") else { throw Problem.invalid("start", "'start' is required: the first date, YYYY-MM-DD.") }
        let today = configuration.today
        let end = try query.day("end") ?? today
        let base = try query.currency("base") ?? snapshot.base
        let symbols = try query.symbols()
        let amount = try query.amount()
        let points = try query.seriesPoints()
        if try query.expandsSources() {
            throw Problem.invalid("expand", "'expand=sources' names the sources of one day's rates: use it with /v1/latest, /v1/rates/{date} or /v1/convert.")
        }
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
                // The days with a rate in `base`, thinned to `points` when asked.
                let days = publications.filter { snapshot.crossRates($0).contains(base) }
                for publication in points.map({ RatesRules.evenlySpaced(days, atMost: $0) }) ?? days {
                    let table = snapshot.crossRates(publication)
                    json.field(publication.day.description) { json in
                        table.forEachRate(base: base, symbols: symbols) { code, rate in
                            json.field(code, number: rate.scaled(by: amount).exact)
                        }
                    }
                }
            }
        }
        return json.buffer
    }

    func convert(_ query: QueryParameters, snapshot: RatesSnapshot) throws(Problem) -> ByteBuffer {
        let from = try query.requiredCurrency("from")
        let to = try query.requiredCurrency("to")
        let amount = try query.amount()
        let requested = try query.day("date")
        let sources = try expandedSources(query)
        let publication: DayTable
        if let requested {
            publication = try self.publication(on: requested, parameter: "date", snapshot: snapshot)
        } else {
            guard let latest = snapshot.latest else { throw Problem.noData }
            publication = latest
        }
        let table = snapshot.crossRates(publication)
        for (code, parameter) in [(from, "from"), (to, "to")] where !table.contains(code) {
            throw unknownCurrency(code, parameter: parameter, within: "on \(publication.day)", snapshot: snapshot)
        }
        let rate = table.rate(from: from, to: to) ?? .computed(.zero)
        let valueSources = try sources?.sources(of: [from, to], in: publication)
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
            valueSources?.write(to: &json)
        }
        return json.buffer
    }

    func currencies(_ snapshot: RatesSnapshot) -> ByteBuffer {
        var json = JSONWriter()
        json.object { json in
            for code in snapshot.currencies.sorted() { json.field(code.rawValue, string: code.name ?? code.rawValue) }
        }
        return json.buffer
    }

    // MARK: - Providers and sources

    /// The dataset of the providers `providers=` names, over the days `route` needs, or `nil` when
    /// the query names none (or its dates are invalid: the route then reports them as usual).
    func providersDataset(_ route: Route, parameter: Substring?, query: QueryParameters, snapshot: RatesSnapshot) throws(Problem) -> RatesSnapshot? {
        guard route != .currencies, let providers = try query.providers() else { return nil }
        guard let quotes else { throw Problem.invalid("providers", "'providers' is not available here.") }
        let today = configuration.today
        let days: ClosedRange<Day>?
        switch route {
        case .rates: days = parameter.flatMap { Day($0) }.map { $0...$0 }
        case .convert:
            let date = (try? query.day("date")) ?? today
            days = date...date
        case .timeseries:
            let start = try? query.day("start"), end = (try? query.day("end")) ?? today
            days = start.flatMap { $0 <= end ? $0...end : nil }
        default: days = today...today
        }
        guard let days, days.upperBound <= today else { return nil }
        do {
            let dataset = try quotes.dataset(of: providers, from: days.lowerBound, through: days.upperBound, like: snapshot)
            guard !dataset.isEmpty else {
                throw Problem(.dateBeforeData, "\(providers.sorted().joined(separator: ", ")) published no rates on or before \(days.upperBound).",
                              parameter: "providers")
            }
            return dataset
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem.unreadable("The providers' quotes")
        }
    }

    /// The lookup of `expand=sources`, or `nil` when the query does not ask for it.
    func expandedSources(_ query: QueryParameters) throws(Problem) -> SourceLookup? {
        guard try query.expandsSources() else { return nil }
        guard let quotes else { throw Problem.invalid("expand", "'expand' is not available here.") }
        return SourceLookup(quotes: quotes)
    }

    // MARK: - Helpers

    /// The publication an answer from `publication` lacks: the newest one due by `through`, when
    /// `publication` is the newest held and the calendar says a later one is out by then.
    func overduePublication(after publication: DayTable, through: Day, freshness: Freshness, snapshot: RatesSnapshot) -> Day? {
        guard freshness.isBehind, publication.day == snapshot.latest?.day, publication.day < through else { return nil }
        return calendar.publicationDays(after: publication.day, through: through).last
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
        sources: SourceLookup? = nil, snapshot: RatesSnapshot
    ) throws(Problem) -> (ByteBuffer, Day?) {
        let table = snapshot.crossRates(publication)
        if let code = RatesRules.firstMissing(base: base, symbols: symbols, isAvailable: table.contains) {
            throw unknownCurrency(code, parameter: code == base ? "base" : "symbols", within: "on \(publication.day)", snapshot: snapshot)
        }
        let valueSources = try sources?.sources(of: [base] + (symbols ?? publication.codes), in: publication)
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
            valueSources?.write(to: &json)
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
}
