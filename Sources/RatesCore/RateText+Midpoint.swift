extension RateText {
    /// The exact midpoint of two rate texts, `(a + b) / 2`, as plain decimal text: how a source
    /// that publishes only buying and selling rates contributes one value.
    ///
    /// The result has at most one fraction digit more than the longer of the two
    /// (`"2.8852"`, `"2.8904"` → `"2.8878"`; `"1.5"`, `"1.6"` → `"1.55"`); trailing zeros that
    /// halving produces beyond the inputs' precision are not added. `nil` when either text is
    /// not ``isValid(_:)``.
    public static func midpoint(_ a: String, _ b: String) -> String? {
        guard isValid(a), isValid(b) else { return nil }
        func split(_ text: String) -> (integer: [UInt8], fraction: [UInt8]) {
            let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            return (Array(parts[0]), parts.count > 1 ? Array(parts[1]) : [])
        }
        let (aInteger, aFraction) = split(a)
        let (bInteger, bFraction) = split(b)
        let fractionDigits = max(aFraction.count, bFraction.count)
        // Both values as digit arrays scaled by 10^fractionDigits, least significant digit first.
        func scaled(_ integer: [UInt8], _ fraction: [UInt8]) -> [Int] {
            let digits = integer + fraction + [UInt8](repeating: UInt8(ascii: "0"), count: fractionDigits - fraction.count)
            return digits.reversed().map { Int($0 - UInt8(ascii: "0")) }
        }
        let x = scaled(aInteger, aFraction)
        let y = scaled(bInteger, bFraction)
        // Sum, least significant digit first.
        var sum: [Int] = []
        var carry = 0
        for index in 0..<max(x.count, y.count) {
            let digit = (index < x.count ? x[index] : 0) + (index < y.count ? y[index] : 0) + carry
            sum.append(digit % 10)
            carry = digit / 10
        }
        if carry > 0 { sum.append(carry) }
        // Halve, most significant digit first; an odd sum leaves 5 in one more fraction digit.
        var half: [Int] = []
        var remainder = 0
        for digit in sum.reversed() {
            let value = remainder * 10 + digit
            half.append(value / 2)
            remainder = value % 2
        }
        var fractionCount = fractionDigits
        if remainder == 1 {
            half.append(5)
            fractionCount += 1
        }
        var integerPart = half.dropLast(fractionCount).drop { $0 == 0 }.map(String.init).joined()
        if integerPart.isEmpty { integerPart = "0" }
        let fractionPart = half.suffix(fractionCount).map(String.init).joined()
        return fractionPart.isEmpty ? integerPart : integerPart + "." + fractionPart
    }
}
