import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("NB adapter")
struct NBProviderTests {
    let provider = NBProvider()
    let file = "norgesbank-norway/EXR_B..NOK.SP_2026-03-16_2026-03-24.csv"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads EXR of 2026-03-16…24: 7 days of 36 currencies, NOK per 10^UNIT_MULT units; TWI and I44 left out")
    func readsRange() throws {
        let publications = try parse(try ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-03-16", "2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20", "2026-03-23", "2026-03-24"])
        #expect(publications.allSatisfy { $0.quotes.count == 36 })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits } })
        func quote(_ code: String) -> PublishedQuote? { ProviderFixture.quote(code, on: "2026-03-24", in: publications) }
        #expect(quote("USD") == PublishedQuote(currency: CurrencyCode("USD")!, value: "9.7049", unit: 1, direction: .pivotPerUnits))
        #expect(quote("JPY") == PublishedQuote(currency: CurrencyCode("JPY")!, value: "6.1065", unit: 100, direction: .pivotPerUnits))
        #expect(quote("ISK") == PublishedQuote(currency: CurrencyCode("ISK")!, value: "7.8", unit: 100, direction: .pivotPerUnits))
        #expect(quote("XDR")?.value == "13.2271")
        #expect(ProviderFixture.quote("HUF", on: "2026-03-16", in: publications)?.value == "2.857")
        for index in ["TWI", "I44"] { #expect(quote(index) == nil) }
    }

    @Test("a value that is not a decimal rejects the answer")
    func garbageRate() throws {
        let body = try ProviderFixture.edited(file, replacing: "2026-03-24,9.7049", with: "2026-03-24,NaN")
        #expect(ProviderFixture.error(body, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-24")!, text: "NaN"))
    }

    @Test("the same currency twice on one day is rejected")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "B,HUF,NOK,SP,4,false,2,C,2026-03-16", with: "B,JPY,NOK,SP,4,false,2,C,2026-03-16")
        #expect(ProviderFixture.error(body, provider) == .duplicateCurrency(CurrencyCode("JPY")!, day: Day("2026-03-16")!))
    }

    @Test("a rate in another quote currency or with an unknown UNIT_MULT is a layout error")
    func otherLayout() throws {
        let eur = try ProviderFixture.edited(file, replacing: "B,HUF,NOK,", with: "B,HUF,EUR,")
        #expect(ProviderFixture.error(eur, provider)?.isLayout(of: "NB") == true)
        let mult = try ProviderFixture.edited(file, replacing: "B,HUF,NOK,SP,4,false,2,", with: "B,HUF,NOK,SP,4,false,-2,")
        #expect(ProviderFixture.error(mult, provider)?.isLayout(of: "NB") == true)
    }

    @Test("a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        #expect(ProviderFixture.error(try ProviderFixture.truncated(file), provider)?.isLayout(of: "NB") == true)
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "NB") == true)
        #expect(ProviderFixture.error([], provider) == .empty)
    }

    @Test("latest asks for the last observation, a range for its period in one request")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == ["https://data.norges-bank.no/api/data/EXR/B..NOK.SP?format=csvdata&lastNObservations=1"])
        #expect(provider.requests(for: .range(Day("2026-03-16")!, Day("2026-03-24")!)).map(\.url) == [
            "https://data.norges-bank.no/api/data/EXR/B..NOK.SP?format=csvdata&startPeriod=2026-03-16&endPeriod=2026-03-24"
        ])
    }
}
