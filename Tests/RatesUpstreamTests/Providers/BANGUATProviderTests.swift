import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BANGUAT adapter")
struct BANGUATProviderTests {
    let provider = BANGUATProvider(today: { Day("2026-03-24")! })
    let file = "banguat-guatemala/00_variables_ws_TipoCambio.asmx_102f719d.xml"
    let usd = CurrencyCode("USD")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-20")!))[0])
    }

    @Test("reads 2026-03-01 to 2026-03-20: the dollar's reference rate on 15 working days, weekends' repeats skipped")
    func range() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 15)
        #expect(publications.first?.day == Day("2026-03-02")!)
        #expect(publications.last?.day == Day("2026-03-20")!)
        #expect(publications.allSatisfy { $0.quotes.count == 1 && $0.day.isoWeekday <= 5 })
        #expect(ProviderFixture.quote("USD", on: "2026-03-02", in: publications) == quote("USD", "7.66143"))
        // Trailing zeros as published (7.6605, not 7.66050); the midpoint of equal figures is the figure.
        #expect(ProviderFixture.quote("USD", on: "2026-03-12", in: publications) == quote("USD", "7.6605"))
        #expect(ProviderFixture.quote("USD", on: "2026-03-20", in: publications) == quote("USD", "7.65366"))
        #expect(ProviderFixture.quote("USD", on: "2026-03-07", in: publications) == nil)
    }

    @Test("a range of a weekend alone, whose days repeat Friday's rate, is no publication, not an empty answer")
    func weekendAlone() throws {
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let days = text.components(separatedBy: "<Var>").dropFirst().map { "<Var>" + $0.components(separatedBy: "</Var>")[0] + "</Var>" }
        let weekend = days.filter { $0.contains("<fecha>07/03/2026</fecha>") || $0.contains("<fecha>08/03/2026</fecha>") }
        #expect(weekend.count == 2)
        let opening = try #require(text.range(of: "<Vars>")), closing = try #require(text.range(of: "</Vars>"))
        let body = String(text[..<opening.upperBound]) + weekend.joined() + String(text[closing.lowerBound...])
        #expect(try parse(Array(body.replacingOccurrences(of: "<TotalItems>20</TotalItems>", with: "<TotalItems>2</TotalItems>").utf8)).isEmpty)
    }

    @Test("gives the exact midpoint of the selling and buying figures when they differ")
    func midpoint() throws {
        let body = try ProviderFixture.edited(file, replacing: "<venta>7.66143</venta>", with: "<venta>7.66144</venta>")
        #expect(ProviderFixture.quote("USD", on: "2026-03-02", in: try parse(body)) == quote("USD", "7.661435"))
    }

    @Test("asks for a range with one TipoCambioRango, and for the newest publication the last 7 days")
    func requests() throws {
        let range = provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-20")!))
        #expect(range.count == 1)
        #expect(range[0].url == "https://www.banguat.gob.gt/variables/ws/TipoCambio.asmx")
        #expect(range[0].method == .post)
        #expect(range[0].headers["SOAPAction"] == "\"http://www.banguat.gob.gt/variables/ws/TipoCambioRango\"")
        #expect(range[0].body?.contains("<fechainit>01/03/2026</fechainit><fechafin>20/03/2026</fechafin>") == true)
        let latest = try #require(provider.requests(for: .latest).first)
        #expect(latest.body?.contains("<fechainit>17/03/2026</fechainit><fechafin>24/03/2026</fechafin>") == true)
        #expect(BANGUATProvider(baseURL: "http://127.0.0.1:8080/banguat").requests(for: .latest)[0].url == "http://127.0.0.1:8080/banguat")
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<compra>7.66143</compra>", with: "<compra>7.66.143</compra>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: usd, day: Day("2026-03-02")!, text: "7.66.143"))
    }

    @Test("rejects a day listed twice, a day that does not exist, another currency, a count that does not match")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: "<fecha>03/03/2026</fecha>", with: "<fecha>02/03/2026</fecha>")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateDay(Day("2026-03-02")!))
        let date = try ProviderFixture.edited(file, replacing: "<fecha>03/03/2026</fecha>", with: "<fecha>32/03/2026</fecha>")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("32/03/2026"))
        let currency = try ProviderFixture.edited(file, replacing: "<moneda>2</moneda>", with: "<moneda>24</moneda>")
        #expect(ProviderFixture.error { try parse(currency) }?.isLayout(of: "BANGUAT") == true)
        let count = try ProviderFixture.edited(file, replacing: "<TotalItems>20</TotalItems>", with: "<TotalItems>21</TotalItems>")
        #expect(ProviderFixture.error { try parse(count) }?.isLayout(of: "BANGUAT") == true)
        let noBuying = try ProviderFixture.edited(file, replacing: "<compra>7.66143</compra>", with: "")
        #expect(ProviderFixture.error { try parse(noBuying) }?.isLayout(of: "BANGUAT") == true)
    }

    @Test("rejects truncated bodies, an HTML error page, a SOAP fault and an empty body")
    func notTheAnswer() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 53) {
            #expect(ProviderFixture.error { try parse(cut) } != nil)
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let fault = Array(
            """
            <?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>\
            <soap:Fault><faultcode>soap:Client</faultcode><faultstring>Fecha invalida</faultstring></soap:Fault></soap:Body></soap:Envelope>
            """.utf8)
        #expect(ProviderFixture.error { try parse(fault) }?.isLayout(of: "BANGUAT") == true)
    }
}
