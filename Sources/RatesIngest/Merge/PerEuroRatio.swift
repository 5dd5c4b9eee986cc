import RatesCore

/// A value built from published figures as `(n₁ × n₂ …) / (d₁ × d₂ …) × 10^exponent`: how a quote
/// becomes a value per EUR with a single rounding.
///
/// Units are powers of ten, so they only move ``exponent``; the figures' digits are multiplied
/// exactly and divided once (``evaluated(significantDigits:)``).
struct PerEuroRatio {
    var numerators: [ExactDecimal]
    var denominators: [ExactDecimal]
    var exponent: Int
}

extension PerEuroRatio {
    /// "Units of the quoted currency per 1 pivot" as `quote` says it, or `nil` when the figure is
    /// zero, is not a decimal, or its unit is not a power of ten.
    init?(_ quote: PublishedQuote) {
        guard let value = ExactDecimal(quote.value), !value.isZero, value.significandDigits <= 18,
              let unitExponent = Self.powerOfTenExponent(quote.unit)
        else { return nil }
        switch quote.direction {
        case .unitsPerPivot:  // value units for `unit` pivot
            self.init(numerators: [value], denominators: [], exponent: -unitExponent)
        case .pivotPerUnits:  // value pivot for `unit` units
            self.init(numerators: [], denominators: [value], exponent: unitExponent)
        }
    }

    /// 1 / self.
    var inverse: PerEuroRatio { PerEuroRatio(numerators: denominators, denominators: numerators, exponent: -exponent) }

    static func * (lhs: PerEuroRatio, rhs: PerEuroRatio) -> PerEuroRatio {
        PerEuroRatio(
            numerators: lhs.numerators + rhs.numerators, denominators: lhs.denominators + rhs.denominators, exponent: lhs.exponent + rhs.exponent)
    }

    /// The value.
    ///
    /// - A single figure in the numerator is returned exactly, its published digits kept and only
    ///   its exponent moved by the unit: nothing is computed, so nothing is rounded.
    /// - Otherwise the numerators and the denominators are each multiplied exactly, and the
    ///   quotient (or the lone product) is rounded once, half away from zero, to `digits`
    ///   significant digits. Only a product longer than 18 digits (three long figures through the
    ///   ECB bridge) is first rounded to 18 significant digits, an extra rounding eight digits below
    ///   the kept ones: ``ExactDecimal/quotient(_:_:significantDigits:)`` divides 18-digit operands.
    func evaluated(significantDigits digits: Int) -> ExactDecimal? {
        if numerators.count == 1, denominators.isEmpty {
            return numerators[0].shifted(byPowerOfTen: exponent)
        }
        guard let numerator = ExactDecimal.product(of: numerators), let denominator = ExactDecimal.product(of: denominators) else { return nil }
        if denominators.isEmpty {
            return numerator.rounded(significantDigits: digits).shifted(byPowerOfTen: exponent)
        }
        let dividend = numerator.rounded(significantDigits: 18)
        let divisor = denominator.rounded(significantDigits: 18)
        return ExactDecimal.quotient(dividend, divisor, significantDigits: digits)?.shifted(byPowerOfTen: exponent)
    }

    /// k for a unit of 10^k (1, 10, 100, …), `nil` for anything else.
    static func powerOfTenExponent(_ unit: Int) -> Int? {
        guard unit >= 1 else { return nil }
        var rest = unit
        var exponent = 0
        while rest % 10 == 0 {
            rest /= 10
            exponent += 1
        }
        return rest == 1 ? exponent : nil
    }
}
