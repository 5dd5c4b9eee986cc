/// The rules every rates answer follows, on the server (`/v1/latest`, `/v1/rates/{date}`,
/// `/v1/timeseries`, `/v1/convert`) and in the SDK's local reads alike: declared once here.
public enum RatesRules {
    /// The most integer digits an amount may have.
    public static let maxAmountIntegerDigits = 15
    /// The most fraction digits an amount may have.
    public static let maxAmountFractionDigits = 8

    /// `text` as an amount: a positive plain decimal with at most ``maxAmountIntegerDigits``
    /// integer and ``maxAmountFractionDigits`` fraction digits (`10`, `99.95`); `nil` otherwise
    /// (signs, exponents, separators, `.5`, `1.`, zero). Trailing zeros are dropped (`10.50` is `10.5`).
    public static func amount(_ text: some StringProtocol) -> ExactDecimal? {
        var integerDigits = 0
        var fractionDigits = 0
        var sawPoint = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                if sawPoint { return nil }
                sawPoint = true
            } else if sawPoint {
                fractionDigits += 1
            } else {
                integerDigits += 1
            }
        }
        guard integerDigits <= maxAmountIntegerDigits, fractionDigits <= maxAmountFractionDigits,
              let value = ExactDecimal(text), !value.isZero
        else { return nil }
        return value.normalized
    }

    /// The currencies a table for `base` lists: exactly `symbols` (in the order given) when
    /// given, else every currency with a rate but `base`, in code order.
    public static func listedCurrencies(base: CurrencyCode, symbols: [CurrencyCode]?, available: Set<CurrencyCode>) -> [CurrencyCode] {
        symbols ?? available.filter { $0 != base }.sorted()
    }

    /// The first of `base` and then `symbols` that has no rate, or `nil` when all have one.
    public static func firstMissing(base: CurrencyCode, symbols: [CurrencyCode]?, isAvailable: (CurrencyCode) -> Bool) -> CurrencyCode? {
        if !isAvailable(base) { return base }
        return symbols?.first { !isAvailable($0) }
    }
}

extension CrossRates {
    /// The rates of a table for `base`: each listed currency (``RatesRules/listedCurrencies(base:symbols:available:)``)
    /// with its rate, in order. Check ``RatesRules/firstMissing(base:symbols:isAvailable:)`` first.
    public func table(base: CurrencyCode, symbols: [CurrencyCode]?) -> [(code: CurrencyCode, rate: RateValue)] {
        var rates: [(code: CurrencyCode, rate: RateValue)] = []
        rates.reserveCapacity(symbols?.count ?? table.count)
        forEachRate(base: base, symbols: symbols) { rates.append(($0, $1)) }
        return rates
    }
}
