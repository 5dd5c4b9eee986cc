import Foundation
import NIOCore
import RatesCore
import RatesIngest

/// Builds the answers of the data routes from a snapshot and a request target: the one place they
/// are made, for the router (``RatesController``) and the fast path (``FastPath``) alike. One file
/// per API: ours under `/v1` (`DataAnswers+V1.swift`), Frankfurter's v1 (`+FrankfurterV1`),
/// Frankfurter's v2 (`+FrankfurterV2`) and exchangerate.host's (`+ExchangerateHost`); this one holds
/// what they share.
///
/// Building is synchronous and touches no lock: the snapshot is immutable and the arithmetic is
/// integer (``RatesCore/ExactDecimal``). Bad input throws the ``Problem`` the client gets. The two
/// options that need the providers' quotes as published read the store instead (``ProviderQuotes``):
/// `providers=` computes the answer from a dataset of those providers only, through the same code;
/// `expand=sources` adds each value's provider, its day and its published figure.
struct DataAnswers: Sendable {
    let schedule: PublicationSchedule
    let configuration: ServerConfiguration
    /// The published quotes; `nil` where there is no store (the answer benchmark): then `providers=`
    /// and `expand=sources` are refused.
    let quotes: ProviderQuotes?

    /// The routes built here.
    static let routes: Set<Route> = [
        .latest, .rates, .timeseries, .convert, .currencies, .frankfurterDates, .legacyLatest, .legacyCurrencies, .legacyDates,
        .exchangerateConvert, .exchangerateTimeseries, .exchangerateFluctuation, .exchangerateSymbols,
        .v2Rates, .v2RatesCSV, .v2Rate, .v2Currencies, .v2Currency,
    ]

    /// The data routes' paths, from their patterns (``Route/path``).
    static let paths = RouteTable(routes)

    /// The route and path parameter of a data route's path (`/v1/rates/2026-10-30` → `.rates`,
    /// `"2026-10-30"`; `/v1/2026-10-01..` → `.frankfurterDates`, `"2026-10-01.."`), or `nil` for any
    /// other path, a path with an empty segment or an escaped character.
    static func route(ofPath path: Substring) -> (route: Route, parameter: Substring?)? {
        paths.route(ofPath: path) { route, parameter in
            // Frankfurter's dates begin with a digit; other one-segment paths are other routes or none.
            (route != .frankfurterDates && route != .legacyDates) || isFrankfurterDates(parameter)
        }
    }

    /// A data route's answer before it is sent: its body, made whole or in segments, and how it is served.
    struct Built {
        enum Body {
            case whole(ByteBuffer)
            /// A range, streamed when large (``SegmentedBody/isStreamed``).
            case segmented(SegmentedBody)
        }

        var body: Body
        var route: Route
        var staleNotice: String?
        var format = AnswerFormat.json

        /// The segments to stream, when the body is a large range.
        var streamed: SegmentedBody? {
            if case .segmented(let segmented) = body, segmented.isStreamed { segmented } else { nil }
        }

        /// The answer prepared whole, as the cache keeps it.
        func entry() throws(Problem) -> ResponseCache.Entry {
            switch body {
            case .whole(let whole): entry(body: whole)
            case .segmented(let segmented): entry(body: try segmented.joined())
            }
        }

        /// The answer with `body`: the route's caching and media type, its stale notice.
        func entry(body: ByteBuffer) -> ResponseCache.Entry {
            ResponseCache.Entry(
                body: body, route: route, caching: route.caching ?? .untilNextPublication, staleNotice: staleNotice,
                format: route.negotiatesFormat ? format : .json)
        }
    }

    /// The answer to `route` for `query` (and the path's `parameter`), from `snapshot`, prepared whole.
    func entry(
        _ route: Route, parameter: Substring?, query: QueryParameters, snapshot: RatesSnapshot, freshness: Freshness, format: AnswerFormat = .json
    ) throws(Problem) -> ResponseCache.Entry {
        try built(route, parameter: parameter, query: query, snapshot: snapshot, freshness: freshness, format: format).entry()
    }

