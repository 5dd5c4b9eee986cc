/// A non-negative decimal number held exactly, `significand × 10^exponent`, computed with
/// integer arithmetic: how rates, cross rates and amounts are represented and printed.
///
/// The significand has up to 54 digits, kept in three base-10^18 limbs: enough for any rate
/// (``RateText/maxSignificantDigits`` = 18 digits) multiplied by any amount (23 digits). A value
/// keeps the digits it was made from, so a published `"1.1650"` prints back as `"1.1650"`;
/// computed values carry no trailing zeros. Equality is by value (`1.10 == 1.1`). Nothing here
/// allocates, formats a string to do arithmetic or uses `Decimal`.
public struct ExactDecimal: Hashable, Sendable, CustomStringConvertible {
    /// The significand's limbs, least significant first, each below ``limbBase``.
    @usableFromInline var low: UInt64
    @usableFromInline var middle: UInt64
    @usableFromInline var high: UInt64
    /// The power of ten the significand is multiplied by.
    public let exponent: Int

    /// 10^18: one limb holds 18 decimal digits.
    @usableFromInline static let limbBase: UInt64 = 1_000_000_000_000_000_000
    /// Digits one limb holds.
    static let limbDigits = 18
    /// The most significand digits a value holds.
    public static let maxDigits = 54

    /// Significant digits carried by computed rates (cross rates, inverses).
    public static let rateSignificantDigits = 8

    /// `significand × 10^exponent`.
    public init(significand: UInt64, exponent: Int) {
        if significand >= Self.limbBase {
            low = significand % Self.limbBase
            middle = significand / Self.limbBase
        } else {
            low = significand
            middle = 0
        }
        high = 0
        self.exponent = exponent
    }

    init(low: UInt64, middle: UInt64, high: UInt64, exponent: Int) {
        self.low = low
        self.middle = middle
        self.high = high
        self.exponent = exponent
    }

    /// One.
    public static let one = ExactDecimal(significand: 1, exponent: 0)
    /// Zero.
    public static let zero = ExactDecimal(significand: 0, exponent: 0)

    /// Reads plain decimal text: ASCII digits with at most one `.` between digits
    /// (`"1.1650"`, `"136"`, `"0.000049"`, `"1234.56"`), at most ``maxDigits`` digits once
    /// leading zeros are dropped. `nil` for anything else: signs, exponents, spaces, `".5"`, `"1."`.
    public init?(_ text: some StringProtocol) {
        // One concrete loop over contiguous bytes (every native string's): a generic one walks
        // the text through its witness table, byte by byte, from another module.
        let utf8 = text.utf8
        guard let value = utf8.withContiguousStorageIfAvailable(Self.init(contiguous:)) ?? Array(utf8).withUnsafeBufferPointer(Self.init(contiguous:))
        else { return nil }
        self = value
    }

