import Foundation

/// `value` (positive) rounded half away from zero to 8 significant digits: how cross rates are
/// published, computed here independently of the server and the SDK.
package func roundedToEightSignificantDigits(_ value: Decimal) -> Decimal {
    var exponent = 0  // 10^exponent <= value < 10^(exponent+1)
    var probe = value
    while probe >= 10 { probe /= 10; exponent += 1 }
    while probe < 1 { probe *= 10; exponent -= 1 }
    var input = value, output = Decimal()
    NSDecimalRound(&output, &input, 7 - exponent, .plain)
    return output
}
