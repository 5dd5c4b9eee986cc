import RatesCore
@testable import RatesUpstream
import Testing

@Suite("CBS adapter")
struct CBSProviderTests {
    let provider = CBSProvider()
    let file = "cbs-samoa/01_media_Historical-Daily-Rates-June032026.xlsx.xlsx"
    let page = "cbs-samoa/00_daily-exchange-rates.html"
    let year2026 = "xl/worksheets/sheet19.xml"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads 19 yearly sheets: 4,595 days from 2008-01-03 to 2026-06-03, 7, then 8 with CNY, then 9 with the offshore yuan (CNH) per 1 WST; averages left out")
    func readsWorkbook() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 4595)
        #expect(publications.first?.day == Day("2008-01-03"))
        #expect(publications.last?.day == Day("2026-06-03"))
        #expect(publications.first?.codes == ["AUD", "EUR", "FJD", "GBP", "JPY", "NZD", "USD"])
        #expect(publications.last?.codes == ["AUD", "CNH", "CNY", "EUR", "FJD", "GBP", "JPY", "NZD", "USD"])
        #expect(publications.allSatisfy { (7...9).contains($0.quotes.count) })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .unitsPerPivot } })
        #expect(publications.contains { $0["CNH"] != nil } && publications.allSatisfy { $0["CNH"] == nil || $0["CNY"] != nil })
        // Stored as 0.39257999999999998 and 42.952269999999999.
        #expect(ProviderFixture.quote("USD", on: "2008-01-03", in: publications) == quote("USD", "0.39258", .unitsPerPivot))
        #expect(ProviderFixture.quote("JPY", on: "2008-01-03", in: publications)?.value == "42.95227")
        #expect(ProviderFixture.quote("USD", on: "2026-06-03", in: publications)?.value == "0.36983")
        #expect(ProviderFixture.quote("JPY", on: "2026-06-03", in: publications)?.value == "59.1373")
        #expect(ProviderFixture.quote("CNY", on: "2026-06-03", in: publications)?.value == "2.50144")
        #expect(ProviderFixture.quote("USD", on: "2026-01-05", in: publications)?.value == "0.36023")
        // 2009–2012 write the pairs US/TALA, NZ/TALA, …: the same figures, units per tala.
        #expect(ProviderFixture.quote("USD", on: "2009-01-05", in: publications)?.value == "0.34554")
        // CNY is `n/a` on 2016-07-25: that day has 7 currencies.
        #expect(publications.first { $0.day == Day("2016-07-25") }?.codes == ["AUD", "EUR", "FJD", "GBP", "JPY", "NZD", "USD"])
        // 2026-01-12 is January's row; February's row typed with the same date (for 2026-02-12) is left out.
        #expect(ProviderFixture.quote("USD", on: "2026-01-12", in: publications)?.value == "0.35933")
        #expect(publications.first { $0.day == Day("2026-02-12") } == nil)
    }

    @Test("reads the daily rates page for the workbook's address, asked under the configured host; without the page, its last known address")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://cbs.gov.ws/daily-exchange-rates"))
        let session = ProviderSession(body: try ProviderFixture.bytes(page))
        let file = "https://cbs.gov.ws/media/Historical-Daily-Rates-June032026.xlsx"
        #expect(try provider.requests(for: .latest, session: session) == [ProviderRequest(url: file)])
        #expect(try provider.requests(for: .range(Day("2026-05-01")!, Day("2026-06-03")!), session: session) == [ProviderRequest(url: file)])
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: file)])
        let local = CBSProvider(baseURL: "http://127.0.0.1:9/cbs")
        #expect(try local.requests(for: .latest, session: session).map(\.url) == ["http://127.0.0.1:9/cbs/media/Historical-Daily-Rates-June032026.xlsx"])
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("an n/a cell in any case or spacing is no figure that day")
    func notAvailable() throws {
        // The 2016 sheet writes `n/a`; a later issue may type it otherwise: 2026-01-05's CNY as ` N/A `.
        let body = try XLSXFixture.edited(
            file, member: year2026, replacing: "<c r=\"J3\" s=\"64\"><v>2.5172599999999998</v></c>", with: "<c r=\"J3\" t=\"inlineStr\"><is><t> N/A </t></is></c>")
        let publications = try parse(body)
        #expect(publications.count == 4595)
        #expect(publications.first { $0.day == Day("2026-01-05") }?.codes == ["AUD", "CNH", "EUR", "FJD", "GBP", "JPY", "NZD", "USD"])
        #expect(ProviderFixture.quote("USD", on: "2026-01-05", in: publications)?.value == "0.36023")
        #expect(ProviderFixture.quote("CNY", on: "2026-01-06", in: publications) != nil)
    }

    @Test("a header naming an ISO 4217 code beside TALA, in any case and spacing, is that currency")
    func isoHeader() throws {
        // 2026's TALA/NZD header retyped as a currency the adapter has no name of, `Tala / INR`.
        let body = try XLSXFixture.edited(
            file, member: year2026, replacing: "<c r=\"D2\" s=\"61\" t=\"s\"><v>3</v></c>", with: "<c r=\"D2\" t=\"inlineStr\"><is><t>Tala / INR</t></is></c>")
        let publications = try parse(body)
        #expect(ProviderFixture.quote("INR", on: "2026-01-05", in: publications) == quote("INR", "0.62426", .unitsPerPivot))
        #expect(ProviderFixture.quote("NZD", on: "2026-01-05", in: publications) == nil)
        #expect(publications.contains { $0.day.parts.year == 2025 && $0["NZD"] != nil })
    }

    @Test("a date typed as text (5/01/2026, 6-Jan-2026) dates its row; a word label is no day's row; a label with digits that is no date is rejected")
    func textLabels() throws {
        let body = try XLSXFixture.edited(file, [
            (year2026, "<c r=\"B3\" s=\"63\"><v>46027</v></c>", "<c r=\"B3\" t=\"inlineStr\"><is><t>5/01/2026</t></is></c>"),
            (year2026, "<c r=\"B4\" s=\"63\"><v>46028</v></c>", "<c r=\"B4\" t=\"inlineStr\"><is><t>6-Jan-2026</t></is></c>"),
            // January's block title retyped as a heading.
            (year2026, "<c r=\"B1\" s=\"87\" t=\"s\"><v>0</v></c>", "<c r=\"B1\" t=\"inlineStr\"><is><t>Rates for January</t></is></c>"),
        ])
        let publications = try parse(body)
        #expect(publications.count == 4595)
        #expect(ProviderFixture.quote("USD", on: "2026-01-05", in: publications) == quote("USD", "0.36023", .unitsPerPivot))
        #expect(ProviderFixture.quote("USD", on: "2026-01-06", in: publications)?.value == "0.36083")
        let odd = try XLSXFixture.edited(
            file, member: year2026, replacing: "<c r=\"B1\" s=\"87\" t=\"s\"><v>0</v></c>", with: "<c r=\"B1\" t=\"inlineStr\"><is><t>Q1 2026</t></is></c>")
        #expect(ProviderFixture.error(odd, provider)?.isLayout(of: "CBS") == true)
    }

    @Test("a value that is not a number, a currency twice, an unknown currency and a bad day are rejected")
    func alteredInput() throws {
        let text = try XLSXFixture.edited(file, member: year2026, replacing: "<v>0.62426000000000004</v></c>", with: "<v>0</v></c>")
        #expect(ProviderFixture.error(text, provider) == .invalidRate(currency: CurrencyCode("NZD")!, day: Day("2026-01-05")!, text: "0"))
        let inline = try XLSXFixture.edited(
            file, member: year2026, replacing: "<c r=\"J3\" s=\"64\"><v>2.5172599999999998</v></c>", with: "<c r=\"J3\" t=\"inlineStr\"><is><t>2.51x</t></is></c>")
        #expect(ProviderFixture.error(inline, provider) == .invalidRate(currency: CurrencyCode("CNY")!, day: Day("2026-01-05")!, text: "2.51x"))
        let twice = try XLSXFixture.edited(file, member: year2026, replacing: "<c r=\"D2\" s=\"61\" t=\"s\"><v>3</v>", with: "<c r=\"D2\" s=\"61\" t=\"s\"><v>2</v>")
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-01-05")!))
        let unknown = try XLSXFixture.edited(
            file, member: year2026, replacing: "<c r=\"D2\" s=\"61\" t=\"s\"><v>3</v></c>", with: "<c r=\"D2\" t=\"inlineStr\"><is><t>TALA/KIWI</t></is></c>")
        #expect(ProviderFixture.error(unknown, provider)?.isLayout(of: "CBS") == true)
        let badDay = try XLSXFixture.edited(file, member: year2026, replacing: "<c r=\"B3\" s=\"63\"><v>46027</v>", with: "<c r=\"B3\" s=\"63\"><v>46027.5</v>")
        #expect(ProviderFixture.error(badDay, provider) == .invalidDay("Excel serial 46027.5"))
    }

    @Test("truncations of the workbook, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        try XLSXFixture.expectBrokenWorkbooksRejected(file, provider, stride: 4099)
    }
}