    /// The answer to `route` for `query` (and the path's `parameter`), from `snapshot`: a range's in segments.
    func built(
        _ route: Route, parameter: Substring?, query: QueryParameters, snapshot: RatesSnapshot, freshness: Freshness, format: AnswerFormat = .json
    ) throws(Problem) -> Built {
        if route.isFrankfurterV2 { return try frankfurterV2Answer(route, parameter: parameter, query: query, snapshot: snapshot, format: format) }
        // A dataset of some providers only is its own: the reference schedule's freshness speaks of the merged one.
        let subset = try providersDataset(route, parameter: parameter, query: query, snapshot: snapshot)
        let dataset = subset ?? snapshot
        let checked = subset == nil ? freshness : nil
        let body: Built.Body
        var overdue: Day?
        func whole(_ made: (ByteBuffer, Day?)) -> Built.Body {
            overdue = made.1
            return .whole(made.0)
        }
        switch route {
        case .latest, .legacyLatest:
            let style: ExchangerateHostStyle? = try route == .legacyLatest ? ExchangerateHostStyle(query, historical: false) : nil
            body = whole(try rates(query, date: nil, snapshot: dataset, freshness: checked, lenient: route.isCompatibility, style: style))
        case .rates: body = whole(try rates(query, date: parameter ?? "", snapshot: dataset, freshness: checked))
        case .timeseries: body = .segmented(try timeseries(query, snapshot: dataset))
        case .convert: body = .whole(try convert(query, snapshot: dataset))
        case .currencies, .legacyCurrencies: body = .whole(try currencies(query, snapshot: snapshot))
        case .frankfurterDates, .legacyDates:
            switch try FrankfurterDates(parameter ?? "", today: configuration.today) {
            case .day:
                let style: ExchangerateHostStyle? = try route == .legacyDates ? ExchangerateHostStyle(query, historical: true) : nil
                body = whole(try rates(query, date: parameter ?? "", snapshot: dataset, freshness: checked, lenient: true, style: style))
            case .range(let start, let end):
                // exchangerate.host had no ranges: its parameters are checked, not applied (the contract says so).
                if route == .legacyDates { _ = try ExchangerateHostStyle(query, historical: false) }
                body = .segmented(try frankfurterSeries(query, from: start, through: end, snapshot: dataset))
            }
        case .exchangerateConvert: body = .whole(try convert(query, snapshot: dataset, style: ExchangerateHostStyle(query, historical: false)))
        case .exchangerateTimeseries: body = .whole(try exchangerateTimeseries(query, snapshot: dataset))
        case .exchangerateFluctuation: body = .whole(try exchangerateFluctuation(query, snapshot: dataset))
        case .exchangerateSymbols: body = .whole(exchangerateSymbols(snapshot))
        default: preconditionFailure("\(route) is not a data route")
        }
        return Built(body: body, route: route, staleNotice: overdue.map { "expected=\($0)" })
    }

    /// Whether building `route`'s answer for `query` (and the path's `parameter`) takes a few
    /// microseconds, so the event loop may do it: every data route, except a time series over more
    /// than ``eventLoopSeriesDays`` days and answers that read the store (`providers=`, `expand=`).
    /// On a v2 rates route with `group`, every publication of the range counts, as its means read them all.
    func isCheap(_ route: Route, parameter: Substring?, query: QueryParameters) -> Bool {
        guard !query.has("providers"), !query.has("expand") else { return false }
        let span: (start: Day, end: Day)
        switch route {
        case .v2Rates, .v2RatesCSV:
            guard let v2 = try? FrankfurterV2Query(query, allowed: FrankfurterV2Query.ratesParameters, today: configuration.today),
                  case .range(let start, let end) = v2.dates
            else { return true }
            span = (start, end)
        case .v2Currencies: return false
        case .timeseries:
            guard let start = try? query.day("start") else { return false }
            span = (start, (try? query.day("end")) ?? configuration.today)
        case .exchangerateTimeseries:
            guard let days = try? query.exchangerateSpan(today: configuration.today) else { return false }
            span = days
        case .frankfurterDates, .legacyDates:
            guard case .range(let start, let end)? = try? FrankfurterDates(parameter ?? "", today: configuration.today) else { return true }
            span = (start, end)
        default: return true
        }
        return span.end.dayNumber - span.start.dayNumber <= Self.eventLoopSeriesDays
    }

