import Foundation
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

    @Test("rejects a transfer figure that is not a decimal; the cash figures are not read")
    func garbageValue() throws {
        let transfer = try ProviderFixture.edited(file, replacing: "<td class=\"row_1 col_3\">64.0267</td>", with: "<td class=\"row_1 col_3\">64,0267</td>")
        #expect(ProviderFixture.error { try parse(transfer) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "64,0267"))
        let half = try ProviderFixture.edited(file, replacing: "<td class=\"row_1 col_4\">63.9267</td>", with: "<td class=\"row_1 col_4\">-</td>")
        #expect(ProviderFixture.error { try parse(half) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "-"))
        // The toman's cash figures (0.0009 and 0.0003 here) fall towards zero: a dash or a zero there
        // takes nothing from the day.
        var cash = try ProviderFixture.edited(file, replacing: "<td class=\"row_7 col_1\">0.0009</td>", with: "<td class=\"row_7 col_1\">-</td>")
        cash = try #require(ProviderFixture.replacing("<td class=\"row_7 col_2\">0.0003</td>", with: "<td class=\"row_7 col_2\">0.0000</td>", in: cash))
        let table = try #require(try parse(cash).first)
        #expect(table.quotes.count == 10)
        #expect(table["IRR"] == quote("IRR", "0.0006", unit: 10))
    }

    @Test("a currency whose transfer figures are both zero or blank has none that day and is left out")
    func noTransferFigure() throws {
        // The toman's transfer figures (0.0008 and 0.0004) gone to zero, as the rial keeps falling.
        var zero = try ProviderFixture.edited(file, replacing: "<td class=\"row_7 col_3\">0.0008</td>", with: "<td class=\"row_7 col_3\">0.0000</td>")
        zero = try #require(ProviderFixture.replacing("<td class=\"row_7 col_4\">0.0004</td>", with: "<td class=\"row_7 col_4\">0.0000</td>", in: zero))
        let table = try #require(try parse(zero).first)
        #expect(table.codes == ["AED", "CHF", "CNY", "EUR", "GBP", "INR", "PKR", "SAR", "USD"])
        #expect(table["USD"] == quote("USD", "63.9767"))
        var blank = try ProviderFixture.edited(file, replacing: "<td class=\"row_7 col_3\">0.0008</td>", with: "<td class=\"row_7 col_3\"></td>")
        blank = try #require(ProviderFixture.replacing("<td class=\"row_7 col_4\">0.0004</td>", with: "<td class=\"row_7 col_4\">-</td>", in: blank))
        #expect(try parse(blank).first?.quotes.count == 9)
    }

    @Test("reads labels retyped with other spacing, symbols or case, and labels that are ISO 4217 codes; leaves out unknown ones")
    func labels() throws {
        // The bank types its labels by hand: `USD $`, `Euro €`, a code such as `SAR`.
        var body = try ProviderFixture.edited(file, replacing: ">USD$<", with: ">USD $<")
        body = try #require(ProviderFixture.replacing(">EURO€<", with: "> Euro € <", in: body))
        body = try #require(ProviderFixture.replacing(">SAUDI RIYAL<", with: ">SAR<", in: body))
        body = try #require(ProviderFixture.replacing(">IRAN Toman<", with: ">IRAN  TOMAN<", in: body))
        let table = try #require(try parse(body).first)
        #expect(table.codes == ["AED", "CHF", "CNY", "EUR", "GBP", "INR", "IRR", "PKR", "SAR", "USD"])
        #expect(table["USD"] == quote("USD", "63.9767"))
        #expect(table["EUR"] == quote("EUR", "73.6538"))
        #expect(table["IRR"] == quote("IRR", "0.0006", unit: 10))
        // A label neither the bank's known words nor a code: that row is left out.
        let unknown = try ProviderFixture.edited(file, replacing: ">SWISS₣<", with: ">SWISS FRANK<")
        #expect(try parse(unknown).first?.codes == ["AED", "CNY", "EUR", "GBP", "INR", "IRR", "PKR", "SAR", "USD"])
    }

    @Test("reads a page with the day's table alone, without the monthly averages")
    func dayTableAlone() throws {
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let averages = try #require(text.range(of: "<h2 class=\"mb-0\">Average Rates</h2>"))
        let end = try #require(text.range(of: "</table>", range: averages.upperBound..<text.endIndex))
        let alone = Array((text[..<averages.lowerBound] + text[end.upperBound...]).utf8)
        #expect(try parse(alone) == (try parse(ProviderFixture.bytes(file))))
    }

    @Test("rejects a currency listed twice, a table without the dollar, a day that does not exist, another header")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: ">EURO€<", with: ">USD$<")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let noDollar = try ProviderFixture.edited(file, replacing: ">USD$<", with: ">DOLLAR<")
        #expect(ProviderFixture.error { try parse(noDollar) }?.isLayout(of: "DAB") == true)
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
