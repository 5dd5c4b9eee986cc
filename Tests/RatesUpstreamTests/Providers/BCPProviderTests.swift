import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BCP adapter")
struct BCPProviderTests {
    let provider = BCPProvider(today: { Day("2026-05-22")! })
    let folder = "bcp-paraguay/"
    let file = "bcp-paraguay/00_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=USD.html"

    func name(_ index: Int, _ code: String) -> String {
        folder + (index < 10 ? "0" : "") + "\(index)_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=\(code).html"
    }

    func parse(_ body: [UInt8], subject: String? = "USD") throws -> [ProviderPublication] {
        try provider.parse(body, of: ProviderRequest(url: "https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica?anho=2024&moneda=USD", subject: subject))
    }

    @Test("reads the 2024 grid of USD: 250 days, PYG per dollar, Spanish notation made plain, ND cells skipped")
    func dollarYear() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 250)
        #expect(publications.first?.day == Day("2024-01-02"))
        #expect(publications.last?.day == Day("2024-12-30"))
        #expect(publications.allSatisfy { $0.quotes.count == 1 && $0.quotes[0].direction == .pivotPerUnits && $0.quotes[0].unit == 1 })
        #expect(ProviderFixture.quote("USD", on: "2024-01-02", in: publications) == quote("USD", "7281.04"))
        #expect(ProviderFixture.quote("USD", on: "2024-02-01", in: publications) == quote("USD", "7271.63"))
        #expect(ProviderFixture.quote("USD", on: "2024-12-02", in: publications)?.value == "7810.84")
        // 2024-02-03 is a Saturday: ND.
        #expect(ProviderFixture.quote("USD", on: "2024-02-03", in: publications) == nil)
    }

    @Test("reads every currency's page by the name in its title, with or without the request's subject; gold is no publication")
    func everyCurrency() throws {
        for (index, code) in BCPProvider.currencies.enumerated() {
            let publications = try provider.parse(ProviderFixture.bytes(name(index, code)), of: ProviderRequest(url: "x"))
            #expect(publications.count == 250, "\(code)")
            #expect(publications.allSatisfy { $0.quotes.map(\.currency.rawValue) == [code] }, "\(code)")
            let asked = try parse(ProviderFixture.bytes(name(index, code)), subject: code)
            #expect(asked == publications)
        }
        #expect(ProviderFixture.quote("JPY", on: "2024-01-02", in: try parse(ProviderFixture.bytes(name(3, "JPY")), subject: "JPY"))?.value == "51.45")
        #expect(ProviderFixture.quote("EUR", on: "2024-01-02", in: try parse(ProviderFixture.bytes(name(1, "EUR")), subject: "EUR"))?.value == "7983.66")
        #expect(ProviderFixture.quote("COP", on: "2024-01-02", in: try parse(ProviderFixture.bytes(name(13, "COP")), subject: "COP"))?.value == "1.87")
        #expect(try provider.parse(ProviderFixture.bytes(name(24, "XAU")), of: ProviderRequest(url: "x")) == [])
        // A page for another currency than the one asked for.
        #expect(ProviderFixture.error { try parse(ProviderFixture.bytes(name(1, "EUR")), subject: "USD") }?.isLayout(of: "BCP") == true)
    }

    @Test("asks for one page per currency and year")
    func requests() {
        let latest = provider.requests(for: .latest)
        #expect(latest.count == 24)
        #expect(latest.first == ProviderRequest(url: "https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica?anho=2026&moneda=USD", subject: "USD"))
        #expect(latest.map(\.subject) == BCPProvider.currencies)
        let range = provider.requests(for: .range(Day("2024-12-30")!, Day("2025-01-03")!))
        #expect(range.count == 48)
        #expect(range[0].url == "https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica?anho=2024&moneda=USD")
        #expect(range[24].url == "https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica?anho=2025&moneda=USD")
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        // In the first week of January the newest publication may be the previous year's.
        #expect(BCPProvider(today: { Day("2026-01-03")! }).requests(for: .latest).count == 48)
        #expect(BCPProvider(baseURL: "http://127.0.0.1:8080").requests(for: .range(Day("2024-01-01")!, Day("2024-01-01")!))[0].url
            == "http://127.0.0.1:8080/webapps/web/cotizacion/monedas-historica?anho=2024&moneda=USD")
    }

    @Test("rejects a value that is not a decimal, a figure on a day that does not exist, a currency it does not know")
    func badFields() throws {
        let value = try ProviderFixture.edited(file, replacing: ">7.271,63<", with: ">7.27x,63<")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2024-02-01")!, text: "7.27x,63"))
        let grouping = try ProviderFixture.edited(file, replacing: ">7.271,63<", with: ">72.71,63<")
        #expect(ProviderFixture.error { try parse(grouping) } == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2024-02-01")!, text: "72.71,63"))
        // Row 30, second cell: the 30th of February.
        let body = try ProviderFixture.bytes(file)
        let text = String(decoding: body, as: UTF8.self)
        let row30 = try #require(text.range(of: "text-align:center;\">30</th>"))
        let february = try #require(text.range(of: "ND</td>", range: row30.upperBound..<text.endIndex))
        var edited = text
        edited.replaceSubrange(february, with: "7.000,00</td>")
        #expect(ProviderFixture.error { try parse(Array(edited.utf8)) } == .invalidDay("2024-2-30"))
        let unknown = try ProviderFixture.edited(file, replacing: "DE MONEDA DOLAR AMERICANO", with: "DE MONEDA DOLAR")
        #expect(ProviderFixture.error { try parse(unknown) }?.isLayout(of: "BCP") == true)
        let header = try ProviderFixture.edited(file, replacing: ">ENE</th>", with: ">JAN</th>")
        #expect(ProviderFixture.error { try parse(header) }?.isLayout(of: "BCP") == true)
        let day = try ProviderFixture.edited(file, replacing: "text-align:center;\">2</th>", with: "text-align:center;\">3</th>")
        #expect(ProviderFixture.error { try parse(day) }?.isLayout(of: "BCP") == true)
    }

    @Test("rejects every truncation inside the grid (one after it reads as the whole), an HTML error page and an empty body")
    func notTheTable() throws {
        let whole = try parse(ProviderFixture.bytes(file))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 397) {
            let read = try? parse(cut)
            #expect(read == nil || read == whole, "a cut at \(cut.count) bytes was read as another table")
        }
        #expect(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }?.isLayout(of: "BCP") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as `rates-relay import --provider BCP` reads it: as it parses")
    func imports() throws {
        let files = [
            "bcp-paraguay/00_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=USD.html",
            "bcp-paraguay/01_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=EUR.html",
            "bcp-paraguay/02_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=GBP.html",
            "bcp-paraguay/03_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=JPY.html",
            "bcp-paraguay/04_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=CHF.html",
            "bcp-paraguay/05_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=CAD.html",
            "bcp-paraguay/06_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=AUD.html",
            "bcp-paraguay/07_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=CNY.html",
            "bcp-paraguay/08_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=BRL.html",
            "bcp-paraguay/09_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=ARS.html",
            "bcp-paraguay/10_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=CLP.html",
            "bcp-paraguay/11_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=MXN.html",
            "bcp-paraguay/12_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=UYU.html",
            "bcp-paraguay/13_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=COP.html",
            "bcp-paraguay/14_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=BOB.html",
            "bcp-paraguay/15_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=NZD.html",
            "bcp-paraguay/16_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=ZAR.html",
            "bcp-paraguay/17_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=SEK.html",
            "bcp-paraguay/18_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=DKK.html",
            "bcp-paraguay/19_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=NOK.html",
            "bcp-paraguay/20_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=AED.html",
            "bcp-paraguay/21_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=PEN.html",
            "bcp-paraguay/22_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=SGD.html",
            "bcp-paraguay/23_webapps_web_cotizacion_monedas-historica_anho=2024_moneda=TWD.html",
        ]
        for name in files {
            let bytes = try ProviderFixture.bytes(name)
            #expect(try ProviderFile.read([bytes], provider: provider) == (try provider.parse(bytes, of: ProviderRequest(url: "x"))), "\(name)")
        }
        // Gold's page holds no currency.
        let gold = try ProviderFixture.bytes(name(24, "XAU"))
        #expect(throws: ProviderFileError.noPublication(provider: "BCP")) { try ProviderFile.read([gold], provider: provider) }
    }
}
