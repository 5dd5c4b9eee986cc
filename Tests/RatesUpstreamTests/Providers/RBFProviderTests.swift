import RatesCore
@testable import RatesUpstream
import Testing

@Suite("RBF adapter")
struct RBFProviderTests {
    let provider = RBFProvider()
    // The workbook as Frankfurter's cassette kept it: its last five days (see the README beside it).
    let file = "rbf-fiji/01_wp-content_uploads_2026_05_8.8-Exchange-Rates-Daily-9.xlsx.xlsx"
    let page = "rbf-fiji/00_statistics_economic-and-financial-statistics.html"
    let sheet = "xl/worksheets/sheet1.xml"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads table 8.8: 2026-05-18 to 2026-05-22, 7 currencies and the SDR per 1 FJD, labels mapped to codes")
    func readsWorkbook() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-05-18", "2026-05-19", "2026-05-20", "2026-05-21", "2026-05-22"])
        #expect(publications.allSatisfy { $0.codes == ["AUD", "CHF", "EUR", "GBP", "JPY", "NZD", "USD", "XDR"] })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .unitsPerPivot } })
        // Stored as 0.44969999999999999, 71.349999999999994, 0.33750000000000002 and 0.328656.
        #expect(ProviderFixture.quote("USD", on: "2026-05-18", in: publications) == quote("USD", "0.4497", .unitsPerPivot))
        #expect(ProviderFixture.quote("JPY", on: "2026-05-18", in: publications)?.value == "71.35")
        #expect(ProviderFixture.quote("GBP", on: "2026-05-18", in: publications)?.value == "0.3375")
        #expect(ProviderFixture.quote("XDR", on: "2026-05-18", in: publications)?.value == "0.328656")
        #expect(ProviderFixture.quote("XDR", on: "2026-05-19", in: publications)?.value == "0.329715")
        #expect(ProviderFixture.quote("EUR", on: "2026-05-20", in: publications)?.value == "0.3866")
        #expect(ProviderFixture.quote("USD", on: "2026-05-22", in: publications)?.value == "0.4502")
    }

    @Test("reads the statistics page for the workbook's address, asked under the configured host; without the page, its last known address")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://www.rbf.gov.fj/statistics/economic-and-financial-statistics/"))
        let session = ProviderSession(body: try ProviderFixture.bytes(page))
        let file = "https://www.rbf.gov.fj/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx"
        #expect(try provider.requests(for: .latest, session: session) == [ProviderRequest(url: file)])
        #expect(try provider.requests(for: .range(Day("2026-05-01")!, Day("2026-05-22")!), session: session) == [ProviderRequest(url: file)])
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: file)])
        let local = RBFProvider(baseURL: "http://127.0.0.1:9/rbf")
        #expect(try local.requests(for: .latest, session: session).map(\.url) == ["http://127.0.0.1:9/rbf/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx"])
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("a value that is not a number, a currency twice, an unknown label and a bad day are rejected")
    func alteredInput() throws {
        let text = try XLSXFixture.edited(
            file, member: sheet, replacing: "<c r=\"H6370\" s=\"2\"><v>0.44969999999999999</v></c>", with: "<c r=\"H6370\" t=\"inlineStr\"><is><t>0.44 97</t></is></c>")
        #expect(ProviderFixture.error(text, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-05-18")!, text: "0.44 97"))
        let twice = try XLSXFixture.edited(file, member: sheet, replacing: "<c r=\"G3\" s=\"21\" t=\"s\"><v>6</v>", with: "<c r=\"G3\" s=\"21\" t=\"s\"><v>7</v>")
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-05-18")!))
        let unknown = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "<t>NZ$</t>", with: "<t>NZD$</t>")
        #expect(ProviderFixture.error(unknown, provider)?.isLayout(of: "RBF") == true)
        let badDay = try XLSXFixture.edited(file, member: sheet, replacing: "<v>46160</v>", with: "<v>46160.25</v>")
        #expect(ProviderFixture.error(badDay, provider) == .invalidDay("Excel serial 46160.25"))
        let convention = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "Per Fiji Dollar", with: "Fiji Dollars per unit")
        #expect(ProviderFixture.error(convention, provider)?.isLayout(of: "RBF") == true)
    }

    @Test("every truncation of the workbook, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        try XLSXFixture.expectBrokenWorkbooksRejected(file, provider)
    }
}
