import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BOI adapter")
struct BOIProviderTests {
    let provider = BOIProvider(today: { Day("2026-03-20")! })
    // A real answer in a hand-reduced recording (SOURCES.md): 3 days, 14 currencies on the first, 7 on the others.
    let file = "boi-israel/EXR_OF00_2026-03-01_2026-03-20.csv"

    @Test("reads EXR OF00 of March 2026: 3 days (14, 7, 7 currencies), ILS per 10^UNIT_MULT units")
    func readsRange() throws {
        let publications = try provider.parse(try ProviderFixture.bytes(file), of: provider.requests(for: .latest)[0])
        #expect(publications.map(\.day.description) == ["2026-03-02", "2026-03-05", "2026-03-06"])
        #expect(publications.map(\.quotes.count) == [14, 7, 7])
        func quote(_ code: String, _ day: String = "2026-03-02") -> PublishedQuote? { ProviderFixture.quote(code, on: day, in: publications) }
        #expect(quote("USD") == PublishedQuote(currency: CurrencyCode("USD")!, value: "3.073", unit: 1, direction: .pivotPerUnits))
        #expect(quote("JPY") == PublishedQuote(currency: CurrencyCode("JPY")!, value: "1.971", unit: 100, direction: .pivotPerUnits))
        #expect(quote("LBP", "2026-03-06") == PublishedQuote(currency: CurrencyCode("LBP")!, value: "0.0003", unit: 10, direction: .pivotPerUnits))
        #expect(quote("EUR", "2026-03-05")?.value == "3.544")
        #expect(quote("ZAR")?.value == "0.1813")
    }

    @Test("a value that is not a decimal rejects the answer")
    func garbageRate() throws {
        let body = try ProviderFixture.edited(file, replacing: "2026-03-02,3.073", with: "2026-03-02,3.07.3")
        #expect(ProviderFixture.error(body, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-02")!, text: "3.07.3"))
    }

    @Test("the same currency twice on one day is rejected")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "RER_EUR_ILS,D,EUR,ILS,ILS,OF00,BOI_MRKT,V,F,Y,0,,2026-03-02", with: "RER_EUR_ILS,D,USD,ILS,ILS,OF00,BOI_MRKT,V,F,Y,0,,2026-03-02")
        #expect(ProviderFixture.error(body, provider) == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-03-02")!))
    }

    @Test("another data type than the representative rate is a layout error")
    func otherDataType() throws {
        let body = try ProviderFixture.edited(file, replacing: "ILS,ILS,OF00", with: "ILS,ILS,OF01")
        #expect(ProviderFixture.error(body, provider)?.isLayout(of: "BOI") == true)
    }

    @Test("the header alone, a span without a representative rate, is no publication")
    func headerOnly() throws {
        // The recording's first line, as the edge server answers a span without any figure.
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let header = try #require(text.split(separator: "\n").first)
        #expect(try provider.parse(Array((header + "\n").utf8), of: provider.requests(for: .latest)[0]).isEmpty)
    }

    @Test("a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        #expect(ProviderFixture.error(try ProviderFixture.truncated(file), provider)?.isLayout(of: "BOI") == true)
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "BOI") == true)
        #expect(ProviderFixture.error([], provider) == .empty)
    }

    @Test("latest asks for the last seven days, a range for its period in one request")
    func requests() {
        let root = "https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/"
        #expect(provider.requests(for: .latest).map(\.url) == [root + "?c%5BDATA_TYPE%5D=OF00&startperiod=2026-03-13&endperiod=2026-03-20&format=csv"])
        #expect(provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-20")!)).map(\.url) == [
            root + "?c%5BDATA_TYPE%5D=OF00&startperiod=2026-03-01&endperiod=2026-03-20&format=csv"
        ])
    }
}
