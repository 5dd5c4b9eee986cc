/// The mean of several values, exactly, rounded once: what a period's figure is when Frankfurter
/// v2's `group=week|month` asks for one (the period's mean of the served daily values).
extension ExactDecimal {
    /// The arithmetic mean of `values`, rounded half away from zero to `significantDigits`
    /// significant digits (1…18) from the exact quotient; `nil` for no values, or when the exact sum
    /// would outgrow ``maxDigits`` digits (never for rates of one currency over a month).
    public static func mean(of values: some Collection<ExactDecimal>, significantDigits: Int = rateSignificantDigits) -> ExactDecimal? {
        precondition((1...limbDigits).contains(significantDigits), "significant digits must be 1…18")
        guard !values.isEmpty, let sum = sum(of: values) else { return nil }
        if sum.isZero { return .zero }
        // The sum's significand widened to all its limbs hold (at least 36 digits), so that its integer
        // quotient by the count keeps more digits than are served: that quotient, truncated, then
        // rounded at `significantDigits`, is the exact quotient rounded once (the first dropped digit
        // alone decides half away from zero).
        var scaled = sum
        var exponent = sum.exponent
        while scaled.multiplySignificandByTen() { exponent -= 1 }
        let count = UInt64(values.count)
        var remainder: UInt64 = 0
        func divide(_ limb: UInt64) -> UInt64 {
            let wide = remainder.multipliedFullWidth(by: limbBase)
            let (partial, overflow) = wide.low.addingReportingOverflow(limb)
            let (quotient, rest) = count.dividingFullWidth((wide.high + (overflow ? 1 : 0), partial))
            remainder = rest
            return quotient
        }
        let high = divide(scaled.high)
        let middle = divide(scaled.middle)
        let low = divide(scaled.low)
        return ExactDecimal(low: low, middle: middle, high: high, exponent: exponent).rounded(significantDigits: significantDigits)
    }

    /// The exact sum of `values`, or `nil` when aligning them to one exponent or adding them would
    /// outgrow ``maxDigits`` digits.
    public static func sum(of values: some Collection<ExactDecimal>) -> ExactDecimal? {
        guard let exponent = values.lazy.filter({ !$0.isZero }).map(\.exponent).min() else { return .zero }
        var total = ExactDecimal(low: 0, middle: 0, high: 0, exponent: exponent)
        for value in values where !value.isZero {
            guard let aligned = value.significand(atExponent: exponent) else { return nil }
            let low = total.low + aligned.low
            let middle = total.middle + aligned.middle + low / limbBase
            let high = total.high + aligned.high + middle / limbBase
            guard high < limbBase else { return nil }
            total = ExactDecimal(low: low % limbBase, middle: middle % limbBase, high: high, exponent: exponent)
        }
        return total
    }
}
