import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("IMF adapter")
struct IMFProviderTests {
    let provider = IMFProvider(today: { Day("2026-04-01")! })
    let file = "imf/rms_mth_REP_2026-03.tsv"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the REP report of March 2026: 22 days in two blocks, 35 currencies less the NA cells, USD left out")
    func readsMonth() throws {
        let publications = try parse(try ProviderFixture.bytes(file))
        #expect(publications.count == 22)
        #expect(publications.first?.day == Day("2026-03-02"))
        #expect(publications.last?.day == Day("2026-03-31"))
        #expect(publications.map(\.quotes.count) == [34, 32, 34, 35, 29, 34, 35, 35, 34, 30, 34, 34, 33, 30, 25, 29, 32, 34, 33, 30, 32, 34])
        #expect(publications.allSatisfy { !$0.quotes.contains { $0.currency.rawValue == "USD" } })
    }

    @Test("currency per 1 USD, except the (1) rows, which are USD per 1 unit; thousands separators dropped")
    func conventions() throws {
        let publications = try parse(try ProviderFixture.bytes(file))
        func quote(_ code: String, _ day: String) -> PublishedQuote? { ProviderFixture.quote(code, on: day, in: publications) }
        #expect(quote("JPY", "2026-03-02") == PublishedQuote(currency: CurrencyCode("JPY")!, value: "156.400000", unit: 1, direction: .unitsPerPivot))
        #expect(quote("EUR", "2026-03-02") == PublishedQuote(currency: .euro, value: "1.169800", unit: 1, direction: .pivotPerUnits))
        #expect(quote("BWP", "2026-03-31") == PublishedQuote(currency: CurrencyCode("BWP")!, value: "0.074500", unit: 1, direction: .pivotPerUnits))
        #expect(quote("KRW", "2026-03-03") == PublishedQuote(currency: CurrencyCode("KRW")!, value: "1435.400000", unit: 1, direction: .unitsPerPivot))
        #expect(quote("KRW", "2026-03-02") == nil)  // NA
        #expect(quote("UYU", "2026-03-31")?.value == "40.480000")
    }

    @Test("a value that is not a decimal, or misplaced separators, reject the answer")
    func garbageRate() throws {
        let body = try ProviderFixture.edited(file, replacing: "Japanese yen\t156.400000", with: "Japanese yen\t156.4x")
        #expect(ProviderFixture.error(body, provider) == .invalidRate(currency: CurrencyCode("JPY")!, day: Day("2026-03-02")!, text: "156.4x"))
        let grouping = try ProviderFixture.edited(file, replacing: "1,435.400000", with: "14,35.400000")
        #expect(ProviderFixture.error(grouping, provider) == .invalidRate(currency: CurrencyCode("KRW")!, day: Day("2026-03-03")!, text: "14,35.400000"))
    }

    @Test("a currency named twice on one day is rejected; an unknown name is a layout error")
    func duplicateAndUnknown() throws {
        let twice = try ProviderFixture.edited(file, replacing: "Brunei dollar\t1.267400", with: "Singapore dollar\t1.267400")
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("SGD")!, day: Day("2026-03-02")!))
        let unknown = try ProviderFixture.edited(file, replacing: "Brunei dollar\t1.267400", with: "Brunei dollar(2)\t1.267400")
        #expect(ProviderFixture.error(unknown, provider)?.isLayout(of: "IMF") == true)
    }

    @Test("a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        #expect(ProviderFixture.error(try ProviderFixture.truncated(file), provider)?.isLayout(of: "IMF") == true)
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let beforeNotes = Array(text[..<text.range(of: "Notes:")!.lowerBound].utf8)
        #expect(ProviderFixture.error(beforeNotes, provider)?.isLayout(of: "IMF") == true)
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "IMF") == true)
        #expect(ProviderFixture.error([], provider) == .empty)
    }

    @Test("latest asks for this month's report, a range for each month it touches")
    func requests() {
        let root = "https://www.imf.org/external/np/fin/data/rms_mth.aspx"
        #expect(provider.requests(for: .latest).map(\.url) == ["\(root)?SelectDate=2026-04-01&reportType=REP&tsvflag=Y"])
        #expect(provider.requests(for: .range(Day("2026-01-15")!, Day("2026-03-10")!)).map(\.url) == [
            "\(root)?SelectDate=2026-01-31&reportType=REP&tsvflag=Y",
            "\(root)?SelectDate=2026-02-28&reportType=REP&tsvflag=Y",
            "\(root)?SelectDate=2026-03-10&reportType=REP&tsvflag=Y",
        ])
    }
}
