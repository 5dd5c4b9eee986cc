import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("MAS adapter")
struct MASProviderTests {
    let provider = MASProvider(today: { Day("2026-04-05")! })
    let file = "mas-singapore/01_statistics_msb_ExchangeRates.aspx_aaec8c3c.csv"
    let pageFile = "mas-singapore/00_statistics_msb_ExchangeRates.aspx.html"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider)
    }

    @Test("reads March 2026: 22 days of 21 currencies, SGD per 1 or 100 units as each column says")
    func march() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 22)
        #expect(publications.first?.day == Day("2026-03-02"))
        #expect(publications.last?.day == Day("2026-03-31"))
        #expect(publications.allSatisfy { $0.quotes.count == 21 && $0.quotes.allSatisfy { $0.direction == .pivotPerUnits } })
        #expect(ProviderFixture.quote("EUR", on: "2026-03-02", in: publications) == quote("EUR", "1.4940"))
        #expect(ProviderFixture.quote("USD", on: "2026-03-31", in: publications) == quote("USD", "1.2913"))
        #expect(ProviderFixture.quote("AUD", on: "2026-03-02", in: publications) == quote("AUD", "90.10", unit: 100))
        #expect(ProviderFixture.quote("IDR", on: "2026-03-02", in: publications) == quote("IDR", "0.007529", unit: 100))
        #expect(ProviderFixture.quote("JPY", on: "2026-03-03", in: publications) == quote("JPY", "0.8091", unit: 100))
        #expect(ProviderFixture.quote("VND", on: "2026-03-31", in: publications) == quote("VND", "0.004902", unit: 100))
        #expect(publications[0].codes.contains("TWD") && publications[0].codes.contains("SAR"))
    }

    @Test("gets the page for its form state, then posts the download of the months")
    func requests() throws {
        let url = "https://eservices.mas.gov.sg/statistics/msb/ExchangeRates.aspx"
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: url))
        let session = ProviderSession(body: try ProviderFixture.bytes(pageFile))
        let range = try provider.requests(for: .range(Day("2026-03-02")!, Day("2026-03-31")!), session: session)
        #expect(range.count == 1)
        #expect(range[0].url == url && range[0].method == .post && range[0].headers["Content-Type"] == "application/x-www-form-urlencoded")
        let body = try #require(range[0].body)
        #expect(body.hasPrefix("__VIEWSTATE=F3HhhhI8r6bEr9rLvJ49k7quNDdtPhb%2F7m2K%2BZsHxGrZjbALNYt6iOF%2BtAON"))
        #expect(body.contains("&__VIEWSTATEGENERATOR=C335971F&__EVENTVALIDATION=g56cj7akByMXY%2B3wplV%2FENS6H0lz4MHUmJm5YPDJWwQHiOCqmFniPq%2F1lJw1"))
        #expect(
            body.contains(
                "&ctl00%24ContentPlaceHolder1%24StartYearDropDownList=2026&ctl00%24ContentPlaceHolder1%24EndYearDropDownList=2026"
                    + "&ctl00%24ContentPlaceHolder1%24StartMonthDropDownList=3&ctl00%24ContentPlaceHolder1%24EndMonthDropDownList=3"
                    + "&ctl00%24ContentPlaceHolder1%24FrequencyDropDownList=D&ctl00%24ContentPlaceHolder1%24DownloadButton=Download"
                    + "&ctl00%24ContentPlaceHolder1%24EndOfPeriodPerUnitCheckBoxList%240=on"))
        #expect(body.hasSuffix("&ctl00%24ContentPlaceHolder1%24EndOfPeriodPer100UnitsCheckBoxList%2417=on"))
        #expect(body.components(separatedBy: "=on").count - 1 == 21)
        // The newest publication: the previous and the current month.
        let latest = try provider.requests(for: .latest, session: session)
        #expect(latest[0].body?.contains("StartYearDropDownList=2026&ctl00%24ContentPlaceHolder1%24EndYearDropDownList=2026&ctl00%24ContentPlaceHolder1%24StartMonthDropDownList=3&ctl00%24ContentPlaceHolder1%24EndMonthDropDownList=4&") == true)
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("rejects a figure that is not a decimal, a column it does not know, a currency twice, a bad day")
    func badRows() throws {
        let day = Day("2026-03-03")!
        let garbage = try ProviderFixture.edited(file, replacing: ",,03,1.4877,", with: ",,03,1.48x7,")
        #expect(error(garbage) == .invalidRate(currency: CurrencyCode("EUR")!, day: day, text: "1.48x7"))
        let unknown = try ProviderFixture.edited(file, replacing: "S$ Per Unit of Euro", with: "S$ Per Unit of Ecu")
        #expect(error(unknown)?.isLayout(of: "MAS") == true)
        let twice = try ProviderFixture.edited(file, replacing: "S$ Per Unit of Pound Sterling", with: "S$ Per Unit of Euro")
        #expect(error(twice) == .duplicateCurrency(CurrencyCode("EUR")!, day: Day("2026-03-02")!))
        let badDay = try ProviderFixture.edited(file, replacing: ",,03,1.4877,", with: ",,32,1.4877,")
        #expect(error(badDay) == .invalidDay("32-Mar-2026"))
        let weekly = try ProviderFixture.edited(file, replacing: "Exchange Rates (Daily)", with: "Exchange Rates (Weekly)")
        #expect(error(weekly)?.isLayout(of: "MAS") == true)
    }

    @Test("reads months back to January 1988, the series' first; an earlier day is refused")
    func history() throws {
        // A download of an older month has the same layout: the recording with its year and month made March 1998.
        let old = try ProviderFixture.edited(file, replacing: "2026,Mar,02,", with: "1998,Mar,02,")
        let publications = try parse(old)
        #expect(publications.count == 22)
        #expect(publications.first?.day == Day("1998-03-02"))
        #expect(ProviderFixture.quote("USD", on: "1998-03-31", in: publications) == quote("USD", "1.2913"))
        let before = try ProviderFixture.edited(file, replacing: "2026,Mar,02,", with: "1987,Dec,02,")
        #expect(error(before) == .dayOutOfRange(Day("1987-12-02")!))
        #expect(provider.historyStart == Day("1988-01-01")!)
    }

    @Test("any line after the rows is a footnote; the daily one must be among them")
    func footnotes() throws {
        // A note on the source after the footnotes, as a download of another period may carry one.
        let noted = try ProviderFixture.edited(
            file, replacing: #""* Daily figures are values as of noon.""#,
            with: #""* Daily figures are values as of noon."\#nSource: Monetary Authority of Singapore, Financial Database"#)
        #expect(try parse(noted) == (try parse(ProviderFixture.bytes(file))))
        let noDaily = try ProviderFixture.edited(file, replacing: #""* Daily figures are values as of noon.""#, with: "Source: Monetary Authority of Singapore")
        #expect(error(noDaily)?.isLayout(of: "MAS") == true)
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notTheFile() throws {
        let bytes = try ProviderFixture.bytes(file)
        for prefix in ProviderFixture.truncations(of: bytes, stride: 89) {
            #expect(error(prefix)?.isLayout(of: "MAS") == true, "prefix of \(prefix.count) bytes")
        }
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "MAS") == true)
        #expect(error(try ProviderFixture.bytes(pageFile))?.isLayout(of: "MAS") == true)
        #expect(error([]) == .empty)
    }

    @Test("the recording imports as an answer of the adapter's")
    func imports() throws {
        #expect(try ProviderFile.read([try ProviderFixture.bytes(file)], provider: provider, today: Day("2026-04-05")!).count == 22)
    }
}
