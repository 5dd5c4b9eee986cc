import Foundation
import RatesCore
import RatesTestFixtures
@testable import RatesUpstream
import Testing

@Suite("PMA adapter")
struct PMAProviderTests {
    let provider = PMAProvider(today: { Day("2026-09-09")! })
    let file = "pma-palestine/01_export.xlsx"
    let form = "pma-palestine/00_export.html"
    let sheet = "xl/worksheets/sheet1.xml"
    let strings = "xl/sharedStrings.xml"
    /// The body the browser posted, byte for byte (requests.jsonl).
    let recordedBody = "alUxYVk1TC80KzVQcXZtdEUyREtudz09=NEx1U21pRWRmZG80SmR4blZodlVhdz09&from=2026-09-01&to=2026-09-08"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider)
    }

    @Test("reads 1 to 8 September 2026: 6 days of 20 currencies against the dollar, each the published middle rate, either way round")
    func readsExport() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-09-01", "2026-09-02", "2026-09-03", "2026-09-06", "2026-09-07", "2026-09-08"])
        #expect(publications.map(\.quotes.count) == [20, 20, 20, 20, 20, 20])
        #expect(publications[0].codes == [
            "AED", "AUD", "BHD", "CAD", "CHF", "CNY", "DKK", "EGP", "EUR", "GBP", "ILS", "JOD", "JPY", "KWD", "LBP", "NOK", "QAR", "SAR", "SEK", "TRY",
        ])
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 } })
        // USD/X: X per 1 USD. The shekel from USD/ILS, not from the crosses against it.
        #expect(ProviderFixture.quote("ILS", on: "2026-09-01", in: publications) == quote("ILS", "2.9924", .unitsPerPivot))
        #expect(ProviderFixture.quote("JPY", on: "2026-09-01", in: publications) == quote("JPY", "159.89", .unitsPerPivot))
        // The middle rate as published, without the trailing zero its buying and selling rates carry (0.7080, 0.7100).
        #expect(ProviderFixture.quote("JOD", on: "2026-09-01", in: publications) == quote("JOD", "0.709", .unitsPerPivot))
        #expect(ProviderFixture.quote("LBP", on: "2026-09-01", in: publications) == quote("LBP", "89623.25", .unitsPerPivot))
        #expect(ProviderFixture.quote("LBP", on: "2026-09-03", in: publications) == quote("LBP", "89650", .unitsPerPivot))
        // X/USD: USD per 1 X.
        #expect(ProviderFixture.quote("EUR", on: "2026-09-08", in: publications) == quote("EUR", "1.1625", .pivotPerUnits))
        #expect(ProviderFixture.quote("GBP", on: "2026-09-01", in: publications) == quote("GBP", "1.3547", .pivotPerUnits))
        #expect(ProviderFixture.quote("AUD", on: "2026-09-01", in: publications) == quote("AUD", "0.7169", .pivotPerUnits))
        // Skipped: the metals, whose unit is not stated.
        #expect(publications.allSatisfy { $0["XAU"] == nil && $0["XAG"] == nil })
    }

    @Test("a middle rate with thousands separators loses them; a row without a middle rate gives the midpoint of buying and selling")
    func figures() throws {
        let grouped = try XLSXFixture.edited(file, member: strings, replacing: "<t>89623.25</t>", with: "<t>89,623.25</t>")
        #expect(ProviderFixture.quote("LBP", on: "2026-09-01", in: try parse(grouped))?.value == "89623.25")
        // USD/JOD on 1 September without its middle rate: buying 0.7080, selling 0.7100.
        let noMiddle = try XLSXFixture.edited(file, member: sheet, replacing: "<c r=\"E3\" t=\"s\"><v>13</v></c>", with: "")
        #expect(ProviderFixture.quote("JOD", on: "2026-09-01", in: try parse(noMiddle)) == quote("JOD", "0.7090", .unitsPerPivot))
        // USD/LBP on 1 September without its middle rate: 89,446.50 and 89,800.00.
        let lebanon = try XLSXFixture.edited(file, member: sheet, replacing: "<c r=\"E17\" t=\"s\"><v>60</v></c>", with: "")
        #expect(ProviderFixture.quote("LBP", on: "2026-09-01", in: try parse(lebanon))?.value == "89623.25")
    }

    @Test("gets the form for its token, then posts it back with the days and the form's cookies, one post per year")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://wcur.pma.ps/ar/webtools/currency/export"))
        let session = ProviderSession(body: try ProviderFixture.bytes(form), setCookies: ["PHPSESSID=abc; path=/; HttpOnly"])
        let range = try provider.requests(for: .range(Day("2026-09-01")!, Day("2026-09-08")!), session: session)
        #expect(range.count == 1)
        #expect(range[0].url == "https://wcur.pma.ps/ar/webtools/currency/export" && range[0].method == .post)
        #expect(range[0].body == recordedBody)
        #expect(range[0].headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(range[0].headers["Cookie"] == "PHPSESSID=abc")
        // The newest publication: the week up to today.
        #expect(try provider.requests(for: .latest, session: session).map(\.body) == [
            "alUxYVk1TC80KzVQcXZtdEUyREtudz09=NEx1U21pRWRmZG80SmR4blZodlVhdz09&from=2026-09-02&to=2026-09-09",
        ])
        #expect(try provider.requests(for: .range(Day("2024-01-01")!, Day("2026-09-08")!), session: session).count == 3)
        #expect(try provider.requests(for: .range(Day("2026-09-08")!, Day("2026-09-01")!), session: session).isEmpty)
        // Without the form (an import), the days alone; under another host, its URL.
        #expect(provider.requests(for: .latest).map(\.body) == ["from=2026-09-02&to=2026-09-09"])
        #expect(PMAProvider(baseURL: "http://127.0.0.1:9/pma").requests(for: .latest)[0].url == "http://127.0.0.1:9/pma/ar/webtools/currency/export")
    }

    @Test("a page without the form's token fails the fetch")
    func noToken() throws {
        let noToken = try ProviderFixture.edited(form, replacing: "type=\"hidden\"", with: "type=\"text\"")
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: noToken)) }
        let emptyValue = try ProviderFixture.edited(form, replacing: "value=\"NEx1U21pRWRmZG80SmR4blZodlVhdz09\"", with: "value=\"\"")
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: emptyValue)) }
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("a figure that is not a number, a code not ISO 4217's, a currency twice, a bad day, a pair without a slash or another header is rejected")
    func alteredInput() throws {
        let day = Day("2026-09-01")!
        let text = try XLSXFixture.edited(file, member: strings, replacing: "<t>2.9924</t>", with: "<t>2,99x</t>")
        #expect(error(text) == .invalidRate(currency: CurrencyCode("ILS")!, day: day, text: "2,99x"))
        let unknown = try XLSXFixture.edited(file, member: strings, replacing: "<t>USD/TRY</t>", with: "<t>USD/XYZ</t>")
        #expect(error(unknown) == .invalidCurrencyCode("XYZ", day: day))
        // USD/CHF's row of 1 September made a second USD/ILS.
        let twice = try XLSXFixture.edited(file, member: sheet, replacing: "<c r=\"B5\" t=\"s\"><v>17</v></c>", with: "<c r=\"B5\" t=\"s\"><v>6</v></c>")
        #expect(error(twice) == .duplicateCurrency(CurrencyCode("ILS")!, day: day))
        let badDay = try XLSXFixture.edited(file, member: strings, replacing: "<t>2026/09/01</t>", with: "<t>2026/09/31</t>")
        #expect(error(badDay) == .invalidDay("2026/09/31"))
        let noSlash = try XLSXFixture.edited(file, member: strings, replacing: "<t>USD/ILS</t>", with: "<t>USDILS</t>")
        #expect(error(noSlash) == .invalidCurrencyCode("USDILS", day: day))
        let header = try XLSXFixture.edited(file, member: strings, replacing: "<t>الوسطي</t>", with: "<t>Mid</t>")
        #expect(error(header)?.isLayout(of: "PMA") == true)
    }

    @Test("the header without a row, a span without rates, is no publication")
    func noRows() throws {
        #expect(try parse(XLSXFixture.withoutRows(file, sheet: sheet, from: 2)).isEmpty)
    }

    @Test("every truncation of the workbook, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        try XLSXFixture.expectBrokenWorkbooksRejected(file, provider)
    }

    @Test("the recorded export imports as an answer of the adapter's, dated by its rows")
    func imports() throws {
        let publications = try provider.publications(inFiles: [Fixtures.url(file)], subjects: [], today: Day("2026-11-29")!)
        #expect(publications.map(\.day.description) == ["2026-09-01", "2026-09-02", "2026-09-03", "2026-09-06", "2026-09-07", "2026-09-08"])
        #expect(publications.reduce(0) { $0 + $1.quotes.count } == 120)
    }
}
