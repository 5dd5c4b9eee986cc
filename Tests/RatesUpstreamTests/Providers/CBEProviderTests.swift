import Foundation
import RatesCore
@testable import RatesUpstream
import Testing

@Suite("CBE adapter")
struct CBEProviderTests {
    let provider = CBEProvider(today: { Day("2026-04-09")! })
    let file = "cbe-egypt/01_api_statistics_GetHistoricalData_f1b1d2fd.bin"
    let page = "cbe-egypt/00_en_economic-research_statistics_cbe-exchange-rates_historical-data.html"
    let sheet = "xl/worksheets/sheet1.xml"
    let token = "YQadBhZ3z1ZtC-AzgTG-3uXa_mk_T3_V5fpvA0UjyXcw_Xq3xM4Ee0JSZyVPao9U5fy3owjj4AYOAeyCGc7TAks14zC0qkBlAcFeijaTBps1"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads 1 to 9 April 2026: 7 days of 18 currencies, each the exact midpoint of its buying and selling rates, the yen per 100")
    func readsWorkbook() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-04-01", "2026-04-02", "2026-04-05", "2026-04-06", "2026-04-07", "2026-04-08", "2026-04-09"])
        #expect(publications.allSatisfy { $0.quotes.count == 18 })
        #expect(publications[0].codes == [
            "AED", "AUD", "BHD", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "JOD", "JPY", "KWD", "NOK", "OMR", "QAR", "SAR", "SEK", "USD",
        ])
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits && $0.unit == ($0.currency.rawValue == "JPY" ? 100 : 1) } })
        // Buy 53.0734, sell 53.2067: one digit more than either, where halving needs it.
        #expect(ProviderFixture.quote("USD", on: "2026-04-09", in: publications) == quote("USD", "53.14005"))
        #expect(ProviderFixture.quote("EUR", on: "2026-04-09", in: publications)?.value == "62.1154")
        #expect(ProviderFixture.quote("JPY", on: "2026-04-09", in: publications) == quote("JPY", "33.4498", unit: 100))
        #expect(ProviderFixture.quote("KWD", on: "2026-04-01", in: publications)?.value == "174.8204")
    }

    @Test("gets the page for its hidden fields, then posts them with the days, every currency and the Excel button, and the page's cookies")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://www.cbe.org.eg/en/economic-research/statistics/cbe-exchange-rates/historical-data"))
        let session = ProviderSession(body: try ProviderFixture.bytes(page), setCookies: [".AspNetCore.Antiforgery.x=abc; path=/; HttpOnly"])
        let range = try provider.requests(for: .range(Day("2026-04-01")!, Day("2026-04-09")!), session: session)
        // The body the browser posted, byte for byte (requests.jsonl).
        let recorded = "__RequestVerificationToken=\(token)&DataSourceId=19CFFDDBFF494350A5E9C6A4397FC7DF"
            + "&FallbackUrl=%2Fen%2Feconomic-research%2Fstatistics%2Fcbe-exchange-rates%2Fhistorical-data&LanguageName=en"
            + "&FromDateRaw=01%2F04%2F2026&ToDateRaw=09%2F04%2F2026&SelectedSelectOptions=US+Dollar&SelectedSelectOptions=Euro"
            + "&SelectedSelectOptions=Pound+Sterling&SelectedSelectOptions=Canadian+Dollar&SelectedSelectOptions=Danish+Krone"
            + "&SelectedSelectOptions=Norwegian+Krone&SelectedSelectOptions=Swedish+Krona&SelectedSelectOptions=Swiss+Franc"
            + "&SelectedSelectOptions=Japanese+Yen+100&SelectedSelectOptions=Saudi+Riyal&SelectedSelectOptions=Kuwaiti+Dinar"
            + "&SelectedSelectOptions=UAE+Dirham&SelectedSelectOptions=Australian+Dollar&SelectedSelectOptions=Bahraini+Dinar"
            + "&SelectedSelectOptions=Omani+Riyal&SelectedSelectOptions=Qatari+Riyal&SelectedSelectOptions=Jordanian+Dinar"
            + "&SelectedSelectOptions=Chinese+Yuan&SubmitAction=2"
        #expect(range.map(\.body) == [recorded])
        #expect(range[0].url == "https://www.cbe.org.eg/api/statistics/GetHistoricalData" && range[0].method == .post)
        #expect(range[0].headers["Cookie"] == ".AspNetCore.Antiforgery.x=abc")
        #expect(range[0].headers["Content-Type"] == "application/x-www-form-urlencoded")
        // The newest publication: the week up to today; a long range: one post per year.
        #expect(try provider.requests(for: .latest, session: session)[0].body?.contains("FromDateRaw=02%2F04%2F2026&ToDateRaw=09%2F04%2F2026") == true)
        #expect(try provider.requests(for: .range(Day("2024-03-01")!, Day("2026-04-09")!), session: session).count == 3)
        // Under another host; without the page (an import), the same post without a token.
        #expect(try CBEProvider(baseURL: "http://127.0.0.1:9/cbe").requests(for: .latest, session: session)[0].url == "http://127.0.0.1:9/cbe/api/statistics/GetHistoricalData")
        #expect(provider.requests(for: .latest)[0].body?.hasPrefix("__RequestVerificationToken=&DataSourceId=19CFFDDBFF494350A5E9C6A4397FC7DF&") == true)
    }

    @Test("a page without the form's hidden fields fails the fetch")
    func noForm() throws {
        let noToken = try ProviderFixture.edited(page, replacing: "name=\"__RequestVerificationToken\"", with: "name=\"other\"")
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: noToken)) }
        let noSource = try ProviderFixture.edited(page, replacing: "name=\"DataSourceId\"", with: "name=\"other\"")
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: noSource)) }
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("a figure that is not a number, an unknown currency, a currency twice, a bad day or another header is rejected")
    func alteredInput() throws {
        let day = Day("2026-04-09")!
        let text = try XLSXFixture.edited(file, member: sheet, replacing: "<c r=\"C3\" s=\"6\"><v>53.0734</v></c>", with: "<c r=\"C3\" t=\"inlineStr\"><is><t>53,07x</t></is></c>")
        #expect(ProviderFixture.error(text, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "53,07x / 53.2067"))
        let unknown = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "<t>Euro</t>", with: "<t>Euro Zone</t>")
        #expect(ProviderFixture.error(unknown, provider) == .invalidCurrencyCode("Euro Zone", day: day))
        let twice = try XLSXFixture.edited(file, member: sheet, replacing: "<c r=\"B10\" s=\"5\" t=\"s\"><v>6</v></c>", with: "<c r=\"B10\" s=\"5\" t=\"s\"><v>5</v></c>")
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let badDay = try XLSXFixture.edited(file, member: sheet, replacing: "<c r=\"A3\" s=\"4\"><v>46121</v></c>", with: "<c r=\"A3\" s=\"4\"><v>0</v></c>")
        #expect(ProviderFixture.error(badDay, provider) == .invalidDay("Excel serial 0"))
        let header = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "<t>Sell</t>", with: "<t>Mid</t>")
        #expect(ProviderFixture.error(header, provider)?.isLayout(of: "CBE") == true)
    }

    @Test("the title and the header without a row, a span without rates, is no publication")
    func noRows() throws {
        // The recorded workbook with its rows of days taken out (rows 3 to 128), as the form answers a Friday–Saturday.
        #expect(try parse(XLSXFixture.withoutRows(file, sheet: sheet, from: 3)).isEmpty)
    }

    @Test("every truncation of the workbook, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        try XLSXFixture.expectBrokenWorkbooksRejected(file, provider)
    }

    @Test("the recording imports as an answer of the adapter's")
    func imports() throws {
        let publications = try ProviderFile.read([try ProviderFixture.bytes(file)], provider: provider, today: Day("2026-04-09")!)
        #expect(publications.count == 7)
    }
}
