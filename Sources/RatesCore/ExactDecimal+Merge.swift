/// What the provider merge needs beyond cross rates: exact shifts by powers of ten (a figure
/// quoted per 100 units), exact products of several published figures, rounding a long product
/// to a number of significant digits, and an approximation for tolerance checks.
extension ExactDecimal {
    /// `self × 10^power`, exactly: the same digits with the exponent moved (`"14.568"` shifted by −2 is `0.14568`).
    public func shifted(byPowerOfTen power: Int) -> ExactDecimal {
        ExactDecimal(low: low, middle: middle, high: high, exponent: exponent + power)
    }

    /// How many digits the significand has (1 for zero), trailing zeros included (`"1.1650"` has 5).
    public var significandDigits: Int { significandDigitCount }

    /// The value rounded half away from zero to `digits` significant digits (1…18), without
    /// trailing zeros. A value with at most `digits` digits comes back unchanged in value (only its
    /// trailing zeros dropped): rounding is needed only for longer significands, such as an exact
    /// product of two or three published figures (up to ``maxDigits`` digits).
    public func rounded(significantDigits digits: Int) -> ExactDecimal {
        precondition((1...Self.limbDigits).contains(digits), "significant digits must be 1…18")
        let count = significandDigitCount
        guard count > digits, !isZero else { return normalized }
        // Drop the (count − digits) lowest digits one by one, limb by limb; half away from
        // zero depends only on the most significant dropped digit (≥ 5 rounds up).
        var value = self
        var lastDropped: UInt64 = 0
        for _ in 0..<(count - digits) {
            lastDropped = value.divideSignificandByTen()
        }
        // What is left has `digits` ≤ 18 digits: it fits the low limb.
        var significand = value.low
        var exponent = self.exponent + count - digits
        if lastDropped >= 5 {
            significand += 1
            if significand == Self.powerOfTen(digits) {
                significand /= 10
                exponent += 1
            }
        }
        return ExactDecimal(significand: significand, exponent: exponent).normalized
    }

    /// The exact product of `factors` (one for none), or `nil` when a partial product outgrows
    /// ``maxDigits`` digits. Each factor must have at most 18 significand digits, as every published figure does.
    public static func product(of factors: some Sequence<ExactDecimal>) -> ExactDecimal? {
        var result = ExactDecimal.one
        for factor in factors {
            guard let next = result.multiplied(by: factor) else { return nil }
            result = next
        }
        return result
    }

    /// A `Double` for tolerance checks (consensus, "within 0.5%"), never for a served value: the
    /// nearest one when the significand has at most 15 digits, else within two units in its last place.
    public var approximation: Double {
        // A significand and a power of ten that are both exact as doubles give the nearest double in one
        // correctly rounded operation (a decimal parser's fast path); a longer significand is rounded
        // once more on the way in. No text is written or read: the merge takes this of every value it weighs.
        if let significand = smallSignificand, exponent.magnitude < Self.exactPowersOfTen.count {
            let power = Self.exactPowersOfTen[Int(exponent.magnitude)]
            return exponent < 0 ? Double(significand) / power : Double(significand) * power
        }
        // The plain text is at most a few hundred digits; Double's parser rounds correctly.
        return Double(description) ?? .nan
    }

    /// 10^0 … 10^22: the powers of ten a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).reduce(into: []) { powers, k in powers.append(k == 0 ? 1 : powers[k - 1] * 10) }
}
