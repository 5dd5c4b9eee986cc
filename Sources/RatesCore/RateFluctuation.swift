/// How one currency's rate moved between two days, as exchangerate.host's `/fluctuation` reported it.
///
/// exchangerate.host's recorded answers fix the sign and scale, and clients read them so:
/// `change` is `start − end` (positive when the rate fell: USD from 1.1221 to 1.1171 is `0.005`),
/// and `changePercent` is `change / start` as a fraction, not per cent (`0.004456`), rounded half
/// away from zero to ``changePercentDigits`` decimal places. `change` is exact.
public struct RateFluctuation: Sendable, Equatable {
    public let start: ExactDecimal
    public let end: ExactDecimal
    /// `start − end`, exact.
    public let change: SignedExactDecimal
    /// `change / start`, rounded to the decimal places asked (``changePercentDigits`` by default).
    public let changePercent: SignedExactDecimal

    /// The decimal places of `changePercent` in exchangerate.host's answers.
    public static let changePercentDigits = 6

    /// The movement from `start` to `end`; `unscaledStart`/`unscaledEnd`, when given, are the unscaled
    /// rates `changePercent` is computed from (an amount scales both ends alike and leaves it unchanged).
    /// `nil` when the arithmetic does not fit (a zero start; digits beyond ``ExactDecimal/maxDigits``).
    public init?(
        start: ExactDecimal, end: ExactDecimal, unscaledStart: ExactDecimal? = nil, unscaledEnd: ExactDecimal? = nil,
        percentDigits: Int = changePercentDigits
    ) {
        guard let change = ExactDecimal.difference(start, end),
              let unscaledChange = ExactDecimal.difference(unscaledStart ?? start, unscaledEnd ?? end),
              let percent = ExactDecimal.quotient(unscaledChange.magnitude, unscaledStart ?? start, fractionDigits: percentDigits)
        else { return nil }
        self.start = start
        self.end = end
        self.change = change
        changePercent = SignedExactDecimal(magnitude: percent, isNegative: unscaledChange.isNegative)
    }
}
