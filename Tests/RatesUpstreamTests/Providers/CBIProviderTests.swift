import Foundation
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
        let noCode = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "الروبية الهندية  INR", with: "الروبية الهندية")
        #expect(ProviderFixture.error(noCode, provider)?.isLayout(of: "CBI") == true)
        let february = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "<t>Jan. 2024</t>", with: "<t>Feb. 2024</t>")
        #expect(ProviderFixture.error(february, provider) == .invalidDay("2024-02-30"))
        let otherYear = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "<t>Jan. 2024</t>", with: "<t>Jan. 2025</t>")
        #expect(ProviderFixture.error(otherYear, provider)?.isLayout(of: "CBI") == true)
    }

    @Test("reads a month's label however the sheets write it: full names, any case, a star, a comma, the misspelt Spet; AVERAGE in capitals")
    func monthLabels() throws {
        // The workbook's shared strings keep the labels of every year's sheet (`July  2009`, `jun. 2013`, `Spet.2016`, `*Mar. 2020`,
        // `Sept.2025`): the 2024 sheet's `Jan. 2024` written each such way.
        for (label, month) in [("January 2024", 1), ("JAN. 2024", 1), ("*Jan. 2024", 1), ("jan, 2024", 1), ("July  2024", 7), ("Spet.2024", 9)] {
            let edited = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "<t>Jan. 2024</t>", with: "<t>\(label)</t>")
            if month == 9 {
                // September has no 31st: the label is read as September, whose 31st the January rows then give.
                #expect(ProviderFixture.error(edited, provider) == .invalidDay("2024-09-31"), "\(label)")
                continue
            }
            let publications = try parse(edited)
            #expect(publications.count == 60, "\(label)")
            let day = String(format: "2024-%02d-04", month)
            #expect(ProviderFixture.quote("USD", on: day, in: publications) == quote("USD", "1305"), "\(label)")
            #expect(ProviderFixture.quote("EUR", on: day, in: publications)?.value == "1429.3665", "\(label)")
        }
        #expect(CBIProvider.month("Sept.2025", year: 2025) == 9 && CBIProvider.month("May 2009", year: 2009) == 5)
        #expect(CBIProvider.month("Jan. 2025", year: 2024) == nil && CBIProvider.month("Note :", year: 2024) == nil)
        let average = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "<t>Average</t>", with: "<t>AVERAGE</t>")
        #expect(try parse(average) == (try parse(ProviderFixture.bytes(file))))
    }

    @Test("finds a currency's label anywhere over its columns up to the next Buy column, and skips unlabelled columns without figures")
    func currencyLabels() throws {
        let recorded = try parse(ProviderFixture.bytes(file))
        // INR's label sits over its Sell column (AV) in 2026; moved one column on, over its second Sell column (AW).
        let drifted = try XLSXFixture.edited(
            file, member: year2026, replacing: "<c r=\"AV3\" s=\"441\" t=\"s\"><v>2562</v></c><c r=\"AW3\" s=\"441\"/>",
            with: "<c r=\"AV3\" s=\"441\"/><c r=\"AW3\" s=\"441\" t=\"s\"><v>2562</v></c>")
        #expect(try parse(drifted) == recorded)
        // QAR's label (over BB) names the code; without it, the columns under it hold no figure in 2026 and are skipped.
        let qatar = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "Qatari Rial  QAR", with: "Qatari Rial")
        #expect(try parse(qatar) == recorded)
    }

    @Test("skips a note under a table, a row of text without figures; a row of unknown text with figures is rejected")
    func notes() throws {
        // The shared strings keep the notes the yearly sheets carry under their tables (`Note :`, `*Comment : …`); one put in
        // column A of the 2026 sheet's row 68, an empty row (a 30 February) under February's days.
        let note = try XLSXFixture.edited(
            file, member: year2026, replacing: "<c r=\"A68\" s=\"30\" t=\"s\"><v>54</v></c>",
            with: "<c r=\"A68\" t=\"inlineStr\"><is><t>Note :</t></is></c>")
        #expect(try parse(note) == (try parse(ProviderFixture.bytes(file))))
        let labelled = try XLSXFixture.edited(
            file, member: year2026, replacing: "<c r=\"A10\" s=\"43\"><v>4</v></c>",
            with: "<c r=\"A10\" t=\"inlineStr\"><is><t>Note :</t></is></c>")
        #expect(ProviderFixture.error(labelled, provider)?.isLayout(of: "CBI") == true)
    }

    @Test("every truncation of the workbook, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        try XLSXFixture.expectBrokenWorkbooksRejected(file, provider, stride: 499)
    }
}
