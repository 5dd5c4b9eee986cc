import RatesCore
import RatesUpstream
import Testing

@Suite("BBK adapter")
struct BBKProviderTests {
    let provider = BBKProvider()
    let file = "bbk-germany-historical/00_EX3_D..DEM.AA.AC.000_endPeriod=1998-12-30_format=sdmx_csv_startPeriod=1998-12-21.csv"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the last ten days of the Deutsche Mark: 6 fixings of 18 currencies, DEM per the title's units, no-fixing days skipped")
    func lastDays() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["1998-12-21", "1998-12-22", "1998-12-23", "1998-12-28", "1998-12-29", "1998-12-30"])
        #expect(publications.allSatisfy { $0.quotes.count == 18 })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits } })
        let last = try #require(publications.last)
        #expect(last.codes == [
            "ATS", "BEF", "CAD", "CHF", "DKK", "ESP", "FIM", "FRF", "GBP", "IEP", "ITL", "JPY", "LUF", "NLG", "NOK", "PTE", "SEK", "USD",
        ])
        #expect(last["USD"] == quote("USD", "1.6730"))
        #expect(last["GBP"] == quote("GBP", "2.7980"))
        #expect(last["ITL"] == quote("ITL", "1.0100", unit: 1000))
        #expect(last["JPY"] == quote("JPY", "1.4505", unit: 100))
        #expect(ProviderFixture.quote("ATS", on: "1998-12-21", in: publications) == quote("ATS", "14.214", unit: 100))
        #expect(last.quotes.filter { $0.unit == 1 }.map(\.currency.rawValue).sorted() == ["CAD", "GBP", "IEP", "USD"])
    }

    @Test("asks for the newest publication as the history's last ten days, for a range one request per year within the history")
    func requests() {
        let data = "https://api.statistiken.bundesbank.de/rest/data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: data + "&startPeriod=1998-12-21&endPeriod=1998-12-30")])
        let range = provider.requests(for: .range(Day("1996-11-30")!, Day("1999-03-01")!))
        #expect(range.map(\.url) == [
            data + "&startPeriod=1996-11-30&endPeriod=1996-12-31",
            data + "&startPeriod=1997-01-01&endPeriod=1997-12-31",
            data + "&startPeriod=1998-01-01&endPeriod=1998-12-30",
        ])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(provider.requests(for: .range(Day("1940-01-01")!, Day("1948-12-31")!)).map(\.url) == [data + "&startPeriod=1948-06-21&endPeriod=1948-12-31"])
        #expect(provider.requests(for: .range(Day("2026-01-01")!, Day("2026-03-01")!)).isEmpty)
        #expect(provider.requests(for: .range(Day("1948-01-01")!, Day("1998-12-31")!)).count == 51)
        #expect(BBKProvider(baseURL: "http://127.0.0.1:8080/bbk").requests(for: .latest)[0].url.hasPrefix("http://127.0.0.1:8080/bbk/rest/data/BBEX3/"))
    }

    @Test("has no publication due: a fetch with nothing stored asks for the whole history, then nothing new")
    func closedHistory() {
        let today = Day("2026-11-26")!
        #expect(provider.schedule.weekdays.isEmpty)
        #expect(!provider.schedule.isPublicationDay(today))
        #expect(provider.schedule.publicationsDue(after: BBKProvider.lastDay, asOf: today.startOfDayUTC) == 0)
        #expect(provider.catchUp(after: nil, backfillDays: 7, today: today) == .range(Day("1948-06-21")!, BBKProvider.lastDay))
        #expect(provider.catchUp(after: Day("1990-01-02")!, backfillDays: 7, today: today) == .range(Day("1990-01-03")!, BBKProvider.lastDay))
        #expect(provider.catchUp(after: BBKProvider.lastDay, backfillDays: 7, today: today) == .latest)
    }

    @Test("rejects a value that is not a decimal, a currency twice, a bad code, unit or day, a row not in DEM")
    func alteredFields() throws {
        let day = Day("1998-12-30")!
        let value = try ProviderFixture.edited(file, replacing: ";1998-12-30;1.6730;", with: ";1998-12-30;1,6730;")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "1,6730"))
        let twice = try ProviderFixture.edited(file, replacing: "D;CAD;DEM;AA;AC;000;1998-12-29", with: "D;CAD;DEM;AA;AC;000;1998-12-30")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("CAD")!, day: day))
        let code = try ProviderFixture.edited(file, replacing: "D;CAD;DEM;AA;AC;000;1998-12-30", with: "D;CDN;DEM;AA;AC;000;1998-12-30")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("CDN", day: day))
        let unit = try ProviderFixture.edited(file, replacing: "/ 1 000 ITL = ... DEM /", with: "/ 1.000 ITL = ... DEM /")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(unit) }))
        let notTen = try ProviderFixture.edited(file, replacing: "/ 1 000 ITL = ... DEM /", with: "/ 1 500 ITL = ... DEM /")
        #expect(ProviderFixture.error { try parse(notTen) } == .invalidRate(currency: CurrencyCode("ITL")!, day: Day("1998-12-21")!, text: "1.0098"))
        let date = try ProviderFixture.edited(file, replacing: ";1998-12-30;1.6730;", with: ";1998-12-32;1.6730;")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("1998-12-32"))
        let partner = try ProviderFixture.edited(file, replacing: "D;USD;DEM;AA;AC;000;1998-12-30", with: "D;USD;EUR;AA;AC;000;1998-12-30")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(partner) }))
        let header = try ProviderFixture.edited(file, replacing: "OBS_VALUE", with: "OBS_VAL")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(header) }))
    }

    @Test("rejects a truncated body, an HTML error page, an empty body and a header alone; no truncation crashes")
    func notTheAnswer() throws {
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 211) {
            _ = ProviderFixture.error { try parse(cut) }
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let header = try ProviderFixture.bytes(file).split(separator: UInt8(ascii: "\n"))[0]
        #expect(ProviderFixture.error { try parse(Array(header)) } == .empty)
    }
}
