import Foundation
import RatesCore
import RatesTestFixtures
@testable import RatesUpstream
import Testing

@Suite("CBSSC adapter")
struct CBSSCProviderTests {
    let provider = CBSSCProvider(today: { Day("2026-09-09")! })
    let dayFile = "cbssc-seychelles/01_MarketinfoController.jsp_type=car.json"
    let workbookFile = "cbssc-seychelles/00_Exchange_20Rates-Daily.xlsx"
    let usdSheet = "xl/worksheets/sheet2.xml"

    var dayRequest: ProviderRequest { provider.requests(for: .latest)[0] }
    var workbookRequest: ProviderRequest { provider.requests(for: .range(Day("2026-09-01")!, Day("2026-09-09")!))[0] }

    func day(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: dayRequest)
    }

    func workbook(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: workbookRequest)
    }

    @Test("reads the day's JSON of 9 September 2026: the middle rates of USD, EUR and GBP, rupees per unit, as written")
    func readsDay() throws {
        let publications = try day(ProviderFixture.bytes(dayFile))
        #expect(publications.map(\.day.description) == ["2026-09-09"])
        #expect(publications[0].quotes.sorted { $0.currency < $1.currency } == [
            quote("EUR", "16.8958"), quote("GBP", "20.1872"), quote("USD", "14.4077"),
        ])
    }

    @Test("reads the workbook: 10 days from 2000-01-04 to 2026-09-08, each double to 15 significant digits; GBP's `-` is no figure")
    func readsWorkbook() throws {
        let publications = try workbook(ProviderFixture.bytes(workbookFile))
        #expect(publications.map(\.day.description) == [
            "2000-01-04", "2020-04-09", "2026-07-31", "2026-08-03", "2026-08-04", "2026-08-05", "2026-08-06", "2026-08-07", "2026-08-10", "2026-09-08",
        ])
        #expect(publications.map(\.quotes.count) == [3, 2, 3, 3, 3, 3, 3, 3, 3, 3])
        #expect(publications[1].codes == ["EUR", "USD"], "GBP of 2020-04-09 is -")
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits } })
        // 5.3441000000000001 and 5.4269999999999996 as stored: the figures typed.
        #expect(ProviderFixture.quote("USD", on: "2000-01-04", in: publications) == quote("USD", "5.3441"))
        #expect(ProviderFixture.quote("EUR", on: "2000-01-04", in: publications)?.value == "5.427")
        #expect(ProviderFixture.quote("EUR", on: "2020-04-09", in: publications)?.value == "18.5231")
        // 14.616577838181803, 16.867435319127971, 19.393593505532003: computed averages, to 15 significant digits.
        #expect(ProviderFixture.quote("USD", on: "2026-09-08", in: publications) == quote("USD", "14.6165778381818"))
        #expect(ProviderFixture.quote("EUR", on: "2026-09-08", in: publications)?.value == "16.867435319128")
        #expect(ProviderFixture.quote("GBP", on: "2026-09-08", in: publications)?.value == "19.393593505532")
    }

    @Test("asks for the day's JSON as the newest publication and for the workbook for a range")
    func requests() {
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: "https://www.cbs.sc/Controller/MarketinfoController.jsp?type=car")])
        #expect(provider.requests(for: .range(Day("2000-01-04")!, Day("2026-09-09")!)) == [
            ProviderRequest(url: "https://www.cbs.sc/Downloads/StaExcel/Exchange%20Rates-Daily.xlsx"),
        ])
        #expect(provider.requests(for: .range(Day("2026-09-09")!, Day("2026-09-01")!)).isEmpty)
        #expect(provider.sessionRequest(for: .latest) == nil)
        let elsewhere = CBSSCProvider(baseURL: "http://127.0.0.1:9/cbssc")
        #expect(elsewhere.requests(for: .latest)[0].url == "http://127.0.0.1:9/cbssc/Controller/MarketinfoController.jsp?type=car")
    }

    @Test("a day's JSON with a middle rate that is not a number, a bad day, an unknown member or another shape is rejected; a middle rate of - is no figure")
    func alteredDay() throws {
        let ninth = Day("2026-09-09")!
        let text = try ProviderFixture.edited(dayFile, replacing: "\"usdmid\":\"14.4077\"", with: "\"usdmid\":\"14.40x\"")
        #expect(ProviderFixture.error(text, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: ninth, text: "14.40x"))
        let badDay = try ProviderFixture.edited(dayFile, replacing: "09-Sep-2026", with: "31-Sep-2026")
        #expect(ProviderFixture.error(badDay, provider) == .invalidDay("31-Sep-2026"))
        let member = try ProviderFixture.edited(dayFile, replacing: "\"id\":1", with: "\"rate\":1")
        #expect(ProviderFixture.error(member, provider)?.isLayout(of: "CBSSC") == true)
        let noDay = try ProviderFixture.edited(dayFile, replacing: "\"currentDate\"", with: "\"date\"")
        #expect(ProviderFixture.error(noDay, provider)?.isLayout(of: "CBSSC") == true)
        let noRate = try ProviderFixture.edited(dayFile, replacing: "\"gbpmid\":\"20.1872\"", with: "\"gbpmid\":\"-\"")
        #expect(try day(noRate).first?.codes == ["EUR", "USD"])
        #expect(ProviderFixture.error(try ProviderFixture.truncated(dayFile), provider)?.isLayout(of: "CBSSC") == true)
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "CBSSC") == true)
        #expect(ProviderFixture.error([], provider) == .empty)
        #expect(ProviderFixture.error(Array("\r\n{\"car\":[]}".utf8), provider) == .empty)
    }

    @Test("a workbook figure that is not a number, a currency sheet with another header or a figure without a date is rejected")
    func alteredWorkbook() throws {
        let usd = CurrencyCode("USD")!
        let text = try XLSXFixture.edited(
            workbookFile, member: usdSheet, replacing: "<c r=\"B4\" s=\"57\"><v>5.3441000000000001</v></c>",
            with: "<c r=\"B4\" s=\"57\" t=\"inlineStr\"><is><t>5,34x</t></is></c>")
        #expect(ProviderFixture.error(text, provider, request: workbookRequest) == .invalidRate(currency: usd, day: Day("2000-01-04")!, text: "5,34x"))
        let header = try XLSXFixture.edited(workbookFile, member: "xl/sharedStrings.xml", replacing: "<t>SCR/USD</t>", with: "<t>SCR/USS</t>")
        #expect(ProviderFixture.error(header, provider, request: workbookRequest)?.isLayout(of: "CBSSC") == true)
        let noDate = try XLSXFixture.edited(workbookFile, member: usdSheet, replacing: "<c r=\"A4\" s=\"50\"><v>36529</v></c>", with: "")
        #expect(ProviderFixture.error(noDate, provider, request: workbookRequest)?.isLayout(of: "CBSSC") == true)
        let badDay = try XLSXFixture.edited(
            workbookFile, member: usdSheet, replacing: "<c r=\"A4\" s=\"50\"><v>36529</v></c>", with: "<c r=\"A4\" s=\"50\"><v>0</v></c>")
        #expect(ProviderFixture.error(badDay, provider, request: workbookRequest) == .invalidDay("Excel serial 0"))
        // A day before the series' first, 2000-01-04, is out of the source's range.
        let early = try XLSXFixture.edited(workbookFile, member: usdSheet, replacing: "<v>36529</v>", with: "<v>36528</v>")
        #expect(ProviderFixture.error(early, provider, request: workbookRequest) == .dayOutOfRange(Day("2000-01-03")!))
    }

    @Test("every truncation of the workbook, an HTML error page and an empty body are rejected as the workbook")
    func brokenWorkbooks() throws {
        let cuts = ProviderFixture.truncations(of: try ProviderFixture.bytes(workbookFile), stride: 499)
        #expect(cuts.count > 100)
        let unread = cuts.filter { cut in
            guard case .unreadableArchive = ProviderFixture.error(cut, provider, request: workbookRequest) else { return true }
            return false
        }
        #expect(unread.map(\.count) == [])
        guard case .unreadableArchive = ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: workbookRequest) else {
            Issue.record("an HTML page was not rejected as an unreadable archive")
            return
        }
        #expect(ProviderFixture.error([], provider, request: workbookRequest) == .empty)
    }

    @Test("the recorded workbook and day's JSON import together, each read as what it is: 11 days")
    func imports() throws {
        let files = [Fixtures.url(workbookFile), Fixtures.url(dayFile)]
        let publications = try provider.publications(inFiles: files, subjects: [], today: Day("2026-11-29")!)
        #expect(publications.count == 11)
        #expect(publications.first?.day == Day("2000-01-04"))
        #expect(publications.last.map { $0.day.description + " " + ($0["USD"]?.value ?? "") } == "2026-09-09 14.4077")
    }
}
