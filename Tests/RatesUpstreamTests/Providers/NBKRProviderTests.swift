import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("NBKR adapter")
struct NBKRProviderTests {
    let provider = NBKRProvider()
    let daily = "nbkr-kyrgyzstan/live_00_XML_daily.xml.xml"
    let weekly = "nbkr-kyrgyzstan/live_01_XML_weekly.xml.xml"

    func parse(_ body: [UInt8], request index: Int = 0) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[index])
    }

    @Test("reads the daily table of 2026-05-24: USD, EUR, CNY, KZT and RUB, decimal commas made points")
    func dailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(daily))
        #expect(publications.map(\.day) == [Day("2026-05-24")!])
        let table = try #require(publications.first)
        #expect(table.codes == ["CNY", "EUR", "KZT", "RUB", "USD"])
        #expect(table["USD"] == quote("USD", "87.4500"))
        #expect(table["KZT"] == quote("KZT", "0.1859"))
    }

    let dollarHistory = "nbkr-kyrgyzstan/historical_00_year=2005_end_day=30_end_month=06_end_year=2005_item=1562_lang=ENG_valuta_id=15.html"
    let euroHistory = "nbkr-kyrgyzstan/historical_01_year=2005_end_day=30_end_month=06_end_year=2005_item=1562_lang=ENG_valuta_id=20.html"

    func history(_ body: [UInt8], valutaID: String?) throws -> [ProviderPublication] {
        var request = provider.requests(for: .latest)[0]
        request.subject = valutaID
        return try provider.parse(body, of: request)
    }

    @Test("reads a currency's history page of June 2005: its weekly rows, the currency and nominal by its valuta_id")
    func historyPage() throws {
        let dollar = try history(ProviderFixture.bytes(dollarHistory), valutaID: "15")
        #expect(dollar.map(\.day) == ["2005-06-04", "2005-06-11", "2005-06-18", "2005-06-25"].map { Day($0)! })
        #expect(dollar.allSatisfy { $0.quotes.count == 1 })
        #expect(ProviderFixture.quote("USD", on: "2005-06-25", in: dollar) == quote("USD", "40.9614"))
        #expect(ProviderFixture.quote("USD", on: "2005-06-04", in: dollar) == quote("USD", "40.9879"))
        let euro = try history(ProviderFixture.bytes(euroHistory), valutaID: "20")
        #expect(ProviderFixture.quote("EUR", on: "2005-06-18", in: euro) == quote("EUR", "49.8469"))
        #expect(NBKRProvider.historyCurrencies["36"].map { [$0.code.rawValue, "\($0.nominal)"] } == ["JPY", "10"])
    }

    @Test("imports history pages by the valuta_id in their file names, beside the XML tables")
    func historyImport() throws {
        let files = [dollarHistory, euroHistory, daily].map { Fixtures.url($0) }
        let publications = try provider.publications(inFiles: files, subjects: [], today: Day("2026-05-25")!)
        #expect(publications.count == 5)
        #expect(publications[3].codes == ["EUR", "USD"])
        #expect(ProviderFixture.quote("EUR", on: "2005-06-25", in: publications)?.value == "49.4425")
        #expect(ProviderFixture.quote("USD", on: "2026-05-24", in: publications)?.value == "87.4500")
    }

    @Test("rejects a history page without its valuta_id, of an unknown one, with a bad figure or cells that do not pair up")
    func historyRejected() throws {
        let bytes = try ProviderFixture.bytes(dollarHistory)
        #expect(ProviderFixture.error { try history(bytes, valutaID: nil) }?.isLayout(of: "NBKR") == true)
        #expect(ProviderFixture.error { try history(bytes, valutaID: "9999") }?.isLayout(of: "NBKR") == true)
        let garbage = try ProviderFixture.edited(dollarHistory, replacing: "40,9614", with: "40,96l4")
        #expect(ProviderFixture.error { try history(garbage, valutaID: "15") } == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2005-06-25")!, text: "40,96l4"))
        let unpaired = try ProviderFixture.edited(dollarHistory, replacing: "<!--value-->40,9614<!--value-->", with: "40,9614")
        #expect(ProviderFixture.error { try history(unpaired, valutaID: "15") }?.isLayout(of: "NBKR") == true)
        let date = try ProviderFixture.edited(dollarHistory, replacing: "25.06.2005", with: "31.06.2005")
        #expect(ProviderFixture.error { try history(date, valutaID: "15") } == .invalidDay("31.06.2005"))
    }

    @Test("leaves out a currency listed with an empty value")
    func emptyValue() throws {
        let edited = try ProviderFixture.edited(daily, replacing: "<Value>87,4500</Value>", with: "<Value></Value>")
        let table = try #require(try parse(edited).first)
        #expect(table.codes == ["CNY", "EUR", "KZT", "RUB"])
    }

    @Test("reads the weekly table of 2026-05-23: 39 currencies with the SDR, units of 10, the withdrawn BYR skipped")
    func weeklyTable() throws {
        let publications = try parse(ProviderFixture.bytes(weekly), request: 1)
        #expect(publications.map(\.day) == [Day("2026-05-23")!])
        let table = try #require(publications.first)
        #expect(table.quotes.count == 39)
        #expect(table["XDR"] == quote("XDR", "119.5195"))
        #expect(table["JPY"] == quote("JPY", "5.4969", unit: 10))
        #expect(table["IRR"] == quote("IRR", "0.0007", unit: 10))
        #expect(table["BYN"] == quote("BYN", "32.0154"))
        #expect(table["BYR"] == nil)
        #expect(table["SGD"] == quote("SGD", "68.3230"))
        #expect(table.quotes.filter { $0.unit != 1 }.map(\.currency.rawValue).sorted() == ["AMD", "HUF", "IDR", "IRR", "JPY"])
    }

    @Test("imports both files, each on its own day: it publishes in parts")
    func imports() throws {
        #expect(provider.publishesInParts)
        let publications = try provider.publications(inFiles: [daily, weekly].map { Fixtures.url($0) }, subjects: [], today: Day("2026-05-24")!)
        #expect(publications.map(\.day.description) == ["2026-05-23", "2026-05-24"])
        #expect(publications.map(\.quotes.count) == [39, 5])
    }

    @Test("asks for both files, for the newest publication and for any range")
    func requests() {
        let urls = ["https://www.nbkr.kg/XML/daily.xml", "https://www.nbkr.kg/XML/weekly.xml"]
        #expect(provider.requests(for: .latest).map(\.url) == urls)
        #expect(provider.requests(for: .range(Day("2026-05-01")!, Day("2026-05-24")!)).map(\.url) == urls)
        #expect(provider.requests(for: .latest).allSatisfy { $0.method == .get && $0.body == nil })
        #expect(NBKRProvider(baseURL: "http://127.0.0.1:8080/nbkr").requests(for: .latest)[0].url == "http://127.0.0.1:8080/nbkr/XML/daily.xml")
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(daily, replacing: "<Value>87,4500</Value>", with: "<Value>87,45,00</Value>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-05-24")!, text: "87,45,00"))
    }

    @Test("rejects a currency listed twice")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(weekly, replacing: "<Currency ISOCode=\"DKK\">", with: "<Currency ISOCode=\"GBP\">")
        #expect(ProviderFixture.error { try parse(body, request: 1) } == .duplicateCurrency(CurrencyCode("GBP")!, day: Day("2026-05-23")!))
    }

    @Test("rejects a bad code, nominal, validity or day, and a table of another name")
    func badFields() throws {
        let day = Day("2026-05-23")!
        let code = try ProviderFixture.edited(weekly, replacing: "<Currency ISOCode=\"DKK\">", with: "<Currency ISOCode=\"\">")
        #expect(ProviderFixture.error { try parse(code, request: 1) } == .invalidCurrencyCode("", day: day))
        let nominal = try ProviderFixture.edited(weekly, replacing: "<Nominal>10</Nominal>", with: "<Nominal>ten</Nominal>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(nominal, request: 1) }))
        let validity = try ProviderFixture.edited(weekly, replacing: "<ValidFor>7</ValidFor>", with: "<ValidFor>a week</ValidFor>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(validity, request: 1) }))
        let date = try ProviderFixture.edited(weekly, replacing: "Date=\"23.05.2026\"", with: "Date=\"23.05.26\"")
        #expect(ProviderFixture.error { try parse(date, request: 1) } == .invalidDay("23.05.26"))
        let name = try ProviderFixture.edited(weekly, replacing: "Name=\"Weekly Exchange Rates\"", with: "Name=\"Monthly Exchange Rates\"")
        #expect(ProviderFixture.error { try parse(name, request: 1) }?.isLayout(of: "NBKR") == true)
    }

    @Test("rejects truncated bodies, an HTML error page, a history page without its valuta_id, an empty body and a table without currencies")
    func notTheTable() throws {
        for file in [daily, weekly] {
            #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
            for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 37) {
                #expect(ProviderFixture.error { try parse(cut) } != nil)
            }
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        let history = Array("<table><tr><td><!--date-->25.06.2005<!--date--></td><td><!--value-->40,9614<!--value--></td></tr></table>".utf8)
        #expect(ProviderFixture.error { try parse(history) }?.isLayout(of: "NBKR") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let empty = Array("<?xml version=\"1.0\" encoding=\"windows-1251\" ?><CurrencyRates Name=\"Daily Exchange Rates\" Date=\"24.05.2026\"></CurrencyRates>".utf8)
        #expect(ProviderFixture.error { try parse(empty) } == .emptyDay(Day("2026-05-24")!))
    }
}
