import Foundation

/// A rate as the service reports it: the provider's own text, or a value computed from it.
public enum RateValue: Hashable, Sendable, CustomStringConvertible {
    /// Published by the provider; the text is reported unchanged.
    case published(String)
    /// Computed with `Decimal` (cross rates, inverses, scaled amounts).
    case computed(Decimal)

    /// The exact decimal value.
    public var decimal: Decimal {
        switch self {
        case .published(let text): return Decimal(string: text, locale: nil) ?? 0
        case .computed(let value): return value
        }
    }

    /// Plain decimal notation, suitable as a JSON number.
    public var description: String {
        switch self {
        case .published(let text): return text
        case .computed(let value): return value.plainText
        }
    }

    /// This rate multiplied by `amount`, exactly (no rounding beyond the rate's own).
    public func scaled(by amount: Decimal) -> RateValue {
        amount == 1 ? self : .computed(decimal * amount)
    }
}

/// Exact cross rates from one day's published rates.
///
/// `rate(A→B) = rate(base→B) / rate(base→A)`, computed with `Decimal` and rounded to
/// ``significantDigits`` significant digits. A rate from the provider's base is the
/// published value itself and is never rounded.
public struct CrossRates: Sendable {
    /// Significant digits carried by computed rates.
    public static let significantDigits = 8

    /// The provider's base currency.
    public let providerBase: CurrencyCode
    /// Published rate text per currency, relative to `providerBase`.
    public let published: [CurrencyCode: String]

    public init(providerBase: CurrencyCode, published: [CurrencyCode: String]) {
        self.providerBase = providerBase
        self.published = published
    }

    /// Every currency with a rate that day, the provider's base included.
    public var currencies: Set<CurrencyCode> { Set(published.keys).union([providerBase]) }

    /// The value of one unit of `from` in `to`, or `nil` when either has no rate that day.
    public func rate(from: CurrencyCode, to: CurrencyCode) -> RateValue? {
        if from == to { return currencies.contains(from) ? .computed(1) : nil }
        if from == providerBase { return published[to].map(RateValue.published) }
        guard let fromRate = published[from].flatMap(Self.decimal) else { return nil }
        let toRate: Decimal
        if to == providerBase {
            toRate = 1
        } else {
            guard let value = published[to].flatMap(Self.decimal) else { return nil }
            toRate = value
        }
        return .computed((toRate / fromRate).rounded(significantDigits: Self.significantDigits))
    }

    static func decimal(_ text: String) -> Decimal? { Decimal(string: text, locale: nil) }
}

extension Decimal {
    /// The value rounded half away from zero to `digits` significant digits.
    public func rounded(significantDigits digits: Int) -> Decimal {
        guard !isZero, isFinite else { return self }
        // Position of the leading digit: 10^magnitude <= |self| < 10^(magnitude+1).
        let text = magnitude.plainText
        let magnitude: Int
        if let dot = text.firstIndex(of: "."), text.hasPrefix("0") {
            let fraction = text[text.index(after: dot)...]
            magnitude = -((fraction.firstIndex { $0 != "0" }.map { fraction.distance(from: fraction.startIndex, to: $0) } ?? 0) + 1)
        } else {
            magnitude = (text.firstIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) } ?? text.count) - 1
        }
        var source = self
        var result = Decimal()
        NSDecimalRound(&result, &source, digits - 1 - magnitude, .plain)
        return result
    }

    /// Plain decimal notation without exponent (`0.00012`, `1234.5`).
    public var plainText: String {
        let text = description
        guard text.contains("e") || text.contains("E") else { return text }
        // Foundation prints plain notation; keep a fallback should that ever change.
        return NSDecimalNumber(decimal: self).stringValue
    }
}
