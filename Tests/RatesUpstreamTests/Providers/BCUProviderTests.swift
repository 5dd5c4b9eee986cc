import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("BCU adapter")
struct BCUProviderTests {
    let provider = BCUProvider(today: { Day("2026-03-31")! })
    let dollarFile = "bcu-uruguay/00_wscotizaciones_servlet_awsbcucotizaciones_3353d1dd.xml"
    let euroFile = "bcu-uruguay/01_wscotizaciones_servlet_awsbcucotizaciones_da0d62d5.xml"
    let pesoFile = "bcu-uruguay/03_wscotizaciones_servlet_awsbcucotizaciones_ca10b7b6.xml"
    let day = Day("2026-03-27")!

    /// Every recorded answer, one per currency.
    var files: [String] {
        get throws {
            try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("bcu-uruguay").path).filter { $0.hasSuffix(".xml") }.sorted()
                .map { "bcu-uruguay/" + $0 }
        }
    }

    func parse(_ body: [UInt8], subject: String? = nil) throws -> [ProviderPublication] {
        var request = provider.requests(for: .latest)[0]
        request.subject = subject
        return try provider.parse(body, of: request)
    }

    @Test("reads the dollar's answer: 3 working days, UYU per 1 USD, six decimals kept")
    func dollar() throws {
        let publications = try parse(ProviderFixture.bytes(dollarFile), subject: "USD")
        #expect(publications.map(\.day.description) == ["2026-03-27", "2026-03-30", "2026-03-31"])
        #expect(publications.map { $0.quotes } == [[quote("USD", "40.560000")], [quote("USD", "40.626000")], [quote("USD", "40.480000")]])
    }

    @Test("imports the 27 recorded answers as one fetch: 27 currencies on each of 3 days, by the bank's numbers")
    func allCurrencies() throws {
        let urls = try files.map { Fixtures.url($0) }
        #expect(urls.count == 27)
        let publications = try provider.publications(inFiles: urls, subjects: [], today: Day("2026-03-31")!)
        #expect(publications.map(\.day.description) == ["2026-03-27", "2026-03-30", "2026-03-31"])
        #expect(publications.allSatisfy { $0.quotes.count == 27 })
        let first = try #require(publications.first)
        #expect(first["EUR"] == quote("EUR", "46.696728"))
        #expect(first["ARS"] == quote("ARS", "0.029321"))
        #expect(first["PYG"] == quote("PYG", "0.006259"))
        #expect(first["CHF"] == quote("CHF", "50.788881"))
        #expect(Set(first.codes) == Set(BCUProvider.currencies.map(\.code)))
    }

    @Test("gives the exact midpoint when buying and selling differ")
    func midpoint() throws {
        let body = try ProviderFixture.edited(dollarFile, replacing: "<TCV>40.560000</TCV>", with: "<TCV>40.560001</TCV>")
        #expect(try parse(body).first?.quotes == [quote("USD", "40.5600005")])
    }

    @Test("asks per currency, each request with its number and the range, the newest publication as the last 7 days")
    func requests() throws {
        let range = provider.requests(for: .range(Day("2026-03-27")!, Day("2026-03-31")!))
        #expect(range.count == 27)
        #expect(range.allSatisfy { $0.url == "https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones" && $0.method == .post })
        #expect(range.map(\.subject) == BCUProvider.currencies.map(\.code))
        let ars = try #require(range.first { $0.subject == "ARS" })
        #expect(ars.body?.contains("<cot:Moneda><cot:item>0500</cot:item></cot:Moneda>") == true)
        #expect(ars.body?.contains("<cot:FechaDesde>2026-03-27</cot:FechaDesde><cot:FechaHasta>2026-03-31</cot:FechaHasta><cot:Grupo>0</cot:Grupo>") == true)
        #expect(ars.headers["SOAPAction"] == "Cotizaaction/AWSBCUCOTIZACIONES.Execute")
        let latest = provider.requests(for: .latest)
        #expect(latest.count == 27)
        #expect(latest[0].body?.contains("<cot:FechaDesde>2026-03-24</cot:FechaDesde><cot:FechaHasta>2026-03-31</cot:FechaHasta>") == true)
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(dollarFile, replacing: "<TCC>40.560000</TCC>", with: "<TCC>40.56O000</TCC>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "40.56O000"))
    }

    @Test("rejects a day listed twice, a day that does not exist, an unknown currency number, a label that does not match, another currency than asked")
    func badFields() throws {
        let twice = try ProviderFixture.edited(dollarFile, replacing: "<Fecha>2026-03-30</Fecha>", with: "<Fecha>2026-03-27</Fecha>")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let date = try ProviderFixture.edited(dollarFile, replacing: "<Fecha>2026-03-30</Fecha>", with: "<Fecha>2026-03-32</Fecha>")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-03-32"))
        let number = try ProviderFixture.edited(dollarFile, replacing: "<Moneda>2225</Moneda>", with: "<Moneda>9800</Moneda>")
        #expect(ProviderFixture.error { try parse(number) }?.isLayout(of: "BCU") == true)
        let label = try ProviderFixture.edited(pesoFile, replacing: "<CodigoISO>ARS</CodigoISO>", with: "<CodigoISO>ARG</CodigoISO>")
        #expect(ProviderFixture.error { try parse(label) }?.isLayout(of: "BCU") == true)
        #expect(ProviderFixture.error { try parse(try ProviderFixture.bytes(euroFile), subject: "USD") }?.isLayout(of: "BCU") == true)
    }

    @Test("rejects truncated bodies, an HTML error page, an error status, a SOAP fault and an empty body; no rows is no publication")
    func notTheAnswer() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(dollarFile)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(dollarFile), stride: 41) {
            #expect(ProviderFixture.error { try parse(cut) } != nil)
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let status = try ProviderFixture.edited(dollarFile, replacing: "<status>1</status>", with: "<status>0</status>")
        #expect(ProviderFixture.error { try parse(status) }?.isLayout(of: "BCU") == true)
        let fault = Array(
            """
            <?xml version="1.0" encoding="utf-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>\
            <SOAP-ENV:Fault><faultcode>SOAP-ENV:Client</faultcode><faultstring>Error</faultstring></SOAP-ENV:Fault></SOAP-ENV:Body></SOAP-ENV:Envelope>
            """.utf8)
        #expect(ProviderFixture.error { try parse(fault) }?.isLayout(of: "BCU") == true)
        let noRows = Array(
            """
            <?xml version="1.0" encoding="utf-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>\
            <wsbcucotizaciones.ExecuteResponse xmlns="Cotiza"><Salida><respuestastatus><status>1</status><codigoerror>0</codigoerror><mensaje/>\
            </respuestastatus><datoscotizaciones></datoscotizaciones></Salida></wsbcucotizaciones.ExecuteResponse></SOAP-ENV:Body></SOAP-ENV:Envelope>
            """.utf8)
        #expect(try parse(noRows).isEmpty)
    }
}
