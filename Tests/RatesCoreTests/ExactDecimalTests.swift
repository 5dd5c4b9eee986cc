import Foundation
import PropertyBased
import RatesCore
import RatesTestFixtures
import Testing

@Suite("Exact decimal arithmetic")
struct ExactDecimalTests {
    /// Positive values with up to 18, or up to 12, significand digits.
    static let values18 = zip(Gen<UInt64>.value(in: 1...999_999_999_999_999_999), Gen.int(in: -30...20))
        .map { ExactDecimal(significand: $0, exponent: $1) }
    static let values12 = zip(Gen<UInt64>.value(in: 1...999_999_999_999), Gen.int(in: -12...8))
        .map { ExactDecimal(significand: $0, exponent: $1) }
    static let rates18 = zip(Gen<UInt64>.value(in: 1...999_999_999_999_999_999), Gen.int(in: -18...0))
        .map { ExactDecimal(significand: $0, exponent: $1) }
    static let amounts18 = zip(Gen<UInt64>.value(in: 1...999_999_999_999_999_999), Gen.int(in: -8...10))
        .map { ExactDecimal(significand: $0, exponent: $1) }

    @Test("published text prints back byte for byte", arguments: ["1.1650", "136", "0.83380", "20275.170", "0.000049321411", "1", "0.5", "100"])
    func roundTrip(_ text: String) throws {
        #expect(try #require(ExactDecimal(text)).description == text)
    }

    @Test("text that is not a plain decimal is refused", arguments: ["", ".", ".5", "1.", "1.2.3", "-1", "+1", "1e5", " 1", "1,5", "NaN", "١"])
    func refused(_ text: String) {
        #expect(ExactDecimal(text) == nil)
    }

    @Test("equality is by value: trailing zeros do not matter")
    func equality() {
        #expect(ExactDecimal("1.10") == ExactDecimal("1.1"))
        #expect(ExactDecimal("100") == ExactDecimal(significand: 1, exponent: 2))
        #expect(Set<ExactDecimal>(["2.50", "2.5"]).count == 1)
        #expect(ExactDecimal("1.1") != ExactDecimal("1.01"))
    }

    @Test("any value's plain text parses back to the same value")
    func anyValueRoundTrips() async {
        await propertyCheck(count: 2000, input: Self.values18) { value in
            let text = value.description
            #expect(ExactDecimal(text) == value, "\(text)")
            #expect(!text.contains("e") && !text.hasPrefix(".") && !text.hasSuffix("."), "\(text)")
        }
    }

    @Test("a quotient has the digits of the Decimal implementation: division rounded half away from zero to 8 significant digits")
    func quotientMatchesDecimal() async {
        await propertyCheck(count: 3000, input: Self.values12, Self.values12) { numerator, denominator in
            let expected = (Self.decimal(numerator) / Self.decimal(denominator)).roundedWithDecimal(significantDigits: 8)
            #expect(ExactDecimal.quotient(numerator, denominator).map(Self.decimal) == expected, "\(numerator) / \(denominator)")
        }
    }

    @Test("a product is exact: the Decimal product where it fits 38 digits")
    func productMatchesDecimal() async {
        await propertyCheck(count: 3000, input: Self.rates18, Self.amounts18) { rate, amount in
            let product = rate.multiplied(by: amount)
            #expect(product.map(Self.decimal) == Self.decimal(rate) * Self.decimal(amount), "\(rate) × \(amount)")
        }
    }

    @Test("an 18-digit rate times a 23-digit amount keeps all 41 digits")
    func widestProduct() async {
        let amounts = zip(Gen<UInt64>.value(in: 1...99_999), Gen<UInt64>.value(in: 0...999_999_999_999_999_999))
            .map { "\($0)" + String(repeating: "0", count: 18 - String($1).count) + "\($1)" }
        await propertyCheck(count: 1000, input: Self.rates18, amounts) { rate, amountDigits in
            let amount = ExactDecimal(amountDigits)!
            let product = rate.multiplied(by: amount)
            let expected = Self.schoolbookProduct(Self.significantDigits(rate.description), amountDigits)
            // The rate's exponent is at most 0 and the amount an integer: the product's digits say it all.
            #expect(product.map { Self.significantDigits($0.description) } == Self.significantDigits(expected), "\(rate) × \(amount)")
        }
    }

    /// The digits of decimal text without point, leading or trailing zeros.
    static func significantDigits(_ text: String) -> String {
        var digits = Substring(text.filter(\.isNumber))
        while digits.first == "0" { digits.removeFirst() }
        while digits.last == "0" { digits.removeLast() }
        return String(digits)
    }

    @Test("a cross rate at every magnitude, and the rounding edges")
    func quotientEdges() {
        #expect(ExactDecimal.quotient("1", "1.1172") == "0.89509488")
        #expect(ExactDecimal.quotient("0.000000000000000001", "999999999999999999")?.description == "0.000000000000000000000000000000000001")
        #expect(ExactDecimal.quotient("99999999.5", "1")?.description == "100000000")
        #expect(ExactDecimal.quotient("99999999.4", "1")?.description == "99999999")
        #expect(ExactDecimal.quotient("1.00000005", "1")?.description == "1.0000001", "a tie rounds away from zero")
        #expect(ExactDecimal.quotient("1.000000049999", "1")?.description == "1")
    }

    static func decimal(_ value: ExactDecimal) -> Decimal { Decimal(string: value.description, locale: nil)! }

    /// Digits of `a × b` by long multiplication on decimal digits.
    static func schoolbookProduct(_ a: String, _ b: String) -> String {
        let x = a.reversed().map { Int(String($0))! }
        let y = b.reversed().map { Int(String($0))! }
        var digits = [Int](repeating: 0, count: x.count + y.count)
        for (i, p) in x.enumerated() {
            for (j, q) in y.enumerated() { digits[i + j] += p * q }
        }
        for index in digits.indices.dropLast() {
            digits[index + 1] += digits[index] / 10
            digits[index] %= 10
        }
        let text: String = digits.reversed().map { String($0) }.joined()
        return significantDigits(text)
    }
}
