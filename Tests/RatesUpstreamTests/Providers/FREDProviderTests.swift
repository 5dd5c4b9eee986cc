import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("FRED adapter")
struct FREDProviderTests {
    let provider = FREDProvider(apiKey: "KEY")

    func file(_ series: String) -> String { "fred-h10-usa/fred_\(series)_from-2026-03-01.json" }

    func request(_ series: String) -> ProviderRequest {
        provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-13")!)).first { $0.subject == series }!
    }

    func parse(_ series: String, _ body: [UInt8]? = nil) throws -> [ProviderPublication] {
        try provider.parse(try body ?? ProviderFixture.bytes(file(series)), of: request(series))
    }

    func error(_ series: String, _ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider, request: request(series))
    }

    @Test("reads all 22 H.10 series of 2–13 Mar 2026: 10 days each, one currency per series")
    func readsAllSeries() throws {
        var currencies: [String] = []
        for series in FREDProvider.series {
            let publications = try parse(series.id)
            #expect(publications.count == 10, "\(series.id)")
            #expect(publications.first?.day == Day("2026-03-02"))
            #expect(publications.last?.day == Day("2026-03-13"))
            #expect(publications.allSatisfy { $0.quotes.count == 1 && $0.quotes[0].currency.rawValue == series.currency && $0.quotes[0].unit == 1 })
            currencies.append(series.currency)
        }
        #expect(Set(currencies).count == 22)
    }

    @Test("DEXJPUS is yen per 1 USD; DEXUSEU, DEXUSUK, DEXUSAL and DEXUSNZ are USD per 1 unit")
    func directions() throws {
        func quote(_ series: String, _ day: String) throws -> PublishedQuote? {
            try parse(series).first { $0.day == Day(day)! }?.quotes.first
        }
        #expect(try quote("DEXJPUS", "2026-03-02") == PublishedQuote(currency: CurrencyCode("JPY")!, value: "157.48", unit: 1, direction: .unitsPerPivot))
        #expect(try quote("DEXKOUS", "2026-03-13") == PublishedQuote(currency: CurrencyCode("KRW")!, value: "1498.88", unit: 1, direction: .unitsPerPivot))
        #expect(try quote("DEXSZUS", "2026-03-02") == PublishedQuote(currency: CurrencyCode("CHF")!, value: "0.7797", unit: 1, direction: .unitsPerPivot))
        #expect(try quote("DEXSLUS", "2026-03-02") == PublishedQuote(currency: CurrencyCode("LKR")!, value: "309.2", unit: 1, direction: .unitsPerPivot))
        // FRED writes no trailing zero: 1.1690 is published as "1.169".
        #expect(try quote("DEXUSEU", "2026-03-02") == PublishedQuote(currency: .euro, value: "1.169", unit: 1, direction: .pivotPerUnits))
        #expect(try quote("DEXUSUK", "2026-03-13") == PublishedQuote(currency: CurrencyCode("GBP")!, value: "1.324", unit: 1, direction: .pivotPerUnits))
        #expect(try quote("DEXUSAL", "2026-03-02") == PublishedQuote(currency: CurrencyCode("AUD")!, value: "0.7067", unit: 1, direction: .pivotPerUnits))
        #expect(try quote("DEXUSNZ", "2026-03-13") == PublishedQuote(currency: CurrencyCode("NZD")!, value: "0.5804", unit: 1, direction: .pivotPerUnits))
    }

    @Test("a \".\" value is a day without a figure and is left out")
    func missingDay() throws {
        let body = try ProviderFixture.edited(file("DEXJPUS"), replacing: "\"value\":\"157.69\"", with: "\"value\":\".\"")
        let publications = try parse("DEXJPUS", body)
        #expect(publications.count == 9)
        #expect(!publications.contains { $0.day == Day("2026-03-03")! })
    }

    @Test("a value that is not a decimal, a value as a JSON number or a transformed series rejects the answer")
    func garbageRate() throws {
        let garbage = try ProviderFixture.edited(file("DEXJPUS"), replacing: "\"value\":\"157.69\"", with: "\"value\":\"157,69x\"")
        #expect(error("DEXJPUS", garbage) == .invalidRate(currency: CurrencyCode("JPY")!, day: Day("2026-03-03")!, text: "157,69x"))
        let number = try ProviderFixture.edited(file("DEXJPUS"), replacing: "\"value\":\"157.69\"", with: "\"value\":157.69")
        #expect(error("DEXJPUS", number)?.isLayout(of: "FRED") == true)
        let percent = try ProviderFixture.edited(file("DEXJPUS"), replacing: "\"units\":\"lin\"", with: "\"units\":\"pch\"")
        #expect(error("DEXJPUS", percent)?.isLayout(of: "FRED") == true)
        let badDay = try ProviderFixture.edited(file("DEXJPUS"), replacing: "\"date\":\"2026-03-03\"", with: "\"date\":\"2026-02-30\"")
        #expect(error("DEXJPUS", badDay) == .invalidDay("2026-02-30"))
    }

    @Test("the same day twice in one series is rejected")
    func duplicateDay() throws {
        let body = try ProviderFixture.edited(file("DEXJPUS"), replacing: "\"date\":\"2026-03-03\"", with: "\"date\":\"2026-03-02\"")
        #expect(error("DEXJPUS", body) == .duplicateDay(Day("2026-03-02")!))
    }

    @Test("a range without observations, or with only days without a figure, is no publication")
    func emptyRange() throws {
        // The recording's answer with its observations taken out, as FRED answers a range of holidays.
        let all = String(decoding: try ProviderFixture.bytes(file("DEXJPUS")), as: UTF8.self)
        let none = String(all[..<all.range(of: #""observations":["#)!.upperBound]) + "]}"
        #expect(try parse("DEXJPUS", Array(none.utf8)).isEmpty)
        let holiday = #"{"realtime_start":"2026-03-19","realtime_end":"2026-03-19","date":"2026-03-02","value":"."}"#
        #expect(try parse("DEXJPUS", Array((String(none.dropLast(2)) + holiday + "]}").utf8)).isEmpty)
    }

    @Test("a whole series' history reads back to 1971-01-04, the H.10 series' first day; an earlier day is refused")
    func history() throws {
        // An answer without observation_start holds the series from 1971: the recording with its first
        // observation dated on the series' first day.
        let body = try ProviderFixture.edited(file("DEXJPUS"), replacing: #""date":"2026-03-02""#, with: #""date":"1971-01-04""#)
        let publications = try parse("DEXJPUS", body)
        #expect(publications.count == 10)
        #expect(publications.first?.day == Day("1971-01-04"))
        #expect(publications.first?.quotes == [PublishedQuote(currency: CurrencyCode("JPY")!, value: "157.48", unit: 1, direction: .unitsPerPivot)])
        let before = try ProviderFixture.edited(file("DEXJPUS"), replacing: #""date":"2026-03-02""#, with: #""date":"1970-12-31""#)
        #expect(error("DEXJPUS", before) == .dayOutOfRange(Day("1970-12-31")!))
    }

    @Test("a truncated body, an HTML error page, FRED's error answer, an empty body and an unknown subject are rejected")
    func brokenBodies() throws {
        #expect(error("DEXJPUS", try ProviderFixture.truncated(file("DEXJPUS")))?.isLayout(of: "FRED") == true)
        #expect(error("DEXJPUS", ProviderFixture.htmlErrorPage)?.isLayout(of: "FRED") == true)
        let refusal = Array(#"{"error_code":400,"error_message":"Bad Request.  The value for variable api_key is not registered."}"#.utf8)
        #expect(error("DEXJPUS", refusal)?.isLayout(of: "FRED") == true)
        #expect(error("DEXJPUS", []) == .empty)
        let unknown = ProviderRequest(url: "https://api.stlouisfed.org/fred/series/observations", subject: "DEXXXUS")
        #expect(ProviderFixture.error(try ProviderFixture.bytes(file("DEXJPUS")), provider, request: unknown)?.isLayout(of: "FRED") == true)
    }

    @Test("one request per series, the key in the query: the last ten observations for latest, start and end for a range")
    func requests() {
        let latest = provider.requests(for: .latest)
        #expect(latest.count == 22)
        #expect(latest.map(\.subject) == FREDProvider.series.map(\.id))
        #expect(latest[6].url == "https://api.stlouisfed.org/fred/series/observations?series_id=DEXJPUS&api_key=KEY&file_type=json&sort_order=desc&limit=10")
        #expect(provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-13")!))[19] == ProviderRequest(
            url: "https://api.stlouisfed.org/fred/series/observations?series_id=DEXUSEU&api_key=KEY&file_type=json&observation_start=2026-03-01&observation_end=2026-03-13",
            subject: "DEXUSEU"))
        #expect(provider.needsAPIKey)
    }
}
