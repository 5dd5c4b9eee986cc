import RatesCore
import RatesUpstream
import Testing

@Suite("CBBH adapter")
struct CBBHProviderTests {
    let provider = CBBHProvider(today: { Day("2026-09-24")! })
    let period = "cbbh-bosnia/02_GetJsonForPeriod_dateFrom=2026-09-24_dateTo=2026-09-26.json"
    let daily = "cbbh-bosnia/03_GetJson_date=09_25_2026_00_00_00.json"
    let january1998 = "cbbh-bosnia/01_GetJsonForPeriod_dateFrom=1998-01-06_dateTo=1998-01-08.json"
    let july1998 = "cbbh-bosnia/06_GetJsonForPeriod_dateFrom=1998-07-14_dateTo=1998-07-16.json"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .range(Day("2026-09-24")!, Day("2026-09-26")!))[0])
    }

    @Test("reads the lists of 2026-09-24 to 26: 17 currencies, marks per 1 or 100 units, as each answer writes them")
    func lists() throws {
        let publications = try parse(ProviderFixture.bytes(period))
        #expect(publications.map(\.day.description) == ["2026-09-24", "2026-09-25", "2026-09-26"])
        #expect(publications.allSatisfy { $0.quotes.count == 17 && $0.quotes.allSatisfy { $0.direction == .pivotPerUnits } })
        let friday = try #require(publications.dropFirst().first)
        #expect(friday["EUR"] == quote("EUR", "1.95583"))
        #expect(friday["HUF"] == quote("HUF", "0.534161", unit: 100))
        #expect(friday["XDR"] == quote("XDR", "2.33354"))
        // The daily answer writes six decimals.
        let one = try provider.parse(ProviderFixture.bytes(daily), of: provider.requests(for: .latest)[0])
        #expect(one.map(\.day) == [Day("2026-09-25")!])
        #expect(one.first?["EUR"] == quote("EUR", "1.955830"))
        #expect(one.first?["XDR"] == quote("XDR", "2.333540"))
        let monday = try parse(ProviderFixture.bytes("cbbh-bosnia/05_GetJson_date=01_06_2025_00_00_00.json"))
        #expect(monday.map(\.day) == [Day("2025-01-04")!], "the list in force on a Monday is Saturday's")
    }

    @Test("reads the 1998 lists, in Deutsche marks at par with the convertible mark: the DEM row at par, the ECU units and KWD's empty row left out")
    func lists1998() throws {
        let january = try parse(ProviderFixture.bytes(january1998))
        #expect(january.map(\.day.description) == ["1998-01-06", "1998-01-08"])
        #expect(january.allSatisfy { $0.quotes.count == 20 && $0["XBA"] == nil && $0["ESB"] == nil && $0["KWD"] == nil })
        let first = try #require(january.first)
        #expect(first["DEM"] == quote("DEM", "100", unit: 100))
        #expect(first["USD"] == quote("USD", "1.80310541"))
        #expect(first["JPY"] == quote("JPY", "1.37037037", unit: 100))
        #expect(first["ATS"] == quote("ATS", "14.21367521", unit: 100))
        #expect(january.last?["GBP"] == quote("GBP", "2.97550137"))
        let july = try parse(ProviderFixture.bytes(july1998))
        #expect(july.map(\.day.description) == ["1998-07-14", "1998-07-16"])
        #expect(july.map(\.quotes.count) == [20, 21])
        #expect(july.last?["ESP"] == quote("ESP", "1.17867372", unit: 100))
        #expect(july.last?["XEU"] == nil && july.last?["USD"] == quote("USD", "1.79899207"))
        #expect(provider.historyStart == Day("1997-08-11"))
        #expect(try ProviderFile.read([ProviderFixture.bytes(january1998)], provider: CBBHProvider()).count == 2)
        let before = try ProviderFixture.edited(january1998, replacing: #""Date": "1998-01-06T00:00:00""#, with: #""Date": "1997-08-08T00:00:00""#)
        #expect(ProviderFixture.error { try parse(before) } == .dayOutOfRange(Day("1997-08-08")!))
    }

    @Test("a row listed with units but without a middle rate is left out")
    func noMiddle() throws {
        // 1998's KWD row has neither units nor figures; the same row with its units, as a list may give it.
        let units = try ProviderFixture.edited(january1998, replacing: #""Units": "","#, with: #""Units": "1","#)
        #expect(try parse(units) == (try parse(ProviderFixture.bytes(january1998))))
    }

    @Test("reads a DEM row at par as marks, and rejects one that is not")
    func deutscheMark() throws {
        let notPar = try ProviderFixture.edited(period, replacing: #""AlphaCode": "AUD""#, with: #""AlphaCode": "DEM""#)
        #expect(ProviderFixture.error { try parse(notPar) }?.isLayout(of: "CBBH") == true)
        let par = try #require(ProviderFixture.replacing(#""Middle": "1.21134""#, with: #""Middle": "1""#, in: notPar))
        #expect(try parse(par).first?["DEM"] == quote("DEM", "1"))
    }

    @Test("a span without lists answers \"Problem with export\" with a 404: no publication; a 404 to the daily request is not")
    func noList() throws {
        #expect(try parse(ProviderFixture.bytes("cbbh-bosnia/04_GetJsonForPeriod_dateFrom=2025-01-05_dateTo=2025-01-06.json")).isEmpty)
        #expect(provider.meansNoPublication(httpStatus: 404, for: provider.requests(for: .range(Day("2025-01-05")!, Day("2025-01-06")!))[0]))
        #expect(!provider.meansNoPublication(httpStatus: 404, for: provider.requests(for: .latest)[0]))
        #expect(!provider.meansNoPublication(httpStatus: 500, for: provider.requests(for: .range(Day("2025-01-05")!, Day("2025-01-06")!))[0]))
    }

    @Test("asks for the list in force tomorrow, and for a range one period per 366 days")
    func requests() {
        let base = "https://www.cbbh.ba/CurrencyExchange/"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: base + "GetJson?date=09/25/2026%2000:00:00")])
        #expect(
            provider.requests(for: .range(Day("2025-01-01")!, Day("2026-09-26")!)).map(\.url) == [
                base + "GetJsonForPeriod?dateFrom=2025-01-01&dateTo=2026-01-01", base + "GetJsonForPeriod?dateFrom=2026-01-02&dateTo=2026-09-26",
            ])
    }

    @Test("rejects a value that is not a decimal, a currency twice, a bad code, unit or day")
    func alteredValues() throws {
        let day = Day("2026-09-24")!
        let value = try ProviderFixture.edited(period, replacing: #""Middle": "1.21134""#, with: #""Middle": "1.2113a""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("AUD")!, day: day, text: "1.2113a"))
        let twice = try ProviderFixture.edited(period, replacing: #""AlphaCode": "AUD""#, with: #""AlphaCode": "EUR""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("EUR")!, day: day))
        let code = try ProviderFixture.edited(period, replacing: #""AlphaCode": "AUD""#, with: #""AlphaCode": "036""#)
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("036", day: day))
        let unit = try ProviderFixture.edited(period, replacing: #""Units": "100""#, with: #""Units": "1OO""#)
        #expect(ProviderFixture.error { try parse(unit) }?.isLayout(of: "CBBH") == true)
        let date = try ProviderFixture.edited(period, replacing: #""Date": "2026-09-24T00:00:00""#, with: #""Date": "2026-09-24T16:00:00""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-09-24T16:00:00"))
    }

    @Test("rejects truncations, an HTML error page and an empty body")
    func notTheAnswer() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(daily), stride: 29) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try [period, daily, "cbbh-bosnia/05_GetJson_date=01_06_2025_00_00_00.json"]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: CBBHProvider()).count }
        #expect(counts == [3, 1, 1])
    }
}
