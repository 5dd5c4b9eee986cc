import Foundation
import RatesCore

/// `value` (positive) rounded half away from zero to 8 significant digits: how cross rates are
/// published, computed here with Foundation's `Decimal`, independently of the service's integer
/// arithmetic.
package func roundedToEightSignificantDigits(_ value: Decimal) -> Decimal {
    value.roundedWithDecimal(significantDigits: 8)
}

extension Decimal {
    /// The `Decimal` rounding the service used before its integer arithmetic, kept verbatim as the
    /// reference the new arithmetic is compared with, digit for digit: rounds half away from zero
    /// to `digits` significant digits, finding the leading digit from the printed value.
    package func roundedWithDecimal(significantDigits digits: Int) -> Decimal {
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
}
