import RatesCore
import RatesUpstream
import Testing

@Suite("DAB adapter")
struct DABProviderTests {
    let provider = DABProvider(today: { Day("2026-05-19")! })
    let file = "dab-afghanistan/00_exchange-rates_field_date_value=2026-05-18.html"
    let day = Day("2026-05-18")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the rates of 2026-05-18: ten currencies, the exact midpoint of the transfer rates in AFN per unit; the toman as 10 IRR")
    func dailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 1)
        let table = try #require(publications.first)
        #expect(table.day == day)
        #expect(table.codes == ["AED", "CHF", "CNY", "EUR", "GBP", "INR", "IRR", "PKR", "SAR", "USD"])
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        // Transfer (Sell) 64.0267, Transfer (Buy) 63.9267.
        #expect(table["USD"] == quote("USD", "63.9767"))
        #expect(table["EUR"] == quote("EUR", "73.6538"))
        #expect(table["GBP"]?.value == "85.2496")
        #expect(table["PKR"]?.value == "0.2212")
        #expect(table["IRR"] == quote("IRR", "0.0006", unit: 10))
        // The monthly averages below (USD 64.7835 / 64.6835) are not read.
        #expect(table.quotes.count == 10)
    }

    @Test("reads the page asked for 2026-05-19 under its own date, with its own figures")
    func nextDay() throws {
        let publications = try parse(ProviderFixture.bytes("dab-afghanistan/01_exchange-rates_field_date_value=2026-05-19.html"))
        #expect(publications.map(\.day) == [Day("2026-05-19")!])
        let table = try #require(publications.first)
        #expect(table.codes == ["AED", "CHF", "CNY", "EUR", "GBP", "INR", "IRR", "PKR", "SAR", "USD"])
        // Transfer (Sell) 63.7736, Transfer (Buy) 63.6736; 85.4000 and 85.1000 keep their trailing zeros.
        #expect(table["USD"] == quote("USD", "63.7236"))
        #expect(table["GBP"] == quote("GBP", "85.2500"))
        #expect(table["EUR"]?.value == "73.5331")
    }

    @Test("asks for one day per request, Saturday to Thursday; the newest publication as today and the two days before")
    func requests() {
        #expect(
            provider.requests(for: .latest).map(\.url) == [
                "https://www.dab.gov.af/exchange-rates?field_date_value=2026-05-17", "https://www.dab.gov.af/exchange-rates?field_date_value=2026-05-18",
                "https://www.dab.gov.af/exchange-rates?field_date_value=2026-05-19",
            ])
        // 2026-05-22 is a Friday.
        let range = provider.requests(for: .range(Day("2026-05-21")!, Day("2026-05-23")!))
        #expect(range.map(\.url) == ["https://www.dab.gov.af/exchange-rates?field_date_value=2026-05-21", "https://www.dab.gov.af/exchange-rates?field_date_value=2026-05-23"])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(DABProvider(baseURL: "http://127.0.0.1:8080", today: { Day("2026-05-18")! }).requests(for: .latest).last?.url
            == "http://127.0.0.1:8080/exchange-rates?field_date_value=2026-05-18")
    }

    @Test("rejects a value that is not a decimal, even one not averaged")
    func garbageValue() throws {
        let transfer = try ProviderFixture.edited(file, replacing: "<td class=\"row_1 col_3\">64.0267</td>", with: "<td class=\"row_1 col_3\">64,0267</td>")
        #expect(ProviderFixture.error { try parse(transfer) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "64,0267"))
        let cash = try ProviderFixture.edited(file, replacing: "<td class=\"row_1 col_1\">64.0767</td>", with: "<td class=\"row_1 col_1\">-</td>")
        #expect(ProviderFixture.error { try parse(cash) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "-"))
    }

    @Test("rejects a currency listed twice, a name it does not know, a day that does not exist, another header")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: ">EURO€<", with: ">USD$<")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let unknown = try ProviderFixture.edited(file, replacing: ">EURO€<", with: ">EURO<")
        #expect(ProviderFixture.error { try parse(unknown) }?.isLayout(of: "DAB") == true)
        let date = try ProviderFixture.edited(file, replacing: "Last updated: 18 May 2026", with: "Last updated: 31 June 2026")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("31 June 2026"))
        let header = try ProviderFixture.edited(file, replacing: ">Transfer (Buy)</th>", with: ">Transfer</th>")
        #expect(ProviderFixture.error { try parse(header) }?.isLayout(of: "DAB") == true)
    }

    @Test("a page without results is no publication")
    func noPublication() throws {
        #expect(try parse(Array("<html><body><h2>Exchange Rates</h2><div class=\"view-empty\">There were no results.</div></body></html>".utf8)) == [])
    }

    @Test("rejects every truncation inside the table, an HTML error page and an empty body")
    func notTheTable() throws {
        let whole = try parse(ProviderFixture.bytes(file))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 211) {
            let read = try? parse(cut)
            #expect(read == nil || read == whole, "a cut at \(cut.count) bytes was read as another table")
        }
        #expect(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }?.isLayout(of: "DAB") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as `rates-relay import --provider DAB` reads it: as it parses")
    func imports() throws {
        let files = [
            "dab-afghanistan/00_exchange-rates_field_date_value=2026-05-18.html",
            "dab-afghanistan/01_exchange-rates_field_date_value=2026-05-19.html",
        ]
        for name in files {
            let bytes = try ProviderFixture.bytes(name)
            #expect(try ProviderFile.read([bytes], provider: provider) == (try parse(bytes)), "\(name)")
        }
    }
}