    private init?(contiguous text: UnsafeBufferPointer<UInt8>) {
        var low: UInt64 = 0
        var middle: UInt64 = 0
        var high: UInt64 = 0
        var digits = 0
        var integerDigits = 0
        var fractionDigits = 0
        var sawPoint = false
        for byte in text {
            if byte == UInt8(ascii: ".") {
                guard !sawPoint, integerDigits > 0 else { return nil }
                sawPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            if sawPoint { fractionDigits += 1 } else { integerDigits += 1 }
            let digit = UInt64(byte - UInt8(ascii: "0"))
            if digits == 0 && digit == 0 { continue }
            digits += 1
            guard digits <= Self.maxDigits else { return nil }
            // significand = significand × 10 + digit, limb by limb.
            let lowTimesTen = low * 10 + digit
            let middleTimesTen = middle * 10 + lowTimesTen / Self.limbBase
            high = high * 10 + middleTimesTen / Self.limbBase
            low = lowTimesTen % Self.limbBase
            middle = middleTimesTen % Self.limbBase
        }
        guard integerDigits > 0, !sawPoint || fractionDigits > 0 else { return nil }
        self.init(low: low, middle: middle, high: high, exponent: -fractionDigits)
    }

    /// Whether the value is zero.
    public var isZero: Bool { low == 0 && middle == 0 && high == 0 }

    /// The same value without trailing zeros in its significand (`1.1650` → `1.165`, `100` → `1E2`):
    /// how computed values are printed, as `Decimal` prints them.
    public var normalized: ExactDecimal {
        guard !isZero else { return ExactDecimal.zero }
        var value = self
        var exponent = self.exponent
        while value.low % 10 == 0 {
            value.divideSignificandByTen()
            exponent += 1
        }
        return ExactDecimal(low: value.low, middle: value.middle, high: value.high, exponent: exponent)
    }

    /// Divides the significand by ten across its three limbs, carrying each remainder down a
    /// limb; returns the digit dropped. The exponent is the caller's to adjust.
    @discardableResult
    mutating func divideSignificandByTen() -> UInt64 {
        let highRemainder = high % 10
        high /= 10
        let middleWithCarry = highRemainder * Self.limbBase + middle
        middle = middleWithCarry / 10
        let lowWithCarry = (middleWithCarry % 10) * Self.limbBase + low
        low = lowWithCarry / 10
        return lowWithCarry % 10
    }

    /// The significand when it fits one limb (below 10^18), else `nil`.
    var smallSignificand: UInt64? { middle == 0 && high == 0 ? low : nil }

    /// Equal values, whatever their trailing zeros.
    public static func == (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        let left = lhs.normalized
        let right = rhs.normalized
        return left.low == right.low && left.middle == right.middle && left.high == right.high && (left.exponent == right.exponent || left.isZero)
    }

    public func hash(into hasher: inout Hasher) {
        let value = normalized
        hasher.combine(value.low)
        hasher.combine(value.middle)
        hasher.combine(value.high)
        hasher.combine(value.isZero ? 0 : value.exponent)
    }

    // MARK: - Arithmetic

    /// The exact product `self × other`, without trailing zeros (``normalized``), or `nil` when both have more than 18 significand
    /// digits or the product has more than ``maxDigits`` (neither happens for a rate times an amount).
    public func multiplied(by other: ExactDecimal) -> ExactDecimal? {
        if let factor = other.smallSignificand { return multiplied(bySignificand: factor, exponent: other.exponent)?.normalized }
        if let factor = smallSignificand { return other.multiplied(bySignificand: factor, exponent: exponent)?.normalized }
        return nil
    }

    private func multiplied(bySignificand factor: UInt64, exponent otherExponent: Int) -> ExactDecimal? {
        // Each limb × factor < 10^36 splits into a carry (< 10^18) and a limb.
        func split(_ limb: UInt64) -> (carry: UInt64, limb: UInt64) {
            let (quotient, remainder) = Self.limbBase.dividingFullWidth(limb.multipliedFullWidth(by: factor))
            return (quotient, remainder)
        }
        let p0 = split(low)
        let p1 = split(middle)
        let p2 = split(high)
        var middleSum = p1.limb + p0.carry
        var highSum = p2.limb + p1.carry
        if middleSum >= Self.limbBase {
            middleSum -= Self.limbBase
            highSum += 1
        }
        guard p2.carry == 0, highSum < Self.limbBase else { return nil }
        return ExactDecimal(low: p0.limb, middle: middleSum, high: highSum, exponent: exponent + otherExponent)
    }

    /// `numerator / denominator` rounded half away from zero to `significantDigits` significant
    /// digits (1…18), without trailing zeros: how cross rates and inverses are computed.
    ///
    /// Both must have at most 18 significand digits (every rate does) and `denominator` must not
    /// be zero; otherwise the result is `nil`.
    public static func quotient(_ numerator: ExactDecimal, _ denominator: ExactDecimal, significantDigits: Int = rateSignificantDigits) -> ExactDecimal? {
        guard let dividend = numerator.smallSignificand, let divisor = denominator.smallSignificand, divisor != 0,
              (1...limbDigits).contains(significantDigits)
        else { return nil }
        if dividend == 0 { return .zero }
        let digits = significantDigits
        // Scale the dividend by 10^shift so the integer quotient has `digits` digits:
        // dividend·10^shift / divisor lies in [10^(digits-1), 10^digits).
        var shift = digits - 1 + digitCount(divisor) - digitCount(dividend)
        var (quotient, remainder, scaledDivisor) = divide(dividend, divisor, shift: shift)
        if quotient < powerOfTen(digits - 1) {
            shift += 1
            (quotient, remainder, scaledDivisor) = divide(dividend, divisor, shift: shift)
        }
        // Half away from zero: up when the remainder is at least half the divisor.
        if remainder >= scaledDivisor - remainder {
            quotient += 1
            if quotient == powerOfTen(digits) {
                quotient /= 10
                shift -= 1
            }
        }
        var exponent = numerator.exponent - denominator.exponent - shift
        while quotient % 10 == 0 {
            quotient /= 10
            exponent += 1
        }
        return ExactDecimal(significand: quotient, exponent: exponent)
    }

    /// `dividend·10^shift / divisor` for a quotient below 10^19: the quotient, the remainder and
    /// the divisor the remainder is relative to (`divisor·10^-shift` when `shift` is negative).
    private static func divide(_ dividend: UInt64, _ divisor: UInt64, shift: Int) -> (UInt64, UInt64, UInt64) {
        if shift < 0 {
            let scaled = divisor * powerOfTen(-shift)
            return (dividend / scaled, dividend % scaled, scaled)
        }
        // dividend·10^shift < divisor·10^19 < 2^124, built in at most two multiplications.
        let wide = shift <= 19
            ? dividend.multipliedFullWidth(by: powerOfTen(shift)) : (dividend * powerOfTen(shift - 19)).multipliedFullWidth(by: powerOfTen(19))
        let (quotient, remainder) = divisor.dividingFullWidth(wide)
        return (quotient, remainder, divisor)
    }

    /// How many decimal digits `value` has (1 for zero).
    ///
    /// By multiplication rather than from a table: a table is a lazily made global, and every
    /// read of one goes through the runtime's once-check, which cost more than this loop on
    /// the hot path (each value of an answer asks for its digit count twice).
    static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var threshold: UInt64 = 10
        while count < 20 && value >= threshold {
            count += 1
            threshold &*= 10   // wraps only after 10^19, when the count is 20 and the loop ends
        }
        return count
    }

