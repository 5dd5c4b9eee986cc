import RatesCore
import Testing

@Suite("ExactDecimal.mean: a period's figure, exact and rounded once")
struct ExactDecimalMeanTests {
    private func mean(_ values: [String], digits: Int = 8) -> String? {
        ExactDecimal.mean(of: values.map { ExactDecimal($0)! }, significantDigits: digits)?.description
    }

    @Test("The mean of values that divide evenly is exact, without trailing zeros")
    func evenMeans() {
        #expect(mean(["1.1", "1.2", "1.3"]) == "1.2")
        #expect(mean(["1.1650", "1.1750"]) == "1.17")
        #expect(mean(["151.23", "151.23", "151.23"]) == "151.23")
        #expect(mean(["0.00000001", "0.00000002"]) == "0.000000015")
    }

    @Test("A mean that does not divide evenly is rounded half away from zero to 8 significant digits, from the exact quotient")
    func roundedOnce() {
        #expect(mean(["1", "1", "2"]) == "1.3333333")
        #expect(mean(["2", "2", "3"]) == "2.3333333")
        #expect(mean(["1", "2", "2"]) == "1.6666667")
        // 1.00000005 exactly: a tie, rounded away from zero.
        #expect(mean(["1.0000001", "1"]) == "1.0000001")
        // 1.000000049999…: below the tie, though one rounding step more would have reached it.
        #expect(mean(["1.00000004999", "1.00000005", "1.00000005"]) == "1")
        #expect(mean(["7.45", "7.46", "7.46"], digits: 3) == "7.46")
    }

    @Test("Values of very different sizes add exactly before dividing")
    func differentExponents() {
        #expect(mean(["123456789012345678", "0.000001"], digits: 18) == "61728394506172839")
        #expect(mean(["123456789012345678", "0.000001"]) == "61728395000000000")
        #expect(ExactDecimal.sum(of: ["123456789012345678", "0.000001"].map { ExactDecimal($0)! })?.description == "123456789012345678.000001")
    }

    @Test("No values have no mean; zeros have a mean of zero")
    func edges() {
        #expect(mean([]) == nil)
        #expect(mean(["0", "0.00"]) == "0")
        #expect(mean(["0", "3"]) == "1.5")
    }
}
