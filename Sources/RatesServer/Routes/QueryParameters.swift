import Foundation
import Hummingbird
import HummingbirdCore
import RatesCore
import RatesUpstream

/// Strict readers for query and path parameters: each failure is a `Problem` naming the parameter.
struct QueryParameters {
    let parameters: FlatDictionary<Substring, Substring>

    init(request: Request) { parameters = request.uri.queryParameters }

    /// The query of a request target (`/v1/latest?base=USD`).
    init(target: String) { parameters = URI(target).queryParameters }

    /// The single value of `name`, `nil` when absent. Repeating it is an error; an empty value counts as absent.
    func single(_ name: String) throws(Problem) -> String? {
        let values = parameters.getAll(name)
        guard values.count <= 1 else { throw .invalid(name, "'\(name)' was given \(values.count) times; give it once.") }
        guard let value = values.first, !value.isEmpty else { return nil }
        return value
    }

    func currency(_ name: String) throws(Problem) -> CurrencyCode? {
        guard let text = try single(name) else { return nil }
        return try Self.currency(text, parameter: name)
    }

    func requiredCurrency(_ name: String) throws(Problem) -> CurrencyCode {
        guard let code = try currency(name) else { throw .invalid(name, "'\(name)' is required: a three-letter currency code such as USD.") }
        return code
    }

    /// The base currency of a rates answer: `base`, or `from` as Frankfurter's clients write it; `nil` when absent.
    func base() throws(Problem) -> CurrencyCode? {
        guard let (name, text) = try aliased("base", "from") else { return nil }
        return try Self.currency(text, parameter: name)
    }

    /// The currencies of a rates answer, comma-separated: `symbols`, or `to` as Frankfurter's clients write it; `nil` when absent.
    func symbols() throws(Problem) -> [CurrencyCode]? {
        guard let (name, text) = try aliased("symbols", "to") else { return nil }
        var codes: [CurrencyCode] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let code = try Self.currency(part, parameter: name)
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    /// A positive decimal amount (``RatesRules/amount(_:)``). Defaults to 1.
    func amount() throws(Problem) -> ExactDecimal {
        guard let text = try single("amount") else { return .one }
        guard let value = RatesRules.amount(text) else {
            throw .invalid(
                "amount",
                "'amount' must be a positive decimal number with at most \(RatesRules.maxAmountIntegerDigits) integer and \(RatesRules.maxAmountFractionDigits) fraction digits, such as 10 or 99.95; got '\(text.prefix(40))'.")
        }
        return value
    }

    /// `points=N`: at most N days of a time series (``RatesRules/seriesPoints(_:)``); `nil` when absent.
    func seriesPoints() throws(Problem) -> Int? {
        guard let text = try single("points") else { return nil }
        guard let points = RatesRules.seriesPoints(text) else {
            throw .invalid(
                "points",
                "'points' must be a whole number from \(RatesRules.minSeriesPoints) to \(RatesRules.maxSeriesPoints), such as 250; got '\(text.prefix(40))'.")
        }
        return points
    }

    /// `providers=KEY[,KEY]`: provider keys in any letter case, each one a provider this server
    /// knows (``RatesUpstream/ProviderRegistry``); `nil` when absent.
    func providers() throws(Problem) -> Set<String>? {
        guard let text = try single("providers") else { return nil }
        var keys: Set<String> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let entry = ProviderRegistry.entry(String(part)) else {
                throw .invalid("providers", "'\(part.prefix(20))' is not a provider key; GET /v1/providers lists them (ECB, NBP, …).")
            }
            keys.insert(entry.key)
        }
        return keys
    }

    /// Whether `expand=sources` asks to name each value's source; any other `expand` is an error.
    func expandsSources() throws(Problem) -> Bool {
        guard let text = try single("expand") else { return false }
        guard text == "sources" else { throw .invalid("expand", "'expand' takes one value, sources; got '\(text.prefix(40))'.") }
        return true
    }

    /// The value of `name` or of its `alias`, with the name it was given under; both given alike is one.
    private func aliased(_ name: String, _ alias: String) throws(Problem) -> (name: String, value: String)? {
        switch (try single(name), try single(alias)) {
        case (let value?, nil): return (name, value)
        case (nil, let value?): return (alias, value)
        case (let value?, let other?):
            guard value == other else { throw .invalid(alias, "'\(alias)' is another name for '\(name)'; give one of them.") }
            return (name, value)
        case (nil, nil): return nil
        }
    }

    /// Whether `name` is given at all (even empty or repeated).
    func has(_ name: String) -> Bool { !parameters.getAll(name).isEmpty }

    func day(_ name: String) throws(Problem) -> Day? {
        guard let text = try single(name) else { return nil }
        return try Self.day(text, parameter: name)
    }

    static func day(_ text: some StringProtocol, parameter: String) throws(Problem) -> Day {
        guard let day = Day(text) else {
            throw .invalid(parameter, "'\(parameter)' must be a real calendar date written YYYY-MM-DD; got '\(text.prefix(40))'.")
        }
        return day
    }

    static func currency(_ text: some StringProtocol, parameter: String) throws(Problem) -> CurrencyCode {
        guard let code = CurrencyCode(text) else {
            throw .invalid(parameter, "'\(parameter)' must be three capital letters such as USD; got '\(text.prefix(40))'.")
        }
        return code
    }
}
