import Hummingbird
import RatesCore
import RatesUpstream

/// The query of Frankfurter v2's rate routes (`/v2/rates`, `/v2/rates.csv`, `/v2/rate/{base}/{quote}`),
/// read by v2's rules (its `RateQuery#validate!`): a parameter it does not know, a malformed date,
/// `date` with `from`/`to`, a `group` other than `week`/`month` or a code that is not an ISO 4217
/// currency is refused (the route answers 422); currency codes and provider keys are read in
/// any letter case.
///
/// Where v2 is silent we are strict: a parameter given twice or empty is refused too.
struct FrankfurterV2Query: Sendable {
    /// Which publications the answer covers.
    enum Dates: Equatable, Sendable {
        /// No date parameter: the newest publication.
        case latest
        /// `date`: the publication of that day, or the nearest earlier one.
        case day(Day)
        /// `from` (and `to`, today when absent): each publication in the range.
        case range(Day, Day)
    }

    /// `group`: one record per currency and period instead of per publication.
    enum Grouping: String, Sendable {
        case week, month
    }

    /// The parameters of `/v2/rates`.
    static let ratesParameters: Set<Substring> = ["date", "from", "to", "base", "quotes", "providers", "group", "expand"]
    /// The parameters of `/v2/providers/{key}/rates`: those of `/v2/rates`, the provider in the path.
    static let providerRatesParameters = ratesParameters.subtracting(["providers"])
    /// The parameters of `/v2/rate/{base}/{quote}`.
    static let rateParameters: Set<Substring> = ["date", "providers", "expand"]

    var dates: Dates
    /// EUR when absent.
    var base: CurrencyCode
    /// The quote currencies asked for, each once; `nil` for all.
    var quotes: [CurrencyCode]?
    /// The provider keys asked for, upper case, as given (keys this server has no adapter for included); `nil` for all.
    var providers: [String]?
    /// Only with a range: v2 ignores it otherwise.
    var grouping: Grouping?
    /// `expand=providers`: each record lists the providers' values of its pair.
    var expandsProviders: Bool

    /// - Parameters:
    ///   - allowed: The parameters the route takes (``ratesParameters``, ``rateParameters``).
    ///   - today: The end of a range without `to`.
    /// - Throws: `invalid-parameter`, answered 422 on v2's routes.
    init(_ query: QueryParameters, allowed: Set<Substring>, today: Day) throws(Problem) {
        var unknown: [String] = []
        for (name, _) in query.parameters where !allowed.contains(name) && !unknown.contains(String(name)) {
            unknown.append(String(name))
        }
        if !unknown.isEmpty {
            throw Problem.invalid(unknown[0], "unknown parameter: \(unknown.map { String($0.prefix(40)) }.joined(separator: ", "))")
        }
        let date = try Self.day(query, "date")
        let from = try Self.day(query, "from")
        let to = try Self.day(query, "to")
        if date != nil && (from != nil || to != nil) {
            throw Problem.invalid("date", "conflicting params: 'date' names one day; 'from' and 'to' a range. Give one or the other.")
        }
        if let date {
            dates = .day(date)
        } else if let from {
            dates = .range(from, to ?? today)
        } else {
            dates = .latest
        }

        grouping = try Self.value(query, "group").map { text throws(Problem) in
            guard let grouping = Grouping(rawValue: text.lowercased()) else {
                throw Problem.invalid("group", "invalid group: '\(text.prefix(40))'; use week or month.")
            }
            return grouping
        }

        base = try Self.value(query, "base").map { text throws(Problem) in
            let codes = try Self.currencies(text, parameter: "base")
            guard codes.count == 1 else { throw Problem.invalid("base", "'base' is one currency code such as USD; got '\(text.prefix(40))'.") }
            return codes[0]
        } ?? .euro
        quotes = try Self.value(query, "quotes").map { text throws(Problem) in
            var seen: Set<CurrencyCode> = []
            return try Self.currencies(text, parameter: "quotes").filter { seen.insert($0).inserted }
        }
        providers = try Self.providerKeys(query)
        expandsProviders = try Self.value(query, "expand").map { text throws(Problem) in
            let unknown = text.lowercased().split(separator: ",", omittingEmptySubsequences: false).filter { $0 != "providers" }
            guard unknown.isEmpty else { throw Problem.invalid("expand", "invalid expand: \(unknown.joined(separator: ",").prefix(40))") }
            return true
        } ?? false
    }

    /// `providers=`: comma-separated keys of letters (any case), upper-cased; `nil` when absent.
    static func providerKeys(_ query: QueryParameters) throws(Problem) -> [String]? {
        guard let text = try value(query, "providers") else { return nil }
        let keys = text.uppercased().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard keys.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } }) else {
            throw Problem.invalid("providers", "'providers' is a comma-separated list of provider keys such as ECB,NBP; got '\(text.prefix(40))'.")
        }
        return keys
    }

    /// The keys of ``providers`` this server has an adapter for; `nil` when `providers` is absent.
    ///
    /// Frankfurter v2 answers a key it holds no rates of with no rates, not with an error; so do we.
    var knownProviders: Set<String>? {
        providers.map { Set($0.compactMap { ProviderRegistry.entry($0)?.key }) }
    }

    /// The value of `name`, `nil` when absent; given twice or empty, refused.
    static func value(_ query: QueryParameters, _ name: String) throws(Problem) -> String? {
        let values = query.parameters.getAll(name)
        guard values.count <= 1 else { throw Problem.invalid(name, "'\(name)' was given \(values.count) times; give it once.") }
        guard let value = values.first else { return nil }
        guard !value.isEmpty else { throw Problem.invalid(name, "'\(name)' is empty; give a value or leave it out.") }
        return String(value)
    }

    static func day(_ query: QueryParameters, _ name: String) throws(Problem) -> Day? {
        guard let text = try value(query, name) else { return nil }
        guard let day = Day(text) else { throw Problem.invalid(name, "invalid date: '\(name)' must be a date written YYYY-MM-DD; got '\(text.prefix(40))'.") }
        return day
    }

    /// The ISO 4217 currencies of comma-separated `text`, in any letter case (at least one).
    ///
    /// - Throws: `invalid currency: …` naming every part that is not one, as v2 does.
    static func currencies(_ text: String, parameter: String) throws(Problem) -> [CurrencyCode] {
        var codes: [CurrencyCode] = []
        var invalid: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            if let code = CurrencyCode(part.uppercased()), code.name != nil {
                codes.append(code)
            } else {
                invalid.append(String(part.prefix(20)))
            }
        }
        guard invalid.isEmpty, !codes.isEmpty else {
            throw Problem.invalid(parameter, "invalid currency: \(invalid.joined(separator: ",")); use ISO 4217 codes such as USD.")
        }
        return codes
    }
}
