import RatesCore
@testable import RatesUpstream
import Testing

@Suite("CBI adapter")
struct CBIProviderTests {
    let provider = CBIProvider()
    // The workbook as Frankfurter's cassette kept it: January 2024 and January–February 2026 (see the README beside it).
    let file = "cbi-iraq/01_static_uploads_up_file-177909880482668.xlsx.xlsx"
    let page = "cbi-iraq/00_page_144.html"
    let year2026 = "xl/worksheets/sheet18.xml"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the yearly sheets: 60 days, 14 to 18 currencies, the exact midpoint of buying and selling rates in dinars per unit")
    func readsWorkbook() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 60)
        #expect(publications.first?.day == Day("2024-01-02"))
        #expect(publications.last?.day == Day("2026-02-26"))
        #expect(publications.filter { $0.day.parts.year == 2024 }.count == 22)
        #expect(publications.first?.codes == ["AED", "AUD", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "JOD", "JPY", "NOK", "SEK", "USD", "XDR"])
        #expect(publications.last?.codes == [
            "AED", "AUD", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "INR", "JOD", "JPY", "NOK", "OMR", "SAR", "SEK", "TRY", "USD", "XDR",
        ])
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits } })
        #expect(publications.allSatisfy { $0["XAU"] == nil })
        // 1300 and 1310; 1423.89 and 1434.843; 9.0709999999999997 (9.071) and 9.14.
        #expect(ProviderFixture.quote("USD", on: "2024-01-04", in: publications) == quote("USD", "1305"))
        #expect(ProviderFixture.quote("EUR", on: "2024-01-04", in: publications)?.value == "1429.3665")
        #expect(ProviderFixture.quote("JPY", on: "2024-01-04", in: publications)?.value == "9.1055")
        // The 2026 sheet: its first block is labelled 2026, not Jan. 2026; the second Sell column is not read.
        #expect(ProviderFixture.quote("EUR", on: "2026-01-04", in: publications)?.value == "1528.0905")
        #expect(ProviderFixture.quote("JPY", on: "2026-01-04", in: publications)?.value == "8.322")
        #expect(ProviderFixture.quote("GBP", on: "2026-02-26", in: publications)?.value == "1765.600")
        // 2024-01-01, a holiday, holds a lone selling figure: no day. INR's columns are empty until 2026-01-13.
        #expect(publications.first { $0.day == Day("2024-01-01") } == nil)
        #expect(ProviderFixture.quote("INR", on: "2026-01-12", in: publications) == nil)
        #expect(ProviderFixture.quote("INR", on: "2026-01-13", in: publications) != nil)
    }

    @Test("reads the page for the workbook whose link mentions gold, asked under the configured host; without the page, its last known address")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://cbi.iq/page/144"))
        let session = ProviderSession(body: try ProviderFixture.bytes(page))
        let file = "https://cbi.iq/static/uploads/up/file-177909880482668.xlsx"
        #expect(try provider.requests(for: .latest, session: session) == [ProviderRequest(url: file)])
        #expect(try provider.requests(for: .range(Day("2026-01-01")!, Day("2026-02-28")!), session: session) == [ProviderRequest(url: file)])
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: file)])
        let local = CBIProvider(baseURL: "http://127.0.0.1:9/cbi")
        #expect(try local.requests(for: .latest, session: session).map(\.url) == ["http://127.0.0.1:9/cbi/static/uploads/up/file-177909880482668.xlsx"])
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("a rate that is not a positive decimal, a currency twice, a header without a code and a day that does not exist are rejected")
    func alteredInput() throws {
        let zero = try XLSXFixture.edited(file, member: year2026, replacing: "<c r=\"B10\" s=\"274\"><v>1300</v></c>", with: "<c r=\"B10\" s=\"274\"><v>0</v></c>")
        #expect(ProviderFixture.error(zero, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-01-04")!, text: "0"))
        let twice = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "اليورو الأوربي EUR", with: "اليورو الأوربي USD")
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-01-04")!))
        let noCode = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "Qatari Rial  QAR", with: "Qatari Rial")
        #expect(ProviderFixture.error(noCode, provider)?.isLayout(of: "CBI") == true)
        let february = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "<t>Jan. 2024</t>", with: "<t>Feb. 2024</t>")
        #expect(ProviderFixture.error(february, provider) == .invalidDay("2024-02-30"))
        let otherYear = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "<t>Jan. 2024</t>", with: "<t>Jan. 2025</t>")
        #expect(ProviderFixture.error(otherYear, provider)?.isLayout(of: "CBI") == true)
    }

    @Test("every truncation of the workbook, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        try XLSXFixture.expectBrokenWorkbooksRejected(file, provider, stride: 499)
    }
}
