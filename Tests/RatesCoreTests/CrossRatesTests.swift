import Foundation
import RatesCore
import Testing

@Suite("Cross rates")
struct CrossRatesTests {
    // The ECB's publication of 2026-10-30.
    let table = CrossRates(providerBase: .euro, published: [
        CurrencyCode("USD")!: "1.1172", CurrencyCode("GBP")!: "0.8338", CurrencyCode("JPY")!: "175.68",
        CurrencyCode("ISK")!: "136", CurrencyCode("IDR")!: "20275.17",
    ])

    func code(_ text: String) -> CurrencyCode { CurrencyCode(text)! }

    @Test("a rate from the provider's base is the published text, untouched")
    func publishedUntouched() {
        #expect(table.rate(from: .euro, to: code("GBP")) == .published(ExactDecimal("0.8338")))
        #expect(table.rate(from: .euro, to: code("ISK"))?.description == "136")
    }

    @Test("a value per EUR computed from another pivot's figures is served with 8 significant digits, rounded once; a published one as published")
    func computedPerEuroValueRounded() throws {
        // Gold from the NBP through its EUR mid, held to 18 digits; Banca d'Italia's yen with its trailing zeros.
        let merged = CrossRates(providerBase: .euro, published: [
            code("XAU"): "0.000225125718345804753", code("JPY"): "161.940000", code("USD"): "1.1698", code("KES"): "152.149999995",
        ])
        #expect(merged.rate(from: .euro, to: code("XAU")) == .computed(ExactDecimal("0.00022512572")))
        #expect(merged.rate(from: .euro, to: code("JPY"))?.description == "161.940000", "only zeros past 8 digits: as published")
        #expect(merged.rate(from: .euro, to: code("KES"))?.description == "152.15", "rounded half away from zero, once")
        var listed: [String: String] = [:]
        merged.forEachRate(base: .euro, symbols: nil) { listed[$0.rawValue] = $1.description }
        #expect(listed == ["XAU": "0.00022512572", "JPY": "161.940000", "USD": "1.1698", "KES": "152.15"])
        // A cross rate is still computed from the 18 digits: XAU per USD = 0.000225125718345804753 / 1.1698.
        #expect(merged.rate(from: code("USD"), to: code("XAU"))?.description == "0.00019244804")
    }

    @Test("a cross rate is quote / base, rounded to 8 significant digits")
    func crossRate() throws {
        // 0.8338 / 1.1172 = 0.746330110991... → 0.74633011
        #expect(table.rate(from: code("USD"), to: code("GBP"))?.description == "0.74633011")
        // 175.68 / 0.8338 = 210.698009114... → 210.69801
        #expect(table.rate(from: code("GBP"), to: code("JPY"))?.description == "210.69801")
        // 1 / 20275.17 = 0.0000493214113617... → 0.000049321411 (8 significant digits)
        #expect(table.rate(from: code("IDR"), to: .euro)?.description == "0.000049321411")
    }

    @Test("a currency to itself is exactly 1, and unknown currencies have no rate")
    func identityAndUnknown() {
        #expect(table.rate(from: code("USD"), to: code("USD"))?.description == "1")
        #expect(table.rate(from: code("USD"), to: code("XYZ")) == nil)
        #expect(table.rate(from: code("XYZ"), to: .euro) == nil)
    }

    @Test("scaling by an amount is exact")
    func scaling() throws {
        let rate = try #require(table.rate(from: .euro, to: code("USD")))
        #expect(rate.scaled(by: ExactDecimal("1234.56")).description == "1379.250432")
        #expect(rate.scaled(by: ExactDecimal("1234.50")).description == "1379.1834")
        #expect(rate.scaled(by: .one) == rate)
    }

    @Test("rounding to significant digits rounds half away from zero at every magnitude")
    func rounding() {
        func quotient(_ numerator: String, _ denominator: String, digits: Int = 8) -> String? {
            ExactDecimal.quotient(ExactDecimal(numerator)!, ExactDecimal(denominator)!, significantDigits: digits)?.description
        }
        #expect(quotient("123456785", "1") == "123456790")
        #expect(quotient("0.000123456785", "1") == "0.00012345679")
        #expect(quotient("1.5", "1", digits: 1) == "2")
        #expect(quotient("9.99999999", "1") == "10")
        #expect(quotient("1", "3") == "0.33333333")
        #expect(quotient("2", "3") == "0.66666667")
        #expect(quotient("1", "0.000000000000000007") == "142857140000000000")
        #expect(quotient("999999999999999999", "0.000000000000000001") == "1000000000000000000000000000000000000")
        #expect(quotient("1", "0") == nil)
    }
}
