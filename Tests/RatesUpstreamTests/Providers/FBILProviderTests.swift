import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("FBIL adapter")
struct FBILProviderTests {
    let provider = FBILProvider(today: { Day("2026-03-21")! })
    // A recording flagged as possibly hand-reduced: see Tests/Fixtures/fbil-india/README.md.
    let file = "fbil-india/refrates_fetchfiltered_2026-03-17_2026-03-21.json"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] { try provider.parse(body, of: provider.requests(for: .latest)[0]) }
    func error(_ body: [UInt8]) -> UpstreamDataError? { ProviderFixture.error(body, provider) }

    @Test("reads the reference rates of 17–21 Mar 2026: 3 days of 6 currencies, INR per the units subProdName names")
    func readsRange() throws {
        let publications = try parse(try ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-03-17", "2026-03-18", "2026-03-20"])
        #expect(publications.allSatisfy { Set($0.quotes.map(\.currency.rawValue)) == ["USD", "GBP", "EUR", "JPY", "AED", "IDR"] })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits } })
        func quote(_ code: String, _ day: String = "2026-03-20") -> PublishedQuote? { ProviderFixture.quote(code, on: day, in: publications) }
        // The six decimals as the API writes them.
        #expect(quote("USD") == PublishedQuote(currency: CurrencyCode("USD")!, value: "93.348300", unit: 1, direction: .pivotPerUnits))
        #expect(quote("JPY") == PublishedQuote(currency: CurrencyCode("JPY")!, value: "58.940000", unit: 100, direction: .pivotPerUnits))
        #expect(quote("IDR") == PublishedQuote(currency: CurrencyCode("IDR")!, value: "55.107900", unit: 10000, direction: .pivotPerUnits))
        #expect(quote("EUR", "2026-03-18")?.value == "106.761600")
        #expect(quote("GBP", "2026-03-17")?.value == "122.826700")
        #expect(quote("AED", "2026-03-17")?.value == "25.171300")
    }

    @Test("a rate that is not a positive number, or a number written as text, rejects the answer")
    func garbageRate() throws {
        let negative = try ProviderFixture.edited(file, replacing: "\"rate\":93.348300", with: "\"rate\":-93.348300")
        #expect(error(negative) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-20")!, text: "-93.348300"))
        let text = try ProviderFixture.edited(file, replacing: "\"rate\":93.348300", with: "\"rate\":\"93.3483\"")
        #expect(error(text)?.isLayout(of: "FBIL") == true)
        let badDay = try ProviderFixture.edited(file, replacing: "\"processRunDate\":\"2026-03-20 00:00:00\"", with: "\"processRunDate\":\"20-03-2026\"")
        #expect(error(badDay) == .invalidDay("20-03-2026"))
    }

    @Test("a product that is not \"INR / N CODE\" with N a power of ten is a layout error; a bad code is an invalid code")
    func products() throws {
        let odd = try ProviderFixture.edited(file, replacing: "INR / 100 JPY", with: "INR / 50 JPY")
        #expect(error(odd)?.isLayout(of: "FBIL") == true)
        let inverse = try ProviderFixture.edited(file, replacing: "INR / 1 USD", with: "USD / 1 INR")
        #expect(error(inverse)?.isLayout(of: "FBIL") == true)
        let code = try ProviderFixture.edited(file, replacing: "INR / 1 USD", with: "INR / 1 Usd")
        #expect(error(code) == .invalidCurrencyCode("Usd", day: Day("2026-03-20")!))
    }

    @Test("a currency listed twice on one day is rejected")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "INR / 1 GBP", with: "INR / 1 USD")
        #expect(error(body) == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-03-20")!))
    }

    @Test("a range of holidays only, answered [], is no publication; a record whose rate is null is left out")
    func noPublication() throws {
        #expect(try provider.parse(Array("[]".utf8), of: provider.requests(for: .latest)[0]) == [])
        // FBIL's record of a benchmark not set that day: the rate null, the rest as usual.
        let body = try ProviderFixture.edited(file, replacing: "\"rate\":125.156400", with: "\"rate\":null")
        let publications = try provider.parse(body, of: provider.requests(for: .latest)[0])
        #expect(publications.count == 3)
        let friday = try #require(publications.first { $0.day == Day("2026-03-20")! })
        #expect(friday.quotes.count == 5)
        #expect(friday["GBP"] == nil)
        #expect(friday["USD"] == PublishedQuote(currency: CurrencyCode("USD")!, value: "93.348300", unit: 1, direction: .pivotPerUnits))
    }

    @Test("a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        #expect(error(try ProviderFixture.truncated(file))?.isLayout(of: "FBIL") == true)
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "FBIL") == true)
        #expect(error(Array(#"{"status":500,"error":"Internal Server Error"}"#.utf8))?.isLayout(of: "FBIL") == true)
        #expect(error([]) == .empty)
    }

    @Test("latest asks for the last seven days up to today, a range for its two days, in one request")
    func requests() {
        let root = "https://www.fbil.org.in/wasdm/refrates/fetchfiltered?authenticated=false"
        #expect(provider.requests(for: .latest).map(\.url) == [root + "&fromDate=2026-03-14&toDate=2026-03-21"])
        #expect(provider.requests(for: .range(Day("2026-03-17")!, Day("2026-03-21")!)).map(\.url) == [root + "&fromDate=2026-03-17&toDate=2026-03-21"])
    }
}
