import Foundation
import RatesCore
import RatesIngest
import Testing

/// A cross rate served from merged values equals the exact quotient of the published figures,
/// rounded once: the merged values carry enough digits that rounding them first never shows.
@Suite("Cross rates rounded once")
struct CrossRateRoundingTests {
    /// One unit of the publication's pivot per 1 unit of `quote`'s currency, exactly from the figure
    /// (Foundation's `Decimal`, 38 digits): `value / unit` or `unit / value`.
    static func pivotPerUnit(_ quote: PublishedQuote) -> Decimal {
        let value = Decimal(string: quote.value, locale: Locale(identifier: "en_US_POSIX"))!
        let unit = Decimal(quote.unit)
        switch quote.direction {
        case .pivotPerUnits: return value / unit
        case .unitsPerPivot: return unit / value
        }
    }

    /// `value` rounded half away from zero to `digits` significant digits (positive values).
    static func rounded(_ value: Decimal, significantDigits digits: Int) -> Decimal {
        var exponent = 0
        var probe = value
        while probe >= 10 { probe /= 10; exponent += 1 }
        while probe < 1 { probe *= 10; exponent -= 1 }
        var input = value
        var result = Decimal()
        NSDecimalRound(&result, &input, digits - 1 - exponent, .plain)
        return result
    }

    @Test("every cross rate of the NBP's table A, merged without the ECB, equals the quotient of the two published figures rounded once to 8 digits")
    func crossRatesOfComputedValues() throws {
        // Every value but PLN's is computed (C per PLN × PLN per EUR), so a cross rate divides two computed values.
        let nbp = try Recorded.nbp("2026-03-02")
        let merged = RatesMerge.merge(day: nbp.day, publications: [nbp])
        let perEuro = Dictionary(uniqueKeysWithValues: merged.rates.map { ($0.currency, $0.value.description) })
        let cross = CrossRates(providerBase: .euro, published: perEuro)

        // The reference: the pivot's value of each currency from its published figure alone.
        var pivotPerUnit = [CurrencyCode: Decimal]()
        for quote in nbp.quotes { pivotPerUnit[quote.currency] = Self.pivotPerUnit(quote) }
        pivotPerUnit[nbp.pivot] = 1
        let codes = pivotPerUnit.keys.sorted()
        #expect(codes.count > 30)

        var compared = 0
        var differing = [String]()
        for from in codes {
            for to in codes where from != to && from != .euro {
                // 1 FROM in TO = (pivot per FROM) / (pivot per TO).
                let expected = Self.rounded(pivotPerUnit[from]! / pivotPerUnit[to]!, significantDigits: CrossRates.significantDigits)
                let served = try #require(cross.rate(from: from, to: to), "\(from)→\(to)")
                compared += 1
                if Decimal(string: served.description, locale: Locale(identifier: "en_US_POSIX")) != expected {
                    differing.append("\(from)→\(to): \(served) ≠ \(expected)")
                }
            }
        }
        #expect(compared > 900)
        #expect(differing.isEmpty, "\(differing.count) of \(compared) differ, e.g. \(differing.prefix(5))")
    }
}
