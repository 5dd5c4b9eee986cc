import NIOCore
import RatesCore
import RatesIngest
import RatesUpstream

/// Frankfurter v2's data routes (`/v2/rates`, `/v2/rates.csv`, `/v2/rate/{base}/{quote}`,
/// `/v2/currencies`, `/v2/currency/{code}`): v2's shapes, our values.
///
/// Where v2 blends every provider's figure into a weighted mean, the value is our merged one (one
/// provider's published figure by precedence, or the cross rate of two), so each number is
/// traceable to published figures; `providers=` computes it from those providers' quotes only, as
/// on our routes. `group=week|month` answers each period's mean of our served daily values, as v2
/// averages its periods (``FrankfurterV2Records``); `expand=providers` then says how many days
/// were averaged and whose figures they were. Our own routes keep one published figure per value.
extension DataAnswers {
    /// The answer to one of v2's data routes, from `snapshot`: the rates routes' in segments.
    func frankfurterV2Answer(
        _ route: Route, parameter: Substring?, query: QueryParameters, snapshot: RatesSnapshot, format: AnswerFormat = .json
    ) throws(Problem) -> Built {
        let today = configuration.today
        let body: Built.Body
        switch route {
        case .v2Rates, .v2RatesCSV, .v2ProviderRates:
            let allowed = route == .v2ProviderRates ? FrankfurterV2Query.providerRatesParameters : FrankfurterV2Query.ratesParameters
            var v2 = try FrankfurterV2Query(query, allowed: allowed, today: today)
            if route == .v2ProviderRates { v2.providers = [try Self.frankfurterV2ProviderKey(parameter ?? "")] }
            let records = FrankfurterV2Records(v2, snapshot: try frankfurterV2Dataset(v2, snapshot: snapshot))
            let values = try checkedValues(records.publications, symbols: records.quotes, parameter: "from")
            let format = route == .v2RatesCSV ? .csv : format
            let expanded = v2.expandsProviders && format != .csv
            let weighing = expanded && records.periods == nil ? try frankfurterV2Weighing(v2) : nil
            body = .segmented(records.body(format, records: values, expanded: expanded, weighing: weighing))
        case .v2Rate:
            let (base, quote) = try Self.frankfurterV2Pair(parameter ?? "")
            var v2 = try FrankfurterV2Query(query, allowed: FrankfurterV2Query.rateParameters, today: today)
            v2.base = base
            v2.quotes = [quote]
            let records = FrankfurterV2Records(v2, snapshot: try frankfurterV2Dataset(v2, snapshot: snapshot))
            guard let first = records.first else { throw Problem(.notFound, "No rate of \(base) in \(quote) on that date.") }
            let providers = try v2.expandsProviders
                ? frankfurterV2Weighing(v2)([first.publication][...]).entries(base: base, quote: quote, publication: first.publication) : nil
            body = .whole(JSONWriter.object { FrankfurterV2Records.write(first.record, providers: providers, into: &$0) })
        case .v2Currencies: body = .whole(try frankfurterV2Currencies(query, snapshot: snapshot))
        case .v2Currency: body = .whole(try frankfurterV2Currency(parameter ?? "", snapshot: snapshot))
        default: preconditionFailure("\(route) is not a Frankfurter v2 data route")
        }
        return Built(body: body, route: route, format: format)
    }

    /// `snapshot`, or with `providers=` the dataset of the providers named that this server has,
    /// over the days the query needs (none: no rates, as v2 answers).
    func frankfurterV2Dataset(_ query: FrankfurterV2Query, snapshot: RatesSnapshot) throws(Problem) -> RatesSnapshot {
        guard let providers = query.knownProviders else { return snapshot }
        let today = configuration.today
        let days: ClosedRange<Day>?
        switch query.dates {
        case .latest: days = today...today
        case .day(let day): days = min(day, today)...min(day, today)
        case .range(let start, let end): days = start <= min(end, today) ? start...min(end, today) : nil
        }
        guard let days, !providers.isEmpty else { return RatesSnapshot(epoch: snapshot.epoch, version: snapshot.version, days: [], base: snapshot.base) }
        guard let quotes else { throw Problem.invalid("providers", "'providers' is not available here.") }
        return try Self.readingQuotes { try quotes.dataset(of: providers, from: days.lowerBound, through: days.upperBound, like: snapshot) }
    }

