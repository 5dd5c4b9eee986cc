import RatesCore
import Testing

@Suite("Exact differences, quotients to decimal places, rounding to places")
struct ExactDecimalDifferenceTests {
    @Test("a difference is exact and signed, across exponents and limbs", arguments: [
        ("1.1221", "1.1171", "0.005"), ("0.8462", "0.8495", "-0.0033"), ("4.7837", "4.7837", "0"), ("121.97", "121.245", "0.725"),
        ("1", "0.000000000000000000000001", "0.999999999999999999999999"), ("0.00004", "1234567.5", "-1234567.49996"),
        ("1000000000000000000000000000000", "1", "999999999999999999999999999999"),
    ])
    func difference(minuend: String, subtrahend: String, expected: String) throws {
        let difference = try #require(ExactDecimal.difference(ExactDecimal(stringLiteral: minuend), ExactDecimal(stringLiteral: subtrahend)))
        #expect(difference.description == expected)
    }

    @Test("a quotient to decimal places rounds once, half away from zero", arguments: [
        ("0.005", "1.1221", 6, "0.004456"), ("0.0033", "0.8462", 6, "0.0039"), ("1", "3", 6, "0.333333"), ("2", "3", 6, "0.666667"),
        ("1", "8", 2, "0.13"), ("1", "8", 3, "0.125"), ("1", "2000001", 6, "0"), ("1", "2000000", 6, "0.000001"), ("725", "1", 0, "725"),
        ("0", "5", 6, "0"),
    ])
    func quotient(numerator: String, denominator: String, places: Int, expected: String) throws {
        let quotient = try #require(ExactDecimal.quotient(ExactDecimal(stringLiteral: numerator), ExactDecimal(stringLiteral: denominator), fractionDigits: places))
        #expect(quotient.description == expected)
        #expect(ExactDecimal.quotient(1, .zero, fractionDigits: 2) == nil)
    }

    @Test("rounding to places is half away from zero, carries across digits, and leaves shorter values alone", arguments: [
        ("1.23456", 2, "1.23"), ("0.006", 2, "0.01"), ("0.0049", 2, "0"), ("118.5", 0, "119"), ("9.9996", 3, "10"), ("1.1650", 6, "1.1650"),
        ("999999999999999999.5", 0, "1000000000000000000"), ("0.90727636", 2, "0.91"), ("1088.731632", 2, "1088.73"),
    ])
    func rounded(value: String, places: Int, expected: String) {
        #expect(ExactDecimal(stringLiteral: value).rounded(fractionDigits: places).description == expected)
    }

    @Test("a fluctuation is start − end, its per-unit change to 6 places of the unscaled rates")
    func fluctuation() throws {
        let rise = try #require(RateFluctuation(start: "0.8462", end: "0.8495"))
        #expect(rise.change.description == "-0.0033" && rise.changePercent.description == "-0.0039")
        let scaled = try #require(RateFluctuation(start: "112.21", end: "111.71", unscaledStart: "1.1221", unscaledEnd: "1.1171"))
        #expect(scaled.change.description == "0.5" && scaled.changePercent.description == "0.004456")
        #expect(RateFluctuation(start: .zero, end: "1") == nil)
    }
}
