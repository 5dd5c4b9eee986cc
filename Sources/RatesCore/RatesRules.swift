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

    /// The fewest points `points=` may ask of a time series: its first and last day.
    public static let minSeriesPoints = 2
    /// The most points `points=` may ask of a time series (more than the publications of a century).
    public static let maxSeriesPoints = 100_000

    /// `text` as the number of points of a time series: plain digits, from ``minSeriesPoints``
    /// to ``maxSeriesPoints``; `nil` otherwise (signs, fractions, exponents, spaces).
    public static func seriesPoints(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 6, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), (minSeriesPoints...maxSeriesPoints).contains(value)
        else { return nil }
        return value
    }

    /// The days a time series shows when at most `points` are asked (at least ``minSeriesPoints``):
    /// all of `days` when there are no more, else `points` of them evenly spaced by position, the
    /// first and the last always among them. A chart of years stays a few kilobytes and keeps its ends.
    public static func evenlySpaced<Days: RandomAccessCollection>(_ days: Days, atMost points: Int) -> [Days.Element] {
        let count = days.count
        guard count > points, points >= minSeriesPoints else { return Array(days) }
        // Position i of points - 1 gaps, rounded to the nearest: 0 and count - 1 at the ends, and
        // distinct in between, since the gaps (count - 1) / (points - 1) are wider than one.
        let gaps = points - 1
        return (0..<points).map { step in
            days[days.index(days.startIndex, offsetBy: (step * (count - 1) + gaps / 2) / gaps)]
        }
    }

    /// The first of `base` and then `symbols` that has no rate, or `nil` when all have one.
    public static func firstMissing(base: CurrencyCode, symbols: [CurrencyCode]?, isAvailable: (CurrencyCode) -> Bool) -> CurrencyCode? {
        if !isAvailable(base) { return base }
        return symbols?.first { !isAvailable($0) }
    }
}

extension CrossRates {
    /// The rates of a table for `base`: each currency it lists (``forEachRate(base:symbols:_:)``)
    /// with its rate, in order. Check ``RatesRules/firstMissing(base:symbols:isAvailable:)`` first.
    public func table(base: CurrencyCode, symbols: [CurrencyCode]?) -> [(code: CurrencyCode, rate: RateValue)] {
        var rates: [(code: CurrencyCode, rate: RateValue)] = []
        rates.reserveCapacity(symbols?.count ?? table.count)
        forEachRate(base: base, symbols: symbols) { rates.append(($0, $1)) }
        return rates
    }
}
