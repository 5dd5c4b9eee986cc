import Foundation

/// A rate as the service reports it: the provider's own figure, or a value computed from it.
public enum RateValue: Hashable, Sendable, CustomStringConvertible {
    /// Published by the provider; it prints as the published text, digit for digit.
    case published(ExactDecimal)
    /// Computed from published figures (cross rates, inverses, scaled amounts).
    case computed(ExactDecimal)

    /// The exact value.
    public var exact: ExactDecimal {
        switch self {
        case .published(let value), .computed(let value): return value
        }
    }

    /// The value as a `Decimal`, for apps that compute with Foundation's type (exact up to 38 digits).
    public var decimal: Decimal { Decimal(string: exact.description, locale: nil) ?? 0 }

    /// Plain decimal notation, suitable as a JSON number.
    public var description: String { exact.description }

    /// This rate multiplied by `amount`, exactly (no rounding beyond the rate's own).
    public func scaled(by amount: ExactDecimal) -> RateValue {
        if amount == .one { return self }
        return .computed(exact.multiplied(by: amount) ?? .zero)
    }
}

/// Exact cross rates from one day's published rates.
///
/// `rate(A→B) = rate(base→B) / rate(base→A)`, computed with integers
/// (``ExactDecimal/quotient(_:_:significantDigits:)``) and rounded half away from zero to
/// ``significantDigits`` significant digits. A rate from the provider's base is the published
/// value itself, never rounded; a computed one held to more digits is rounded once (``served(_:)``).
public struct CrossRates: Sendable {
    /// Significant digits carried by computed rates.
    public static let significantDigits = ExactDecimal.rateSignificantDigits

    /// The provider's base currency.
    public let providerBase: CurrencyCode
    /// The day's published rates, relative to `providerBase`.
    public let table: DayTable

    public init(providerBase: CurrencyCode, table: DayTable) {
        self.providerBase = providerBase
        self.table = table
    }

    /// A rate of the table against the provider's base as it is served: as the table holds it when it
    /// has at most ``significantDigits`` significant digits, or only zeros past them — every figure a
    /// source publishes per EUR does, trailing zeros kept; else a value computed from figures of
    /// another pivot (held to 18 digits, so that cross rates from it are rounded once), rounded once
    /// to ``significantDigits``.
    public static func served(_ value: ExactDecimal) -> RateValue {
        guard value.significandDigits > significantDigits else { return .published(value) }
        let rounded = value.rounded(significantDigits: significantDigits)
        return rounded == value.normalized ? .published(value) : .computed(rounded)
    }

    /// Cross rates from published rate texts per currency (the day is not needed to compute them).
    public init(providerBase: CurrencyCode, published: [CurrencyCode: String]) {
        self.init(providerBase: providerBase, table: DayTable(day: Day(dayNumber: 0), rates: published))
    }

    /// Published rate text per currency, relative to `providerBase`.
    public var published: [CurrencyCode: String] { table.texts }

    /// Whether `code` has a rate that day (the provider's base always has).
    public func contains(_ code: CurrencyCode) -> Bool {
        code == providerBase || table.index(of: code) != nil
    }

    /// Every currency with a rate that day, the provider's base included.
    public var currencies: Set<CurrencyCode> { Set(table.codes).union([providerBase]) }

    /// The value of one unit of `from` in `to`, or `nil` when either has no rate that day.
    public func rate(from: CurrencyCode, to: CurrencyCode) -> RateValue? {
        if from == to { return contains(from) ? .computed(.one) : nil }
        if from == providerBase { return table.rate(of: to).map(Self.served) }
        guard let fromRate = table.rate(of: from) else { return nil }
        return rate(fromRate: fromRate, to: to)
    }

    /// The cross rate from a currency whose published rate is `fromRate` to `to`.
    private func rate(fromRate: ExactDecimal, to: CurrencyCode) -> RateValue? {
        guard let toRate = to == providerBase ? .one : table.rate(of: to) else { return nil }
        return ExactDecimal.quotient(toRate, fromRate).map(RateValue.computed)
    }

    /// Calls `body` with each currency a table for `base` lists (exactly `symbols`, in the order given,
    /// when given, else every currency with a rate but `base`, in code order) and its rate, in order,
    /// without building the list. Check ``RatesRules/firstMissing(base:symbols:isAvailable:)`` first.
    public func forEachRate(base: CurrencyCode, symbols: [CurrencyCode]?, _ body: (CurrencyCode, RateValue) throws -> Void) rethrows {
        if let symbols {
            for code in symbols {
                if let rate = rate(from: base, to: code) { try body(code, rate) }
            }
            return
        }
        // Every code but the base, in code order: the table's codes with the provider's base slotted in.
        let fromRate = base == providerBase ? nil : table.rate(of: base)
        if base != providerBase && fromRate == nil { return }
        var baseListed = false
        for index in table.codes.indices {
            let code = table.codes[index]
            if !baseListed && providerBase < code {
                baseListed = true
                if base != providerBase, let fromRate, let rate = self.rate(fromRate: fromRate, to: providerBase) { try body(providerBase, rate) }
            }
            if code == base { continue }
            if let fromRate {
                guard let toRate = ExactDecimal.quotient(table.rate(at: index), fromRate) else { continue }
                try body(code, .computed(toRate))
            } else {
                try body(code, Self.served(table.rate(at: index)))
            }
        }
        if !baseListed && base != providerBase, let fromRate, let rate = self.rate(fromRate: fromRate, to: providerBase) { try body(providerBase, rate) }
    }
}

extension Decimal {
    /// Plain decimal notation without exponent (`0.00012`, `1234.5`).
    public var plainText: String {
        let text = description
        guard text.contains("e") || text.contains("E") else { return text }
        // Foundation prints plain notation; keep a fallback should that ever change.
        return NSDecimalNumber(decimal: self).stringValue
    }
}