    /// The longest time series the event loop builds; longer ones are built by the application's tasks.
    static let eventLoopSeriesDays = 31

    // MARK: - Providers and sources

    /// The dataset of the providers `providers=` names, over the days `route` needs, or `nil` when
    /// the query names none (or its dates are invalid: the route then reports them as usual).
    func providersDataset(_ route: Route, parameter: Substring?, query: QueryParameters, snapshot: RatesSnapshot) throws(Problem) -> RatesSnapshot? {
        guard route != .currencies, route != .legacyCurrencies, route != .exchangerateSymbols, let providers = try query.providers() else { return nil }
        guard let quotes else { throw Problem.invalid("providers", "'providers' is not available here.") }
        let today = configuration.today
        let days: ClosedRange<Day>?
        switch route {
        case .rates: days = parameter.flatMap { Day($0) }.map { $0...$0 }
        case .frankfurterDates, .legacyDates:
            switch try? FrankfurterDates(parameter ?? "", today: today) {
            case .day(let day)?: days = day...day
            case .range(let start, let end)?: days = start <= end ? start...end : nil
            case nil: days = nil
            }
        case .convert, .exchangerateConvert:
            let date = (try? query.day("date")) ?? today
            days = date...date
        case .timeseries:
            let start = try? query.day("start"), end = (try? query.day("end")) ?? today
            days = start.flatMap { $0 <= end ? $0...end : nil }
        case .exchangerateTimeseries, .exchangerateFluctuation:
            days = (try? query.exchangerateSpan(today: today)).map { $0.start...$0.end }
        default: days = today...today
        }
        guard let days, days.upperBound <= today else { return nil }
        let dataset = try Self.readingQuotes { try quotes.dataset(of: providers, from: days.lowerBound, through: days.upperBound, like: snapshot) }
        guard !dataset.isEmpty else {
            throw Problem(.dateBeforeData, "\(providers.sorted().joined(separator: ", ")) published no rates on or before \(days.upperBound).",
                          parameter: "providers")
        }
        return dataset
    }

