import RatesCore
import RatesUpstream
import Testing

@Suite("BNB adapter")
struct BNBProviderTests {
    let provider = BNBProvider()
    let file = "bnb-bulgaria/StERForeignCurrencies_2019-02-01.xml"
    let day = Day("2019-02-01")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the table of 2019-02-01: 31 currencies and gold, BGN per RATIO units (gold per troy ounce), the header row skipped")
    func dailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 1)
        let table = try #require(publications.first)
        #expect(table.day == day)
        #expect(table.quotes.count == 32)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        #expect(table["USD"] == quote("USD", "1.70502"))
        #expect(table["AUD"] == quote("AUD", "1.23873"))
        #expect(table["BRL"] == quote("BRL", "4.64457", unit: 10))
        #expect(table["HUF"] == quote("HUF", "6.15757", unit: 1000))
        #expect(table["IDR"] == quote("IDR", "1.22167", unit: 10000))
        #expect(table["JPY"] == quote("JPY", "1.56579", unit: 100))
        // Trailing zeros stay as published (1.2974 is written without one).
        #expect(table["CAD"]?.value == "1.2974")
        // Leva per troy ounce of gold, ISO 4217's unit of XAU, as published.
        #expect(table["XAU"] == quote("XAU", "2250.83"))
        #expect(table["EUR"] == nil)
        #expect(table.quotes.filter { $0.unit != 1 }.count == 24)
        // A gold row that does not say troy ounces, or is per 10, is not a price this adapter can serve.
        for (original, edited) in [("Злато (в трой унции)", "Злато (в грамове)"), ("<RATIO>1</RATIO>\n        <REVERSERATE>n/a", "<RATIO>10</RATIO>\n        <REVERSERATE>n/a")] {
            let body = try ProviderFixture.edited(file, replacing: original, with: edited)
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(body) }), "\(edited)")
        }
    }

    @Test("asks for the latest table, and for a range one table per Monday to Friday")
    func requests() {
        let base = "https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: base + "?download=xml&search=&lang=EN")])
        // 2019-02-02 is a Saturday.
        let range = provider.requests(for: .range(Day("2019-02-01")!, Day("2019-02-05")!))
        #expect(
            range.map(\.url) == [
                base + "?downloadOper=true&group1=first&firstDays=01&firstMonths=02&firstYear=2019&search=true&type=XML",
                base + "?downloadOper=true&group1=first&firstDays=04&firstMonths=02&firstYear=2019&search=true&type=XML",
                base + "?downloadOper=true&group1=first&firstDays=05&firstMonths=02&firstYear=2019&search=true&type=XML",
            ])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(BNBProvider(baseURL: "http://127.0.0.1:8080").requests(for: .latest)[0].url.hasPrefix("http://127.0.0.1:8080/Statistics/"))
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<RATE>1.70502</RATE>", with: "<RATE>1,705x2</RATE>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "1,705x2"))
    }

    @Test("a currency whose RATE is n/a, the bank's mark for no figure, or empty is left out of the day")
    func noFigure() throws {
        // The gold row of the same table writes its missing reverse rate `n/a`; the dollar's rate written so.
        #expect(String(decoding: try ProviderFixture.bytes(file), as: UTF8.self).contains("<REVERSERATE>n/a</REVERSERATE>"))
        for mark in ["<RATE>n/a</RATE>", "<RATE></RATE>"] {
            let missing = try ProviderFixture.edited(file, replacing: "<RATE>1.70502</RATE>", with: mark)
            let table = try #require(try parse(missing).first)
            #expect(table["USD"] == nil && table.quotes.count == 31 && table["AUD"] == quote("AUD", "1.23873"), "\(mark)")
        }
    }

    @Test("rejects a currency listed twice")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "<CODE>AUD</CODE>", with: "<CODE>USD</CODE>")
        #expect(ProviderFixture.error { try parse(body) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
    }

    @Test("rejects a bad code, a bad or missing ratio, a day that does not exist, rows of two days, an unknown row kind")
    func badFields() throws {
        let code = try ProviderFixture.edited(file, replacing: "<CODE>AUD</CODE>", with: "<CODE>Aud</CODE>")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("Aud", day: day))
        let ratio = try ProviderFixture.edited(file, replacing: "<RATIO>1000</RATIO>", with: "<RATIO>1e3</RATIO>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ratio) }))
        let noRatio = try ProviderFixture.edited(file, replacing: "<RATIO>1000</RATIO>", with: "")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(noRatio) }))
        let notPowerOfTen = try ProviderFixture.edited(file, replacing: "<RATIO>1000</RATIO>", with: "<RATIO>1001</RATIO>")
        #expect(ProviderFixture.error { try parse(notPowerOfTen) } == .invalidRate(currency: CurrencyCode("HUF")!, day: day, text: "6.15757"))
        let date = try ProviderFixture.edited(file, replacing: "<CURR_DATE>01.02.2019</CURR_DATE>", with: "<CURR_DATE>30.02.2019</CURR_DATE>")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("30.02.2019"))
        let twoDays = try ProviderFixture.edited(file, replacing: "<CURR_DATE>01.02.2019</CURR_DATE>", with: "<CURR_DATE>31.01.2019</CURR_DATE>")
        #expect(ProviderFixture.error { try parse(twoDays) }?.isLayout(of: "BNB") == true)
        let kind = try ProviderFixture.edited(file, replacing: "<GOLD>1</GOLD>", with: "<GOLD>3</GOLD>")
        #expect(ProviderFixture.error { try parse(kind) }?.isLayout(of: "BNB") == true)
        let noHeader = try ProviderFixture.edited(file, replacing: "<GOLD>0</GOLD>", with: "<GOLD>1</GOLD>")
        #expect(ProviderFixture.error { try parse(noHeader) }?.isLayout(of: "BNB") == true)
    }

    @Test("rejects a truncated body, an HTML error page, an empty body and a table without currencies")
    func notTheTable() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file)) {
            #expect(ProviderFixture.error { try parse(cut) } != nil)
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let headerOnly = Array("<?xml version=\"1.0\"?><ROWSET><ROW><GOLD>0</GOLD><TITLE>t</TITLE></ROW></ROWSET>".utf8)
        #expect(ProviderFixture.error { try parse(headerOnly) } == .empty)
        let goldWithoutName = Array(
            "<ROWSET><ROW><GOLD>0</GOLD><TITLE>t</TITLE></ROW><ROW><GOLD>2</GOLD><CURR_DATE>01.02.2019</CURR_DATE><CODE>XAU</CODE><RATIO>1</RATIO><RATE>2250.83</RATE></ROW></ROWSET>"
                .utf8)
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(goldWithoutName) }))
    }
}
