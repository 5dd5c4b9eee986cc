import Foundation

/// The rules every rates answer follows, on the server (`/v1/latest`, `/v1/rates/{date}`,
/// `/v1/timeseries`, `/v1/convert`) and in the SDK's local reads alike: declared once here.
public enum RatesRules {
    /// The most integer digits an amount may have.
    public static let maxAmountIntegerDigits = 15
    /// The most fraction digits an amount may have.
    public static let maxAmountFractionDigits = 8

    /// `text` as an amount: a positive plain decimal with at most ``maxAmountIntegerDigits``
    /// integer and ``maxAmountFractionDigits`` fraction digits (`10`, `99.95`); `nil` otherwise
    /// (signs, exponents, separators, `.5`, `1.`, zero).
    public static func amount(_ text: some StringProtocol) -> Decimal? {
        let text = String(text)
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
        guard parts.allSatisfy(isDigits), parts[0].count <= maxAmountIntegerDigits, parts.count == 1 || parts[1].count <= maxAmountFractionDigits,
              let value = Decimal(string: text, locale: nil), value > 0
        else { return nil }
        return value
    }

    /// The currencies a table for `base` lists: exactly `symbols` (in the order given) when
    /// given, else every currency with a rate but `base`, in code order.
    public static func listedCurrencies(base: CurrencyCode, symbols: [CurrencyCode]?, available: Set<CurrencyCode>) -> [CurrencyCode] {
        symbols ?? available.filter { $0 != base }.sorted()
    }

    /// The first of `base` and then `symbols` that has no rate in `available`, or `nil` when all have one.
    public static func firstMissing(base: CurrencyCode, symbols: [CurrencyCode]?, available: Set<CurrencyCode>) -> CurrencyCode? {
        ([base] + (symbols ?? [])).first { !available.contains($0) }
    }
}

extension CrossRates {
    /// The rates of a table for `base`: each listed currency (``RatesRules/listedCurrencies(base:symbols:available:)``)
    /// with its rate, in order. Check ``RatesRules/firstMissing(base:symbols:available:)`` first.
    public func table(base: CurrencyCode, symbols: [CurrencyCode]?) -> [(code: CurrencyCode, rate: RateValue)] {
        RatesRules.listedCurrencies(base: base, symbols: symbols, available: currencies).compactMap { code in
            rate(from: base, to: code).map { (code, $0) }
        }
    }
}
