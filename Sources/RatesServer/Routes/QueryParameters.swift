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

    /// The value of `name` as `parse` reads it, `nil` when absent.
    ///
    /// - Throws: An `invalid-parameter` problem saying what the value must be when `parse` refuses it.
    func value<Value>(_ name: String, mustBe expected: @autoclosure () -> String, _ parse: (String) -> Value?) throws(Problem) -> Value? {
        guard let text = try single(name) else { return nil }
        guard let value = parse(text) else { throw Self.invalid(name, mustBe: expected(), got: text) }
        return value
    }

    /// The problem of a value of `parameter` that is not what it must be: `'amount' must be …; got 'x'.`
    static func invalid(_ parameter: String, mustBe expected: String, got text: some StringProtocol) -> Problem {
        .invalid(parameter, "'\(parameter)' must be \(expected); got '\(text.prefix(40))'.")
    }

    func requiredCurrency(_ name: String) throws(Problem) -> CurrencyCode {
        guard let text = try single(name) else { throw .invalid(name, "'\(name)' is required: a three-letter currency code such as USD.") }
        return try Self.currency(text, parameter: name)
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

    /// The base (`defaultBase` when absent), symbols and amount of a rates answer, read in that order.
    func baseSymbolsAmount(defaultBase: CurrencyCode) throws(Problem) -> (base: CurrencyCode, symbols: [CurrencyCode]?, amount: ExactDecimal) {
        try (base() ?? defaultBase, symbols(), amount())
    }

    /// A positive decimal amount (``RatesRules/amount(_:)``). Defaults to 1.
    func amount() throws(Problem) -> ExactDecimal {
        try value(
            "amount", mustBe: "a positive decimal number with at most \(RatesRules.maxAmountIntegerDigits) integer and "
                + "\(RatesRules.maxAmountFractionDigits) fraction digits, such as 10 or 99.95", RatesRules.amount) ?? .one
    }

    /// `points=N`: at most N days of a time series (``RatesRules/seriesPoints(_:)``); `nil` when absent.
    func seriesPoints() throws(Problem) -> Int? {
        let range = (RatesRules.minSeriesPoints, RatesRules.maxSeriesPoints)
        return try value("points", mustBe: "a whole number from \(range.0) to \(range.1), such as 250", RatesRules.seriesPoints)
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
        try expands("sources")
    }

    /// Whether `expand` asks for `value`, the one value it takes on the route; any other `expand` is an error.
    func expands(_ value: String) throws(Problem) -> Bool {
        guard let text = try single("expand") else { return false }
        guard text == value else { throw .invalid("expand", "'expand' takes one value, \(value); got '\(text.prefix(40))'.") }
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
        guard let day = Day(text) else { throw invalid(parameter, mustBe: "a real calendar date written YYYY-MM-DD", got: text) }
        return day
    }

    static func currency(_ text: some StringProtocol, parameter: String) throws(Problem) -> CurrencyCode {
        guard let code = CurrencyCode(text) else { throw invalid(parameter, mustBe: "three capital letters such as USD", got: text) }
        return code
    }
}