    /// What the merge weighed on each day of some publications (`expand=providers`), of the providers
    /// `query` names, read from the store a segment at a time.
    func frankfurterV2Weighing(_ query: FrankfurterV2Query) throws(Problem) -> @Sendable (ArraySlice<DayTable>) throws(Problem) -> FrankfurterV2Weighed {
        guard let quotes else { throw Problem.invalid("expand", "'expand' is not available here.") }
        let providers = query.knownProviders
        return { publications throws(Problem) in
            let days = Set(publications.map(\.day))
            return FrankfurterV2Weighed(days: try Self.readingQuotes { try quotes.weighedDays(days, of: providers) })
        }
    }

    /// The provider key of `/v2/providers/{key}/rates`, in any letter case; 404 for a key no adapter has.
    static func frankfurterV2ProviderKey(_ parameter: Substring) throws(Problem) -> String {
        guard let key = ProviderRegistry.entry(parameter.uppercased())?.key else {
            throw Problem(.notFound, "No provider has the key '\(parameter.prefix(20))'.")
        }
        return key
    }

    /// The two currencies of `/v2/rate/{base}/{quote}`'s path parameter `BASE/QUOTE`, in any letter case.
    static func frankfurterV2Pair(_ parameter: Substring) throws(Problem) -> (CurrencyCode, CurrencyCode) {
        let parts = parameter.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw Problem(.notFound, "No endpoint at /v2/rate/\(parameter.prefix(40)).") }
        let base = try FrankfurterV2Query.currencies(String(parts[0]), parameter: "base")
        let quote = try FrankfurterV2Query.currencies(String(parts[1]), parameter: "quote")
        guard base.count == 1, quote.count == 1 else { throw Problem.invalid("base", "invalid currency: \(parameter.prefix(40))") }
        return (base[0], quote[0])
    }

    // MARK: - Currencies

    /// `/v2/currencies`: the currencies of the newest publication, or (`scope=all`) every currency
    /// ever published, each with its dates and the providers its values came from; `providers=`
    /// keeps those whose values came from one of them. Other parameters are ignored, as v2 does.
    func frankfurterV2Currencies(_ query: QueryParameters, snapshot: RatesSnapshot) throws(Problem) -> ByteBuffer {
        var all = false
        if let scope = try FrankfurterV2Query.value(query, "scope") {
            guard scope == "all" else { throw Problem.invalid("scope", "invalid scope: '\(scope.prefix(40))'; use all, or leave it out.") }
            all = true
        }
        let providers = try FrankfurterV2Query.providerKeys(query).map(Set.init)
        let summaries = FrankfurterV2CurrencySummary.summaries(of: snapshot)
        let active = (snapshot.latest.map { Set($0.codes) } ?? []).union(snapshot.isEmpty ? [] : [snapshot.base])
        return JSONWriter.array { json in
            for (code, summary) in summaries.sorted(by: { $0.key < $1.key }) {
                guard all || active.contains(code) else { continue }
                if let providers, providers.isDisjoint(with: summary.providers) { continue }
                json.element { summary.write(code, into: &$0) }
            }
        }
    }

    /// `/v2/currency/{code}`: one currency of ``frankfurterV2Currencies(_:snapshot:)``, in any letter case; 404 for any other.
    func frankfurterV2Currency(_ code: Substring, snapshot: RatesSnapshot) throws(Problem) -> ByteBuffer {
        guard let code = CurrencyCode(code.uppercased()), snapshot.currencies.contains(code),
              let summary = FrankfurterV2CurrencySummary.summaries(of: snapshot)[code]
        else { throw Problem(.notFound, "'\(code.prefix(20))' is not a currency with published rates.") }
        return JSONWriter.object { summary.write(code, into: &$0) }
    }
}
