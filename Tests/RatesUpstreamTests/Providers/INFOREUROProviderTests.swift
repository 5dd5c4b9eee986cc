import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("InforEuro adapter")
struct INFOREUROProviderTests {
    let provider = INFOREUROProvider(today: { Day("2026-09-15")! })
    let folder = "inforeuro-eu/"
    let september = "inforeuro-eu/03_monthly-rates_lang=en_month=9_year=2026.json"

    /// `file` read as the answer of the request for `month` (`YYYY-MM-DD`, its first day).
    func parse(_ file: String, month: String) throws -> [ProviderPublication] {
        let request = INFOREUROProvider(today: { Day(month)! }).requests(for: .latest)[0]
        return try provider.parse(ProviderFixture.bytes(file), of: request)
    }

    @Test("reads September 2026: 151 currencies per euro, dated the month's first day, the euro's own row skipped, ZIG read as ZWG")
    func september2026() throws {
        let publications = try parse(september, month: "2026-09-01")
        #expect(publications.map(\.day) == [Day("2026-09-01")!])
        let month = try #require(publications.first)
        #expect(month.quotes.count == 151)
        #expect(month.quotes.allSatisfy { $0.direction == .unitsPerPivot && $0.unit == 1 })
        #expect(month["USD"] == quote("USD", "1.1643", .unitsPerPivot))
        #expect(month["JPY"]?.value == "185.92")
        #expect(month["GBP"]?.value == "0.8572")
        #expect(month["ZWG"]?.value == "30.85244")
        #expect(month["EUR"] == nil && month["ZIG"] == nil)
        #expect(provider.validityDays == 31)
        #expect(provider.pivot == CurrencyCode("EUR")!)
    }

    @Test("reads January 1999 with the legacy currencies at their conversion rates and FRC as the Congolese franc, and AOK of 2000 as AOA")
    func labelsOfTheCommission() throws {
        let january1999 = try #require(try parse(folder + "02_monthly-rates_lang=en_month=1_year=1999.json", month: "1999-01-01").first)
        #expect(january1999.day == Day("1999-01-01")!)
        #expect(january1999["DEM"]?.value == "1.95583")
        #expect(january1999["FRF"]?.value == "6.55957")
        #expect(january1999["CDF"]?.value == "2.94033" && january1999["FRC"] == nil)
        #expect(january1999["AOR"]?.value == "725719")
        let january2000 = try #require(try parse(folder + "09_monthly-rates_lang=en_month=1_year=2000.json", month: "2000-01-01").first)
        #expect(january2000["AOA"]?.value == "5.54714" && january2000["AOK"] == nil)
    }

    @Test("rejects a month before the euro (per ECU), a code ISO 4217 does not list, and a code repeated with another figure; a null is no rate")
    func rejections() throws {
        #expect(throws: UpstreamDataError.self) { try parse(folder + "01_monthly-rates_lang=en_month=12_year=1998.json", month: "1998-12-01") }
        #expect(throws: UpstreamDataError.self) {
            try provider.parse(
                ProviderFixture.edited(september, replacing: #""isoA3Code":"JPY""#, with: #""isoA3Code":"JPX""#),
                of: provider.requests(for: .latest)[0])
        }
        let repeated = try ProviderFixture.edited(
            september, replacing: #""isoA3Code":"JPY","isoA2Code":"JP","value":185.92"#,
            with: #""isoA3Code":"USD","isoA2Code":"JP","value":1.2"#)
        #expect(throws: UpstreamDataError.duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-09-01")!)) {
            try provider.parse(repeated, of: provider.requests(for: .latest)[0])
        }
        let same = try ProviderFixture.edited(
            september, replacing: #""isoA3Code":"JPY","isoA2Code":"JP","value":185.92"#,
            with: #""isoA3Code":"USD","isoA2Code":"JP","value":1.1643"#)
        #expect(try provider.parse(same, of: provider.requests(for: .latest)[0])[0].quotes.count == 150)
        let none = try ProviderFixture.edited(
            september, replacing: #""isoA3Code":"JPY","isoA2Code":"JP","value":185.92"#, with: #""isoA3Code":"JPY","isoA2Code":"JP","value":null"#)
        #expect(try provider.parse(none, of: provider.requests(for: .latest)[0])[0]["JPY"] == nil)
    }

    @Test("asks for one month per request, each naming its month as its subject; on a month's last day for the next month too")
    func requests() {
        let api = "https://ec.europa.eu/budg/inforeuro/api/public/monthly-rates?lang=en"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: api + "&month=9&year=2026", subject: "2026-09")])
        let lastDay = INFOREUROProvider(today: { Day("2026-12-31")! })
        #expect(lastDay.requests(for: .latest).map(\.url) == [api + "&month=12&year=2026", api + "&month=1&year=2027"])
        let range = provider.requests(for: .range(Day("2026-07-20")!, Day("2026-09-02")!))
        #expect(range.map(\.subject) == ["2026-07", "2026-08", "2026-09"])
        #expect(provider.catchUp(after: nil, backfillDays: 40, today: Day("2026-09-15")!) == .range(Day("2026-08-01")!, Day("2026-09-15")!))
    }

    @Test("imports a recorded file as the month its name gives, or the subject given; a file that says no month is refused")
    func imports() throws {
        let files = ["04_monthly-rates_lang=en_month=8_year=2026.json", "03_monthly-rates_lang=en_month=9_year=2026.json"]
            .map { Fixtures.url(folder + $0) }
        let publications = try provider.publications(inFiles: files, subjects: [], today: Day("2026-11-29")!)
        #expect(publications.map(\.day.description) == ["2026-08-01", "2026-09-01"])
        #expect(publications.map(\.quotes.count) == [151, 151])
        let renamed = FileManager.default.temporaryDirectory.appendingPathComponent("inforeuro-\(UUID()).json")
        try FileManager.default.copyItem(at: files[1], to: renamed)
        defer { try? FileManager.default.removeItem(at: renamed) }
        #expect(throws: ProviderFileError.self) { try provider.publications(inFiles: [renamed], subjects: [], today: Day("2026-11-29")!) }
        let given = try provider.publications(inFiles: [renamed], subjects: ["2026-09"], today: Day("2026-11-29")!)
        #expect(given.map(\.day.description) == ["2026-09-01"] && given[0]["USD"]?.value == "1.1643")
    }
}
