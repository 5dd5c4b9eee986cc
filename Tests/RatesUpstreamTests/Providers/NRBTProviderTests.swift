import RatesCore
@testable import RatesUpstream
import Testing

@Suite("NRBT adapter")
struct NRBTProviderTests {
    let provider = NRBTProvider()
    // The workbook as Frankfurter's cassette kept it: a few days per sheet (see the README beside it).
    let file = "nrbt-tonga/00_data_docs_fmarkets_exrates_average_daily_exchange_rates.xlsx.xlsx"
    let sheet = "xl/worksheets/sheet1.xml"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the MID block of every sheet: 9 days of 12 currencies per 1 TOP, holidays without figures left out")
    func readsWorkbook() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == [
            "2017-01-03", "2017-01-04", "2017-01-05", "2017-01-06", "2024-12-30", "2024-12-31", "2025-01-02", "2025-01-03", "2025-01-06",
        ])
        #expect(publications.allSatisfy { $0.quotes.count == 12 })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .unitsPerPivot } })
        #expect(publications[0].codes == ["AUD", "CAD", "CHF", "EUR", "FJD", "GBP", "JPY", "NZD", "SEK", "SGD", "USD", "WST"])
        // Stored as 0.66510000000000002, 64.375100000000003 and 0.41060000000000002.
        #expect(ProviderFixture.quote("AUD", on: "2025-01-02", in: publications) == quote("AUD", "0.6651", .unitsPerPivot))
        #expect(ProviderFixture.quote("JPY", on: "2025-01-02", in: publications)?.value == "64.3751")
        #expect(ProviderFixture.quote("USD", on: "2025-01-02", in: publications)?.value == "0.4106")
        #expect(ProviderFixture.quote("AUD", on: "2025-01-03", in: publications)?.value == "0.6643")
        #expect(ProviderFixture.quote("JPY", on: "2017-01-03", in: publications)?.value == "52.2927")
        #expect(ProviderFixture.quote("USD", on: "2017-01-06", in: publications)?.value == "0.4466")
        #expect(publications.first { $0.day == Day("2025-01-01") } == nil, "New Year's Day is a holiday row")
    }

    @Test("a day noted otherwise than as a public holiday (a closure of the bank) is left out, as a zero or a note among figures")
    func notes() throws {
        // New Year's Day 2025 noted as the bank's own holiday, a note the full workbook has (shared string 55).
        let closed = try XLSXFixture.edited(file, member: sheet, replacing: "<c r=\"O7\" s=\"94\" t=\"s\"><v>31</v></c>", with: "<c r=\"O7\" s=\"94\" t=\"s\"><v>55</v></c>")
        #expect(try parse(closed) == parse(ProviderFixture.bytes(file)))
        // The Australian dollar's figure of 2025-01-02 a zero, the yen's that day a note.
        let edited = try XLSXFixture.edited(file, [
            (sheet, "<c r=\"O8\" s=\"23\"><v>0.66510000000000002</v></c>", "<c r=\"O8\" s=\"23\"><v>0</v></c>"),
            (sheet, "<c r=\"S8\" s=\"23\"><v>64.375100000000003</v></c>", "<c r=\"S8\" t=\"inlineStr\"><is><t>n/a</t></is></c>"),
        ])
        let day = try #require(try parse(edited).first { $0.day == Day("2025-01-02")! })
        #expect(day.quotes.count == 10 && day["AUD"] == nil && day["JPY"] == nil)
        #expect(day["USD"]?.value == "0.4106")
    }

    @Test("asks for the one workbook for the latest publication and for a range")
    func requests() {
        let url = "https://www.reservebank.to/data/docs/fmarkets/exrates/average_daily_exchange_rates.xlsx"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: url)])
        #expect(provider.requests(for: .range(Day("2025-01-01")!, Day("2025-01-31")!)) == [ProviderRequest(url: url)])
        #expect(provider.requests(for: .latest).allSatisfy { $0.method == .get && $0.body == nil })
        #expect(NRBTProvider(baseURL: "http://127.0.0.1:9/nrbt").requests(for: .latest)[0].url
            == "http://127.0.0.1:9/nrbt/data/docs/fmarkets/exrates/average_daily_exchange_rates.xlsx")
    }

    @Test("a value that is not a number, a currency twice, a bad code and a bad day are rejected")
    func alteredInput() throws {
        let text = try XLSXFixture.edited(
            file, member: sheet, replacing: "<c r=\"O8\" s=\"23\"><v>0.66510000000000002</v></c>", with: "<c r=\"O8\" t=\"inlineStr\"><is><t>0,66x</t></is></c>")
        #expect(ProviderFixture.error(text, provider) == .invalidRate(currency: CurrencyCode("AUD")!, day: Day("2025-01-02")!, text: "0,66x"))
        let twice = try XLSXFixture.edited(file, member: sheet, replacing: "<c r=\"P6\" s=\"22\" t=\"s\"><v>1</v>", with: "<c r=\"P6\" s=\"22\" t=\"s\"><v>0</v>")
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("AUD")!, day: Day("2025-01-02")!))
        let badCode = try XLSXFixture.edited(
            file, member: sheet, replacing: "<c r=\"O6\" s=\"22\" t=\"s\"><v>0</v></c>", with: "<c r=\"O6\" t=\"inlineStr\"><is><t>A$</t></is></c>")
        #expect(ProviderFixture.error(badCode, provider)?.isLayout(of: "NRBT") == true)
        let badDay = try XLSXFixture.edited(file, member: sheet, replacing: "<v>45659</v>", with: "<v>60</v>")
        #expect(ProviderFixture.error(badDay, provider) == .invalidDay("Excel serial 60"))
        let noMid = try XLSXFixture.edited(file, member: "xl/sharedStrings.xml", replacing: "<t>MID</t>", with: "<t>AVERAGE</t>")
        #expect(ProviderFixture.error(noMid, provider)?.isLayout(of: "NRBT") == true)
    }

    @Test("every truncation of the workbook, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        try XLSXFixture.expectBrokenWorkbooksRejected(file, provider, stride: 211)
    }
}
