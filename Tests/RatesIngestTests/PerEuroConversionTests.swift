import PropertyBased
import RatesCore
import RatesIngest
import Testing

@Suite("Values per EUR from one publication")
struct PerEuroConversionTests {
    static let pln = code("PLN")

    func publication(pivot: String, _ quotes: [PublishedQuote], day date: String = "2026-03-02", provider: String = "P") -> ProviderDay {
        ProviderDay(provider: provider, pivot: code(pivot), day: day(date), quotes: quotes)
    }

    func values(_ publication: ProviderDay, ecb: ProviderDay? = nil) -> [String: String] {
        Dictionary(uniqueKeysWithValues: publication.perEuroRates(ecb: ecb).map { ($0.currency.rawValue, $0.value.description) })
    }

    @Test("an EUR-pivot figure per 1 EUR is kept as published; per 100 EUR it is shifted; EUR per units is inverted once")
    func euroPivot() {
        let bank = publication(pivot: "EUR", [
            PublishedQuote(currency: code("USD"), value: "1.1650", direction: .unitsPerPivot),
            PublishedQuote(currency: code("JPY"), value: "18419.00", unit: 100, direction: .unitsPerPivot),
            PublishedQuote(currency: code("GBP"), value: "1.1600", direction: .pivotPerUnits),
            PublishedQuote(currency: code("IDR"), value: "5.0", unit: 100_000, direction: .pivotPerUnits),
        ])
        #expect(values(bank) == ["USD": "1.1650", "JPY": "184.1900", "GBP": "0.862068965517241379", "IDR": "20000"])
    }

    @Test("each pair of directions of the EUR quote and the currency's quote is one exact product or one quotient, rounded once")
    func directions() {
        // About 4.2304 PLN per 1 EUR and 3.6056 PLN per 1 USD, each quoted either way round (27.7346 USD and
        // 23.6384 EUR per 100 PLN): within 2 × 10⁻⁶ of each other, each computed with one rounding.
        let euroPivotPerUnits = PublishedQuote(currency: .euro, value: "4.2304", direction: .pivotPerUnits)
        let usdPivotPerUnits = PublishedQuote(currency: code("USD"), value: "3.6056", direction: .pivotPerUnits)
        let usdPerHundredPivot = PublishedQuote(currency: code("USD"), value: "27.7346", unit: 100, direction: .unitsPerPivot)
        let euroPerHundredPivot = PublishedQuote(currency: .euro, value: "23.6384", unit: 100, direction: .unitsPerPivot)

        #expect(values(publication(pivot: "PLN", [euroPivotPerUnits, usdPivotPerUnits])) == ["PLN": "4.2304", "USD": "1.17328599955624584"])
        // 4.2304 × 0.277346 = 1.1732845184 exactly: 11 digits, nothing to round.
        #expect(values(publication(pivot: "PLN", [euroPivotPerUnits, usdPerHundredPivot])) == ["PLN": "4.2304", "USD": "1.1732845184"])
        // 1 / (0.236384 × 3.6056): the product divided into one.
        #expect(values(publication(pivot: "PLN", [euroPerHundredPivot, usdPivotPerUnits])) == ["PLN": "4.23040476512792744", "USD": "1.17328732114708438"])
        // 0.277346 / 0.236384: one quotient.
        #expect(values(publication(pivot: "PLN", [euroPerHundredPivot, usdPerHundredPivot])) == ["PLN": "4.23040476512792744", "USD": "1.17328583998917016"])
    }

    @Test("without an EUR quote the pivot is priced through USD and the ECB of the same day, one rounding")
    func bridge() throws {
        let ecb = ProviderDay(provider: "ECB", pivot: .euro, day: day("2026-03-02"), quotes: [
            PublishedQuote(currency: code("USD"), value: "1.1698", direction: .unitsPerPivot),
            PublishedQuote(currency: code("GBP"), value: "0.8700", direction: .unitsPerPivot),
        ])
        let bank = publication(pivot: "PLN", [
            PublishedQuote(currency: code("GBP"), value: "4.8600", direction: .pivotPerUnits),
            PublishedQuote(currency: code("USD"), value: "3.6056", direction: .pivotPerUnits),
            PublishedQuote(currency: code("JPY"), value: "2.2963", unit: 100, direction: .pivotPerUnits),
        ])
        // JPY per EUR = 100 × 3.6056 × 1.1698 / 2.2963: USD preferred to GBP, one quotient.
        #expect(values(bank, ecb: ecb) == ["PLN": "4.21783088", "USD": "1.1698", "GBP": "0.86786643621399177", "JPY": "183.679435613813526"])
        let rates = bank.perEuroRates(ecb: ecb)
        #expect(rates.allSatisfy { $0.route == .throughECB(via: $0.currency == Self.pln ? nil : bank.quote(of: code("USD")), ecb: ecb.quotes[0]) })

        let withoutUSD = bank.editing("USD") { _ in nil }
        #expect(withoutUSD.perEuroRates(ecb: ecb).first { $0.currency == Self.pln }?.source.currency == code("GBP"), "no USD: the first shared code")
        var otherDay = ecb
        otherDay.day = day("2026-03-03")
        #expect(bank.perEuroRates(ecb: otherDay).isEmpty, "the ECB of another day is not used")
        #expect(bank.perEuroRates().isEmpty)
    }

    @Test("a zero figure, a unit that is not a power of ten and a quote of the pivot itself are left out")
    func leftOut() {
        let bank = publication(pivot: "PLN", [
            PublishedQuote(currency: .euro, value: "4.2304", direction: .pivotPerUnits),
            PublishedQuote(currency: code("USD"), value: "0.000", direction: .pivotPerUnits),
            PublishedQuote(currency: code("JPY"), value: "2.2963", unit: 50, direction: .pivotPerUnits),
            PublishedQuote(currency: code("PLN"), value: "1", direction: .pivotPerUnits),
            PublishedQuote(currency: code("GBP"), value: "5.6", direction: .pivotPerUnits),
        ])
        #expect(values(bank) == ["PLN": "4.2304", "GBP": "0.755428571428571429"])
        #expect(values(publication(pivot: "PLN", [PublishedQuote(currency: .euro, value: "0", direction: .pivotPerUnits)])).isEmpty)
    }

    @Test("a unit only shifts the value: the same figure per 1 and per 10^k units differ by exactly 10^k")
    func unitsAreShifts() async {
        let figures = zip(Gen<UInt64>.value(in: 1...99_999_999), Gen.int(in: -8...2)).map { ExactDecimal(significand: $0, exponent: $1) }
        await propertyCheck(count: 500, input: figures, figures, Gen.int(in: 0...6)) { euro, figure, power in
            let perOne = publication(pivot: "PLN", [
                PublishedQuote(currency: .euro, value: euro.description, direction: .pivotPerUnits),
                PublishedQuote(currency: code("JPY"), value: figure.description, direction: .pivotPerUnits),
            ])
            var perMany = perOne
            perMany.quotes[1].unit = Int(ExactDecimal.one.shifted(byPowerOfTen: power).description)!
            let one = try #require(perOne.perEuroRates().first { $0.currency == code("JPY") })
            let many = try #require(perMany.perEuroRates().first { $0.currency == code("JPY") })
            #expect(many.value == one.value.shifted(byPowerOfTen: power))
            #expect(one.value == ExactDecimal.quotient(euro, figure, significantDigits: 18))
        }
    }
}