    /// What `read` reads from the providers' quotes; a store that cannot be read is the 503 problem ``Problem/unreadable(_:)``.
    static func readingQuotes<Value>(_ read: () throws -> Value) throws(Problem) -> Value {
        do {
            return try read()
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

    /// A series answer: each publication from `start` through `end` (at most `points` of them,
    /// evenly spaced, when given), its rates in `base`; `bounds` names the fields of the first and
    /// last dates; `lenient` as Frankfurter's routes answer. Made in segments of a few
    /// publications: a long one is streamed.
    ///
    /// - Throws: ``Problem/answerTooLarge(values:limit:parameter:)`` past ``ServerConfiguration/maxAnswerValues``.
    func seriesBody(
        from start: Day, through end: Day, base: CurrencyCode, symbols: [CurrencyCode]?, amount: ExactDecimal, points: Int? = nil,
        snapshot: RatesSnapshot, bounds: (start: String, end: String), lenient: Bool = false
    ) throws(Problem) -> SegmentedBody {
        let publications = snapshot.publications(from: start, through: end)
        let isAvailable = { (code: CurrencyCode) in publications.contains { snapshot.crossRates($0).contains(code) } }
        let symbols = try listedSymbols(
            symbols, base: base, lenient: lenient, within: "between \(start) and \(end)", snapshot: snapshot, isAvailable: isAvailable)
        // The days with a rate in `base`, thinned to `points` when asked.
        let days = publications.filter { snapshot.crossRates($0).contains(base) }
        let listed = points.map { RatesRules.evenlySpaced(days, atMost: $0) } ?? days
        let values = try checkedValues(listed, symbols: symbols, parameter: bounds.start)
        // The object with its rates empty: all of it but the closing `}}` opens the answer.
        var opening = JSONWriter.object { json in
            json.field("amount", number: amount)
            json.field("base", string: base.rawValue)
            json.field(bounds.start, string: (publications.first?.day ?? start).description)
            json.field(bounds.end, string: (publications.last?.day ?? end).description)
            json.field("rates") { _ in }
        }
        opening.moveWriterIndex(to: opening.writerIndex - 2)
        return SegmentedBody(
            opening: opening, closing: ByteBuffer(string: "}}"), segmentCount: SegmentedBody.segments(of: listed.count),
            segment: { index, continuing in
                var json = JSONWriter(continuing: continuing, capacity: 1024)
                for publication in SegmentedBody.slice(listed, segment: index) {
                    let table = snapshot.crossRates(publication)
                    json.field(publication.day.description) { json in
                        table.forEachRate(base: base, symbols: symbols) { code, rate in
                            json.field(code, number: rate.scaled(by: amount).exact)
                        }
                    }
                }
                return (json.buffer, json.isContinuing)
            },
            estimatedBytes: values * 20)
    }

    /// The values an answer of `publications` carries (each publication's currencies, or
    /// `symbols`), checked against ``ServerConfiguration/maxAnswerValues``; `parameter` names the range's start.
    func checkedValues(_ publications: [DayTable], symbols: [CurrencyCode]?, parameter: String) throws(Problem) -> Int {
        let values = symbols.map { publications.count * ($0.count + 1) } ?? publications.reduce(0) { $0 + $1.count + 1 }
        guard values <= configuration.maxAnswerValues else {
            throw Problem.answerTooLarge(values: values, limit: configuration.maxAnswerValues, parameter: parameter)
        }
        return values
    }

    /// The publication an answer from `publication` lacks: the newest one due by `through`, when
    /// `publication` is the newest held and the reference schedule says a later one is out by then.
    func overduePublication(after publication: DayTable, through: Day, freshness: Freshness, snapshot: RatesSnapshot) -> Day? {
        guard freshness.isBehind, publication.day == snapshot.latest?.day, publication.day < through else { return nil }
        return schedule.publicationDays(after: publication.day, through: through).last
    }

    /// The publication on or before `requested`, the day `parameter` asks for; the newest without one.
    func publication(on requested: Day?, parameter: String, snapshot: RatesSnapshot) throws(Problem) -> DayTable {
        guard let requested else {
            guard let latest = snapshot.latest else { throw Problem.noData }
            return latest
        }
        let today = configuration.today
        guard requested <= today else { throw Problem.dateInFuture(parameter, requested, today: today) }
        guard let publication = snapshot.publication(onOrBefore: requested) else {
            throw Problem(.dateBeforeData, "No rates before \(snapshot.firstDay?.description ?? "the first publication").", parameter: parameter)
        }
        return publication
    }

    /// The symbols an answer lists: as asked, or (`lenient`) as Frankfurter's routes read them
    /// (``frankfurterSymbols(_:base:isAvailable:)``), once the base and each of them has a rate
    /// `within` the period the answer covers.
    ///
    /// - Throws: The `unknown-currency` problem naming the first that has none, as `base` or `symbols`.
    func listedSymbols(
        _ symbols: [CurrencyCode]?, base: CurrencyCode, lenient: Bool, within period: @autoclosure () -> String, snapshot: RatesSnapshot,
        isAvailable: (CurrencyCode) -> Bool
    ) throws(Problem) -> [CurrencyCode]? {
        let listed = lenient ? try Self.frankfurterSymbols(symbols, base: base, isAvailable: isAvailable) : symbols
        if let code = RatesRules.firstMissing(base: base, symbols: listed, isAvailable: isAvailable) {
            throw unknownCurrency(code, parameter: code == base ? "base" : "symbols", within: period(), snapshot: snapshot)
        }
        return listed
    }

    func unknownCurrency(_ code: CurrencyCode, parameter: String, within period: String, snapshot: RatesSnapshot) -> Problem {
        let detail =
            snapshot.currencies.contains(code)
            ? "\(code) has no published rate \(period)."
            : "\(code) is not a currency with published rates; GET /v1/currencies lists them."
        return Problem(.unknownCurrency, detail, parameter: parameter)
    }
}
