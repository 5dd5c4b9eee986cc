import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

/// The integer arithmetic (``RatesCore/ExactDecimal``) against the `Decimal` implementation it
/// replaced, over the ECB's whole published history.
@Suite("Integer cross rates over the ECB history")
struct CrossRatesHistoryTests {
    static let history: RatesBatch = try! ECBHistoryFile.read(contentsOf: Fixtures.historyZip)

    @Test("every day since 1999 and every pair of its currencies: the same digits as the Decimal implementation")
    func everyDayEveryPair() async throws {
        let days = Self.history.days
        #expect(days.count > 7000)
        // Two halves of the history checked side by side, on Dispatch's threads rather than Swift
        // concurrency's two cooperative ones, which the other suites' servers and clients need.
        let results = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let middle = days.count / 2
                let halves = [days[..<middle], days[middle...]]
                let outcomes = Locked([(checked: Int, mismatches: [String])]())
                DispatchQueue.concurrentPerform(iterations: halves.count) { index in
                    let outcome = Self.compare(halves[index])
                    outcomes.withLock { $0.append(outcome) }
                }
                continuation.resume(returning: outcomes.withLock { $0 }.reduce(into: (checked: 0, mismatches: [String]())) {
                    $0.checked += $1.checked
                    $0.mismatches += $1.mismatches
                })
            }
        }
        print("CrossRatesHistoryTests: \(results.checked) (day, from, to) rates compared over \(days.count) days")
        #expect(results.checked > 6_000_000)
        #expect(results.mismatches.isEmpty, "\(results.mismatches.count) differ, first: \(results.mismatches.prefix(5))")
    }

    static func compare(_ days: ArraySlice<DailyRates>) -> (checked: Int, mismatches: [String]) {
        var checked = 0
        var mismatches: [String] = []
        for daily in days {
            let table = CrossRates(providerBase: .euro, published: daily.rates)
            var decimals = daily.rates.mapValues { Decimal(string: $0, locale: nil)! }
            decimals[.euro] = 1
            for (from, fromValue) in decimals {
                for (to, toValue) in decimals where to != from {
                    let expected = from == .euro ? daily.rates[to]! : (toValue / fromValue).roundedWithDecimal(significantDigits: 8).plainText
                    let actual = table.rate(from: from, to: to)?.description
                    checked += 1
                    if actual != expected { mismatches.append("\(daily.day) \(from)→\(to): \(actual ?? "nil") ≠ \(expected)") }
                }
            }
        }
        return (checked, mismatches)
    }

    @Test("random amounts on every day: rate × amount has the Decimal product's digits")
    func randomAmounts() {
        var generator = SplitMix64(seed: 0x5EED_CAFE)
        var mismatches: [String] = []
        var checked = 0
        for daily in Self.history.days {
            let table = CrossRates(providerBase: .euro, published: daily.rates)
            let codes = [CurrencyCode.euro] + daily.rates.keys.sorted()
            for _ in 0..<20 {
                let from = codes[generator.next(below: codes.count)]
                let to = codes[generator.next(below: codes.count)]
                let amountText = Self.randomAmount(using: &generator)
                guard let rate = table.rate(from: from, to: to), let amount = RatesRules.amount(amountText) else {
                    mismatches.append("no rate or amount for \(from)→\(to) \(amountText)")
                    continue
                }
                let expected = (rate.decimal * Decimal(string: amountText, locale: nil)!).plainText
                let actual = rate.scaled(by: amount).description
                checked += 1
                if actual != expected { mismatches.append("\(daily.day) \(from)→\(to) × \(amountText): \(actual) ≠ \(expected)") }
            }
        }
        print("CrossRatesHistoryTests: \(checked) conversions with random amounts compared")
        #expect(checked > 140_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(5))")
    }

    /// An amount the API accepts: 1 to 15 integer digits, 0 to 8 fraction digits, trailing zeros allowed.
    static func randomAmount(using generator: inout SplitMix64) -> String {
        let digits = Array("0123456789")
        var text = String(digits[1 + generator.next(below: 9)])
        for _ in 0..<generator.next(below: 15) { text.append(digits[generator.next(below: 10)]) }
        let fraction = generator.next(below: 9)
        if fraction > 0 {
            text.append(".")
            for _ in 0..<fraction { text.append(digits[generator.next(below: 10)]) }
        }
        return text
    }
}
