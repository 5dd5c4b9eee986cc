import Foundation
import PropertyBased
import RatesCore
import RatesTestFixtures
import Testing

@Suite("Exact decimal arithmetic for the merge")
struct ExactDecimalMergeTests {
    static let values18 = zip(Gen<UInt64>.value(in: 1...999_999_999_999_999_999), Gen.int(in: -20...10))
        .map { ExactDecimal(significand: $0, exponent: $1) }

    @Test("a shift by a power of ten moves the exponent and keeps the published digits")
    func shift() {
        #expect(ExactDecimal("14.568").shifted(byPowerOfTen: -2).description == "0.14568")
        #expect(ExactDecimal("1.1650").shifted(byPowerOfTen: 3).description == "1165.0")
        #expect(ExactDecimal("1.253").shifted(byPowerOfTen: 3) == 1253)
    }

    @Test("rounding to significant digits is half away from zero and carries into a new digit")
    func rounding() {
        #expect(ExactDecimal("1.25").rounded(significantDigits: 2).description == "1.3")
        #expect(ExactDecimal("1.249999").rounded(significantDigits: 2).description == "1.2")
        #expect(ExactDecimal("9.995").rounded(significantDigits: 3).description == "10")
        #expect(ExactDecimal("0.000123456789").rounded(significantDigits: 4).description == "0.0001235")
        #expect(ExactDecimal("1.1650").rounded(significantDigits: 10).description == "1.165", "a short value keeps its value, without trailing zeros")
        let long: ExactDecimal = "123456789012345678901234567890123456"
        #expect(long.rounded(significantDigits: 10).description == "123456789000000000000000000000000000")
        let halfway: ExactDecimal = "1234567890500000000000000000000000.01"
        #expect(halfway.rounded(significantDigits: 10).description == "1234567891000000000000000000000000")
        #expect(ExactDecimal("0").rounded(significantDigits: 5) == .zero)
    }

    @Test("rounding an 18-digit value agrees with the quotient by one")
    func roundingAgreesWithQuotient() async {
        await propertyCheck(count: 2000, input: Self.values18, Gen.int(in: 1...18)) { value, digits in
            #expect(value.rounded(significantDigits: digits) == ExactDecimal.quotient(value, .one, significantDigits: digits))
        }
    }

    @Test("rounding a long exact product agrees with Decimal")
    func roundingLongProducts() async {
        await propertyCheck(count: 2000, input: Self.values18, Self.values18, Gen.int(in: 1...18)) { left, right, digits in
            let product = try #require(left.multiplied(by: right))
            let expected = try #require(Decimal(string: product.description)).roundedWithDecimal(significantDigits: digits)
            #expect(Decimal(string: product.rounded(significantDigits: digits).description) == expected)
        }
    }

    @Test("the product of several figures is exact")
    func product() {
        #expect(ExactDecimal.product(of: [ExactDecimal("3.6056"), "1.1698"])?.description == "4.21783088")
        #expect(ExactDecimal.product(of: [ExactDecimal("1.5"), "2.5", "4"]) == 15)
        #expect(ExactDecimal.product(of: [ExactDecimal]()) == .one)
        #expect(ExactDecimal.product(of: [ExactDecimal("999999999999999999"), "999999999999999999", "999999999999999999"])?.significandDigits == 54)
    }

    @Test("the approximation is the nearest double")
    func approximation() {
        #expect(ExactDecimal("1.1698").approximation == 1.1698)
        #expect(ExactDecimal("0.0000028").approximation == 0.0000028)
        #expect(ExactDecimal("19782.09025").approximation == 19782.09025)
        #expect(ExactDecimal(significand: 12, exponent: 24).approximation == 1.2e25, "past the exact powers of ten: through the text")
        let long = ExactDecimal("0.000225125718345804753").approximation
        #expect(abs(long - 0.000225125718345804753) <= 2 * long.ulp, "18 digits: within two units in the last place")
    }
}