    /// 10^exponent for 0…19.
    static func powerOfTen(_ exponent: Int) -> UInt64 {
        precondition((0...19).contains(exponent), "10^\(exponent) does not fit in 64 bits")
        var power: UInt64 = 1
        for _ in 0..<exponent { power *= 10 }
        return power
    }

    // MARK: - Text

    /// Plain decimal notation, without exponent (`"0.000049321411"`, `"1379.250432"`,
    /// `"1234567800"`): a valid JSON number.
    public var description: String {
        withPlainText { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the plain decimal text's ASCII bytes, written into temporary storage
    /// (no allocation for values up to a few hundred digits long).
    public func withPlainText<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let significandDigits = significandDigitCount
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: plainTextCapacity(significandDigits: significandDigits)) { buffer in
            let length = writePlainText(into: buffer.baseAddress!, significandDigits: significandDigits)
            return try body(UnsafeBufferPointer(start: buffer.baseAddress, count: length))
        }
    }

    /// The most bytes the plain decimal text takes: the significand's digits, the zeros the
    /// exponent adds, a point and a leading zero.
    public var plainTextCapacity: Int { plainTextCapacity(significandDigits: significandDigitCount) }

    private func plainTextCapacity(significandDigits: Int) -> Int { significandDigits + abs(exponent) + 2 }

    /// Writes the plain decimal text into `buffer`, which holds at least ``plainTextCapacity``
    /// bytes, and returns its length: for writers that put it straight into their output, with
    /// no temporary copy and no generic call.
    public func writePlainText(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let significandDigits = significandDigitCount
        precondition(buffer.count >= plainTextCapacity(significandDigits: significandDigits), "room for the plain text")
        return writePlainText(into: buffer.bindMemory(to: UInt8.self).baseAddress!, significandDigits: significandDigits)
    }

    /// How many digits the significand has (1 for zero).
    var significandDigitCount: Int {
        if high > 0 { return 2 * Self.limbDigits + Self.digitCount(high) }
        if middle > 0 { return Self.limbDigits + Self.digitCount(middle) }
        return Self.digitCount(low)
    }

    /// Writes the plain text at `start`; returns its length.
    private func writePlainText(into start: UnsafeMutablePointer<UInt8>, significandDigits: Int) -> Int {
        let zero = UInt8(ascii: "0")
        // The significand's digits, right-aligned after room for "0." and leading zeros.
        let fractionDigits = max(0, -exponent)
        let integerDigits = max(0, significandDigits + min(0, exponent))
        let leadingZeros = fractionDigits > significandDigits ? fractionDigits - significandDigits : 0
        var position = 0
        if integerDigits == 0 {
            start[0] = zero
            start[1] = UInt8(ascii: ".")
            position = 2
            for _ in 0..<leadingZeros { start[position] = zero; position += 1 }
        }
        // Write the significand from its last digit backwards, inserting the point.
        let significandEnd = position + significandDigits + (integerDigits > 0 && fractionDigits > 0 ? 1 : 0)
        var index = significandEnd
        var limbs = (low, middle, high)
        var written = 0
        while written < significandDigits {
            if integerDigits > 0 && fractionDigits > 0 && written == fractionDigits {
                index -= 1
                start[index] = UInt8(ascii: ".")
            }
            let limbIndex = written / Self.limbDigits
            let digit: UInt64
            switch limbIndex {
            case 0: digit = limbs.0 % 10; limbs.0 /= 10
            case 1: digit = limbs.1 % 10; limbs.1 /= 10
            default: digit = limbs.2 % 10; limbs.2 /= 10
            }
            index -= 1
            start[index] = zero + UInt8(digit)
            written += 1
        }
        position = significandEnd
        for _ in 0..<max(0, exponent) { start[position] = zero; position += 1 }
        return position
    }
}

extension ExactDecimal: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// A literal in plain decimal notation (`"1.1650"`); anything else stops the program, as an
    /// invalid literal is a programming error.
    public init(stringLiteral text: String) {
        guard let value = ExactDecimal(text) else { preconditionFailure("not a plain decimal literal: \(text)") }
        self = value
    }

    /// A non-negative integer literal.
    public init(integerLiteral value: UInt64) {
        self.init(significand: value, exponent: 0)
    }
}
