import RatesCore
@testable import RatesUpstream
import Testing

@Suite("BOA adapter")
struct BOAProviderTests {
    let provider = BOAProvider()
    // The workbook as Frankfurter's cassette kept it: April 2026 of each sheet (see the README beside it).
    let file = "boa-algeria/01_stoodroa_2026_05_Cotation-DZD-2000-2026-journalier.xlsx.xlsx"
    let page = "boa-algeria/00_donnees-historiques.html"
    let usd = "xl/worksheets/sheet17.xml"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads one sheet per currency: 22 days of April 2026, 16 currencies in dinars per unit, JPY per 100, the empty MRO sheet nothing")
    func readsWorkbook() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 22)
        #expect(publications.first?.day == Day("2026-04-01"))
        #expect(publications.last?.day == Day("2026-04-30"))
        #expect(publications.allSatisfy { $0.quotes.count == 16 })
        #expect(publications[0].codes == ["AED", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "JPY", "KWD", "LYD", "MAD", "NOK", "SAR", "SEK", "TND", "USD"])
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits && $0.unit == ($0.currency.rawValue == "JPY" ? 100 : 1) } })
        // Stored as 132.72749999999999, 83.547399999999996 and 153.67189999999999.
        #expect(ProviderFixture.quote("USD", on: "2026-04-01", in: publications) == quote("USD", "132.7275"))
        #expect(ProviderFixture.quote("JPY", on: "2026-04-01", in: publications) == quote("JPY", "83.5474", unit: 100))
        #expect(ProviderFixture.quote("EUR", on: "2026-04-01", in: publications)?.value == "153.6719")
        #expect(ProviderFixture.quote("KWD", on: "2026-04-01", in: publications)?.value == "432.6895")
        #expect(ProviderFixture.quote("USD", on: "2026-04-30", in: publications)?.value == "132.5429")
        #expect(publications.allSatisfy { $0["MRO"] == nil })
    }

    @Test("reads the page for the workbook's address, asked under the configured host; without the page, its last known address")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://www.bank-of-algeria.dz/donnees-historiques/"))
        let session = ProviderSession(body: try ProviderFixture.bytes(page))
        let file = "https://www.bank-of-algeria.dz/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx"
        #expect(try provider.requests(for: .latest, session: session) == [ProviderRequest(url: file)])
        #expect(try provider.requests(for: .range(Day("2026-04-01")!, Day("2026-04-30")!), session: session) == [ProviderRequest(url: file)])
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: file)])
        let local = BOAProvider(baseURL: "http://127.0.0.1:9/boa")
        #expect(local.sessionRequest(for: .latest)?.url == "http://127.0.0.1:9/boa/donnees-historiques/")
        #expect(try local.requests(for: .latest, session: session).map(\.url) == ["http://127.0.0.1:9/boa/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx"])
        let noLink = ProviderSession(body: Array("<html><body><a href=\"/autre.pdf\">PDF</a></body></html>".utf8))
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: noLink) }
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("a value that is not a number, a currency twice, a title that does not match its column and a bad day are rejected")
    func alteredInput() throws {
        let text = try XLSXFixture.edited(
            file, member: usd, replacing: "<c r=\"B6826\" s=\"3\"><v>132.72749999999999</v></c>", with: "<c r=\"B6826\" t=\"inlineStr\"><is><t>132,7x</t></is></c>")
        #expect(ProviderFixture.error(text, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-04-01")!, text: "132,7x"))
        let aed = "xl/worksheets/sheet1.xml"
        let twice = try XLSXFixture.edited(file, [
            (aed, "<c r=\"A2\" s=\"11\" t=\"s\"><v>0</v>", "<c r=\"A2\" s=\"11\" t=\"s\"><v>16</v>"),
            (aed, "<c r=\"B4\" s=\"5\" t=\"s\"><v>0</v>", "<c r=\"B4\" s=\"5\" t=\"s\"><v>16</v>"),
        ])
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-04-01")!))
        let mismatch = try XLSXFixture.edited(file, member: aed, replacing: "<c r=\"A2\" s=\"11\" t=\"s\"><v>0</v>", with: "<c r=\"A2\" s=\"11\" t=\"s\"><v>1</v>")
        #expect(ProviderFixture.error(mismatch, provider)?.isLayout(of: "BOA") == true)
        let badDay = try XLSXFixture.edited(file, member: usd, replacing: "<v>46113</v>", with: "<v>0</v>")
        #expect(ProviderFixture.error(badDay, provider) == .invalidDay("Excel serial 0"))
    }

    @Test("every truncation of the workbook, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        try XLSXFixture.expectBrokenWorkbooksRejected(file, provider)
    }
}
