import Foundation
import RatesCore
@testable import RatesUpstream
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

    @Test("a currency named twice on one day is rejected; a name the report has never used is a layout error")
    func duplicateAndUnknown() throws {
        let twice = try ProviderFixture.edited(file, replacing: "Brunei dollar\t1.267400", with: "Singapore dollar\t1.267400")
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("SGD")!, day: Day("2026-03-02")!))
        let unknown = try ProviderFixture.edited(file, replacing: "Brunei dollar\t1.267400", with: "Atlantis dollar\t1.267400")
        #expect(ProviderFixture.error(unknown, provider)?.isLayout(of: "IMF") == true)
    }

    @Test("names are matched trimmed and in any case, including those of currencies other months list; header days trimmed")
    func otherNames() throws {
        // The report's casing and spacing vary between months (`Chinese Yuan `); the header cells too.
        var body = try ProviderFixture.edited(file, replacing: "Chinese yuan\t6.882900", with: "Chinese Yuan \t6.882900")
        body = try #require(ProviderFixture.replacing("Currency\tMarch 02, 2026\t", with: "Currency\tMarch 02, 2026 \t", in: body))
        // Other months list currencies this one does not: the Brunei dollar's row renamed to one of them.
        body = try #require(ProviderFixture.replacing("Brunei dollar\t1.267400", with: "Hungarian forint\t1.267400", in: body))
        let publications = try parse(body)
        #expect(publications.count == 22)
        #expect(ProviderFixture.quote("CNY", on: "2026-03-02", in: publications) == quote("CNY", "6.882900", .unitsPerPivot))
        #expect(ProviderFixture.quote("HUF", on: "2026-03-02", in: publications) == quote("HUF", "1.267400", .unitsPerPivot))
        #expect(ProviderFixture.quote("HUF", on: "2026-03-03", in: publications)?.value == "1.272600")
        #expect(ProviderFixture.quote("BND", on: "2026-03-02", in: publications) == nil)
    }

    @Test("a row with a footnote mark other than (1) is left out, the rest of the month read")
    func otherMark() throws {
        // The notes announce marks besides (1) without saying what they mean: the Brunei dollar marked (2).
        let body = try ProviderFixture.edited(file, replacing: "Brunei dollar\t1.267400", with: "Brunei dollar(2)\t1.267400")
        let publications = try parse(body)
        #expect(publications.count == 22)
        #expect(publications[0].quotes.count == 33)
        #expect(ProviderFixture.quote("BND", on: "2026-03-02", in: publications) == nil)
        // Only the first block's row was marked: the second block still gives the Brunei dollar.
        #expect(ProviderFixture.quote("BND", on: "2026-03-17", in: publications)?.value == "1.279000")
    }

    @Test("a name kept across a redenomination means the code of its day: the Venezuelan bolivar in 2018 is VEF")
    func redenomination() throws {
        // The March 2026 report moved to March 2018 (every date), with the Uruguayan peso's row renamed
        // to the Venezuelan bolivar, a name the report kept from VEB through VEF to VES.
        var text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self).replacingOccurrences(of: ", 2026", with: ", 2018")
        text = text.replacingOccurrences(of: "Uruguayan peso", with: "Venezuelan bolivar")
        let publications = try provider.parse(Array(text.utf8), of: provider.requests(for: .latest)[0])
        #expect(publications.first?.day == Day("2018-03-02"))
        #expect(ProviderFixture.quote("VEF", on: "2018-03-02", in: publications) == quote("VEF", "38.740000", .unitsPerPivot))
        #expect(ProviderFixture.quote("VES", on: "2018-03-02", in: publications) == nil)
        #expect(IMFProvider.code("VES", on: Day("2007-12-31")!) == CurrencyCode("VEB")!)
        #expect(IMFProvider.code("VES", on: Day("2018-08-20")!) == CurrencyCode("VES")!)
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
