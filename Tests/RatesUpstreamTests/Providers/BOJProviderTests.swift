import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BOJ adapter")
struct BOJProviderTests {
    let provider = BOJProvider(today: { Day("2026-04-01")! })
    let file = "boj-japan/getDataCode_FM08_FXERD04_FXERD34_2026-03.json"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] { try provider.parse(body, of: provider.requests(for: .latest)[0]) }
    func error(_ body: [UInt8]) -> UpstreamDataError? { ProviderFixture.error(body, provider) }

    @Test("reads March 2026: 19 days with yen per 1 USD and USD per 1 euro, nulls on weekends and holidays left out")
    func readsMonth() throws {
        let publications = try parse(try ProviderFixture.bytes(file))
        #expect(publications.count == 19)
        #expect(publications.first?.day == Day("2026-03-02"))
        #expect(publications.last?.day == Day("2026-03-27"))
        // 20 March, Vernal Equinox Day, has no figure.
        #expect(!publications.contains { $0.day == Day("2026-03-20")! })
        #expect(publications.allSatisfy { Set($0.quotes.map(\.currency.rawValue)) == ["JPY", "EUR"] })
        func quote(_ code: String, _ day: String) -> PublishedQuote? { ProviderFixture.quote(code, on: day, in: publications) }
        #expect(quote("JPY", "2026-03-02") == PublishedQuote(currency: CurrencyCode("JPY")!, value: "156.99", unit: 1, direction: .unitsPerPivot))
        #expect(quote("JPY", "2026-03-27") == PublishedQuote(currency: CurrencyCode("JPY")!, value: "159.95", unit: 1, direction: .unitsPerPivot))
        #expect(quote("EUR", "2026-03-02") == PublishedQuote(currency: .euro, value: "1.1716", unit: 1, direction: .pivotPerUnits))
        // The API writes no trailing zero: 1.1660 comes as 1.166.
        #expect(quote("EUR", "2026-03-10")?.value == "1.166")
    }

    @Test("reads 1998, the series' first year, and rejects a day before 1998-01-05")
    func history() throws {
        // The March 2026 answer with its dates moved to March 1998 (which also starts on a Sunday): the API's layout is the same for every year.
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let march1998 = Array(text.replacingOccurrences(of: ",202603", with: ",199803").replacingOccurrences(of: "[202603", with: "[199803").utf8)
        let publications = try parse(march1998)
        #expect(publications.count == 19)
        #expect(publications.first?.day == Day("1998-03-02") && publications.last?.day == Day("1998-03-27"))
        #expect(ProviderFixture.quote("JPY", on: "1998-03-02", in: publications)?.value == "156.99")
        #expect(provider.historyStart == Day("1998-01-05"))
        let early = try ProviderFixture.edited(file, replacing: "[20260301,20260302,", with: "[20260301,19980102,")
        #expect(error(early) == .dayOutOfRange(Day("1998-01-02")!))
    }

    @Test("an answer of nulls only (a month with no business day yet) is no publication")
    func nullsOnly() throws {
        // The recording with every figure null, as the API writes the days without one.
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let nulls = Array(text.replacingOccurrences(of: #"\d+\.\d+"#, with: "null", options: .regularExpression).utf8)
        #expect(!nulls.isEmpty && String(decoding: nulls, as: UTF8.self).contains("[null,null,null"))
        #expect(try parse(nulls).isEmpty)
    }

    @Test("a value that is not a positive number, or a number written as text, rejects the answer")
    func garbageRate() throws {
        let negative = try ProviderFixture.edited(file, replacing: "null,156.99,", with: "null,-156.99,")
        #expect(error(negative) == .invalidRate(currency: CurrencyCode("JPY")!, day: Day("2026-03-02")!, text: "-156.99"))
        let text = try ProviderFixture.edited(file, replacing: "null,156.99,", with: "null,\"156.99\",")
        #expect(error(text)?.isLayout(of: "BOJ") == true)
        let badDay = try ProviderFixture.edited(file, replacing: "[20260301,20260302,", with: "[20260301,20260230,")
        #expect(error(badDay) == .invalidDay("20260230"))
        let short = try ProviderFixture.edited(file, replacing: "[null,156.99,", with: "[156.99,")
        #expect(error(short)?.isLayout(of: "BOJ") == true)
    }

    @Test("a series quoted the other way round, an unknown series or the same series twice rejects the answer")
    func seriesChecks() throws {
        let inverted = try ProviderFixture.edited(file, replacing: "\"UNIT\":\"Yen per U.S. Dollar\"", with: "\"UNIT\":\"U.S. Dollar per Yen\"")
        #expect(error(inverted)?.isLayout(of: "BOJ") == true)
        let unknown = try ProviderFixture.edited(file, replacing: "\"SERIES_CODE\":\"FXERD34\"", with: "\"SERIES_CODE\":\"FXERD31\"")
        #expect(error(unknown)?.isLayout(of: "BOJ") == true)
        let twice = try ProviderFixture.edited(
            file, replacing: "\"SERIES_CODE\":\"FXERD34\",\n\"NAME_OF_TIME_SERIES\":\"Euro/US.Dollar as of 17:00 in JST, Tokyo Market\",\n\"UNIT\":\"U.S. Dollar per Euro\"",
            with: "\"SERIES_CODE\":\"FXERD04\",\n\"NAME_OF_TIME_SERIES\":\"US.Dollar/Yen\",\n\"UNIT\":\"Yen per U.S. Dollar\"")
        #expect(error(twice) == .duplicateCurrency(CurrencyCode("JPY")!, day: Day("2026-03-02")!))
    }

    @Test("a paged answer, an error status, a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        let paged = try ProviderFixture.edited(file, replacing: "\"NEXTPOSITION\":null", with: "\"NEXTPOSITION\":250")
        #expect(error(paged)?.isLayout(of: "BOJ") == true)
        let status = try ProviderFixture.edited(file, replacing: "\"STATUS\":200", with: "\"STATUS\":400")
        #expect(error(status)?.isLayout(of: "BOJ") == true)
        #expect(error(try ProviderFixture.truncated(file))?.isLayout(of: "BOJ") == true)
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BOJ") == true)
        #expect(error([]) == .empty)
    }

    @Test("latest asks for the months of the last seven days, a range for its months, one request per calendar year")
    func requests() {
        let root = "https://www.stat-search.boj.or.jp/api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04,FXERD34"
        #expect(provider.requests(for: .latest).map(\.url) == [root + "&startDate=202603&endDate=202604"])
        #expect(provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-31")!)).map(\.url) == [root + "&startDate=202603&endDate=202603"])
        #expect(provider.requests(for: .range(Day("2024-11-15")!, Day("2026-02-03")!)).map(\.url) == [
            root + "&startDate=202411&endDate=202412",
            root + "&startDate=202501&endDate=202512",
            root + "&startDate=202601&endDate=202602",
        ])
    }
}
