import NIOCore
import RatesCore
import RatesIngest

/// Our data routes under `/v1`: `/v1/latest`, `/v1/rates/{date}`, `/v1/timeseries`, `/v1/convert`
/// and `/v1/currencies`. Frankfurter's and exchangerate.host's routes answer through `rates`,
/// `convert` and `currencies` too, with their reading of `symbols` (`lenient`) and their
/// members (`style`).
extension DataAnswers {
    /// The rates of the publication on (or before) `date`, or of the newest one without it (`/v1/latest`),
    /// and the newer publication it lacks, if any (the answer says `"stale": true`, `"expectedDate"`).
    /// `freshness` is `nil` for a dataset of some providers only: it is not checked against the reference schedule.
    /// `lenient`: as Frankfurter's routes answer (``frankfurterSymbols(_:base:isAvailable:)``).
    /// `style`: exchangerate.host's members and `places` (``ExchangerateHostStyle``), on the root route both APIs share.
    func rates(
        _ query: QueryParameters, date: Substring?, snapshot: RatesSnapshot, freshness: Freshness?, lenient: Bool = false,
        style: ExchangerateHostStyle? = nil
    ) throws(Problem) -> (ByteBuffer, Day?) {
        let requested = try date.map { text throws(Problem) in try QueryParameters.day(text, parameter: "date") }
        let (base, symbols, amount) = try query.baseSymbolsAmount(defaultBase: snapshot.base)
        let sources = try expandedSources(query)
        let publication = try publication(on: requested, parameter: "date", snapshot: snapshot)
        let overdue = freshness.flatMap {
            overduePublication(after: publication, through: min(requested ?? $0.expected, $0.expected), freshness: $0, snapshot: snapshot)
        }
        let table = snapshot.crossRates(publication)
        let listed = try listedSymbols(
            symbols, base: base, lenient: lenient, within: "on \(publication.day)", snapshot: snapshot, isAvailable: table.contains)
        let valueSources = try sources?.sources(of: [base] + (listed ?? Array(publication.codes)), in: publication)
        let body = JSONWriter.object { json in
            style?.writeMembers(into: &json)
            json.field("amount", number: amount)
            json.field("base", string: base.rawValue)
            json.field("date", string: publication.day.description)
            if let requested, requested != publication.day { json.field("requestedDate", string: requested.description) }
            if let overdue {
                json.field("stale", bool: true)
                json.field("expectedDate", string: overdue.description)
            }
            json.field("rates") { json in
                table.forEachRate(base: base, symbols: listed) { code, rate in
                    let value = rate.scaled(by: amount).exact
                    json.field(code, number: style?.rounded(value) ?? value)
                }
            }
            valueSources?.write(to: &json)
        }
        return (body, overdue)
    }

    func timeseries(_ query: QueryParameters, snapshot: RatesSnapshot) throws(Problem) -> SegmentedBody {
        guard let start = try query.day("start") else { throw Problem.invalid("start", "'start' is required: the first date, YYYY-MM-DD.") }
        let today = configuration.today
        let end = try query.day("end") ?? today
        let (base, symbols, amount) = try query.baseSymbolsAmount(defaultBase: snapshot.base)
        let points = try query.seriesPoints()
        if try query.expandsSources() {
            throw Problem.invalid("expand", "'expand=sources' names the sources of one day's rates: use it with /v1/latest, /v1/rates/{date} or /v1/convert.")
        }
        guard end <= today else { throw Problem.dateInFuture("end", end, today: today) }
        guard start <= end else { throw Problem(.invalidRange, "'start' \(start) is after 'end' \(end).", parameter: "start") }
        _ = try publication(on: end, parameter: "end", snapshot: snapshot)

        return try seriesBody(
            from: start, through: end, base: base, symbols: symbols, amount: amount, points: points, snapshot: snapshot, bounds: ("start", "end"))
    }

    /// `style`: exchangerate.host's `"success"` and `places` on its `/convert`.
    func convert(_ query: QueryParameters, snapshot: RatesSnapshot, style: ExchangerateHostStyle? = nil) throws(Problem) -> ByteBuffer {
        let from = try query.requiredCurrency("from")
        let to = try query.requiredCurrency("to")
        let amount = try query.amount()
        let requested = try query.day("date")
        let sources = try expandedSources(query)
        let publication = try publication(on: requested, parameter: "date", snapshot: snapshot)
        let table = snapshot.crossRates(publication)
        for (code, parameter) in [(from, "from"), (to, "to")] where !table.contains(code) {
            throw unknownCurrency(code, parameter: parameter, within: "on \(publication.day)", snapshot: snapshot)
        }
        let rate = table.rate(from: from, to: to) ?? .computed(.zero)
        let valueSources = try sources?.sources(of: [from, to], in: publication)
        return JSONWriter.object { json in
            style?.writeMembers(into: &json)
            json.field("query") { json in
                json.field("from", string: from.rawValue)
                json.field("to", string: to.rawValue)
                json.field("amount", number: amount)
            }
            json.field("info") { json in json.field("rate", number: style?.rounded(rate.exact) ?? rate.exact) }
            json.field("historical", bool: requested != nil)
            json.field("date", string: publication.day.description)
            if let requested, requested != publication.day { json.field("requestedDate", string: requested.description) }
            json.field("result", number: style?.rounded(rate.scaled(by: amount).exact) ?? rate.scaled(by: amount).exact)
            valueSources?.write(to: &json)
        }
    }

    /// The currencies with data, each with its English name; with `expand=details`, an object of its
    /// `name`, `symbol` and `minorUnits` (`null` where there is none).
    func currencies(_ query: QueryParameters, snapshot: RatesSnapshot) throws(Problem) -> ByteBuffer {
        let details = try query.expands("details")
        return JSONWriter.object { json in
            for code in snapshot.currencies.sorted() {
                guard details else {
                    json.field(code.rawValue, string: code.name ?? code.rawValue)
                    continue
                }
                json.field(code.rawValue) { json in
                    json.field("name", string: code.name ?? code.rawValue)
                    json.field("symbol", optionalString: code.symbol)
                    json.field("minorUnits", number: code.minorUnits.map(String.init) ?? "null")
                }
            }
        }
    }
}
