/// What a rate's change over time needs beyond cross rates: the signed difference of two values,
/// a quotient to a number of decimal places, and rounding to decimal places (exchangerate.host's
/// `places`). All exact, with integers; rounding is half away from zero, as everywhere else.
extension ExactDecimal {
    /// `minuend − subtrahend`, exactly, or `nil` when aligning the two to one exponent would
    /// outgrow ``maxDigits`` digits (never for two rates of one currency).
    public static func difference(_ minuend: ExactDecimal, _ subtrahend: ExactDecimal) -> SignedExactDecimal? {
        let exponent = min(minuend.exponent, subtrahend.exponent)
        guard let left = minuend.significand(atExponent: exponent), let right = subtrahend.significand(atExponent: exponent) else { return nil }
        let isNegative = left.isLess(than: right)
        let (larger, smaller) = isNegative ? (right, left) : (left, right)
        return SignedExactDecimal(magnitude: larger.subtracting(smaller).normalized, isNegative: isNegative)
    }

    /// `numerator / denominator` rounded half away from zero to `fractionDigits` decimal places,
    /// without trailing zeros; `nil` when either has more than 18 significand digits, the
    /// denominator is zero, or the scaled quotient would not fit 19 digits.
    public static func quotient(_ numerator: ExactDecimal, _ denominator: ExactDecimal, fractionDigits: Int) -> ExactDecimal? {
        guard let dividend = numerator.smallSignificand, let divisor = denominator.smallSignificand, divisor != 0, fractionDigits >= 0 else { return nil }
        if dividend == 0 { return .zero }
        // round(dividend × 10^shift / divisor) is the answer's significand at exponent −fractionDigits.
        let shift = numerator.exponent - denominator.exponent + fractionDigits
        var quotient: UInt64
        var remainder: UInt64
        var scaledDivisor = divisor
        if shift <= 0 {
            // Dividing by divisor × 10^−shift; past 10^19 the quotient rounds to zero.
            for _ in 0..<(-shift) {
                let (product, overflow) = scaledDivisor.multipliedReportingOverflow(by: 10)
                guard !overflow else { return .zero }
                scaledDivisor = product
            }
            (quotient, remainder) = dividend.quotientAndRemainder(dividingBy: scaledDivisor)
        } else {
            guard shift <= 19 else { return nil }
            let wide = dividend.multipliedFullWidth(by: powerOfTen(shift))
            guard wide.high < divisor else { return nil }
            (quotient, remainder) = divisor.dividingFullWidth(wide)
        }
        if remainder >= scaledDivisor - remainder {
            let (next, overflow) = quotient.addingReportingOverflow(1)
            guard !overflow else { return nil }
            quotient = next
        }
        return ExactDecimal(significand: quotient, exponent: -fractionDigits).normalized
    }

    /// The value rounded half away from zero to `places` decimal places (`1.23456` to 2 is `1.23`,
    /// `0.006` to 2 is `0.01`, `118.5` to 0 is `119`). A value with no more decimals comes back unchanged.
    public func rounded(fractionDigits places: Int) -> ExactDecimal {
        precondition(places >= 0, "decimal places must not be negative")
        guard -exponent > places, !isZero else { return self }
        var value = self
        var lastDropped: UInt64 = 0
        for _ in 0..<(-exponent - places) {
            lastDropped = value.divideSignificandByTen()
        }
        if lastDropped >= 5 { value.incrementSignificand() }
        return ExactDecimal(low: value.low, middle: value.middle, high: value.high, exponent: -places).normalized
    }

    // MARK: - Limbs

    /// This value's significand written at `exponent` (at most its own), exponent set to it; `nil`
    /// when that takes more than ``maxDigits`` digits.
    func significand(atExponent target: Int) -> ExactDecimal? {
        var value = ExactDecimal(low: low, middle: middle, high: high, exponent: target)
        for _ in 0..<(exponent - target) {
            guard value.multiplySignificandByTen() else { return nil }
        }
        return value
    }

    /// Multiplies the significand by ten across the limbs; `false` when it would outgrow them.
    mutating func multiplySignificandByTen() -> Bool {
        let lowTimesTen = low * 10
        let middleTimesTen = middle * 10 + lowTimesTen / Self.limbBase
        let highTimesTen = high * 10 + middleTimesTen / Self.limbBase
        guard highTimesTen < Self.limbBase else { return false }
        low = lowTimesTen % Self.limbBase
        middle = middleTimesTen % Self.limbBase
        high = highTimesTen
        return true
    }

    /// Adds one to the significand, carrying across the limbs.
    private mutating func incrementSignificand() {
        low += 1
        guard low == Self.limbBase else { return }
        low = 0
        middle += 1
        guard middle == Self.limbBase else { return }
        middle = 0
        high += 1
    }

    /// Whether this significand is below `other`'s (both at one exponent).
    private func isLess(than other: ExactDecimal) -> Bool {
        (high, middle, low) < (other.high, other.middle, other.low)
    }

    /// This significand minus a smaller or equal `other` (both at one exponent).
    private func subtracting(_ other: ExactDecimal) -> ExactDecimal {
        var borrow: UInt64 = 0
        func limb(_ left: UInt64, _ right: UInt64) -> UInt64 {
            let subtrahend = right + borrow
            if left >= subtrahend {
                borrow = 0
                return left - subtrahend
            }
            borrow = 1
            return left + Self.limbBase - subtrahend
        }
        let newLow = limb(low, other.low)
        let newMiddle = limb(middle, other.middle)
        let newHigh = limb(high, other.high)
        return ExactDecimal(low: newLow, middle: newMiddle, high: newHigh, exponent: exponent)
    }
}

/// A decimal with a sign: the difference of two exact values.
public struct SignedExactDecimal: Hashable, Sendable, CustomStringConvertible {
    /// The absolute value.
    public let magnitude: ExactDecimal
    /// Whether the value is below zero (never for zero).
    public let isNegative: Bool

    public init(magnitude: ExactDecimal, isNegative: Bool) {
        self.magnitude = magnitude
        self.isNegative = isNegative && !magnitude.isZero
    }

    /// Plain decimal text with a leading `-` when negative: a valid JSON number.
    public var description: String { (isNegative ? "-" : "") + magnitude.description }
}
