import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BCN adapter")
struct BCNProviderTests {
    let provider = BCNProvider(today: { Day("2026-03-24")! })
    let file = "bcn-nicaragua/00_Tc_Servicio_ServicioTC.asmx_c7a67c51.xml"
    let usd = CurrencyCode("USD")!

    func parse(_ body: [UInt8], provider: BCNProvider? = nil) throws -> [ProviderPublication] {
        let adapter = provider ?? self.provider
        return try adapter.parse(body, of: adapter.requests(for: .latest)[0])
    }

    @Test("reads March 2026 as recorded: 16 to 20 March, NIO per 1 USD, four decimals as published")
    func month() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-03-16", "2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20"])
        #expect(publications.allSatisfy { $0.quotes == [quote("USD", "36.6243")] })
    }

    @Test("leaves out the days set in advance, after today")
    func daysAhead() throws {
        let early = BCNProvider(today: { Day("2026-03-18")! })
        #expect(try parse(ProviderFixture.bytes(file), provider: early).map(\.day.description) == ["2026-03-16", "2026-03-17", "2026-03-18"])
        let before = BCNProvider(today: { Day("2026-03-10")! })
        #expect(try parse(ProviderFixture.bytes(file), provider: before).isEmpty)
    }

    @Test("asks for the current month, and for a range one RecuperaTC_Mes per month it touches")
    func requests() throws {
        let latest = provider.requests(for: .latest)
        #expect(latest.count == 1)
        #expect(latest[0].url == "https://servicios.bcn.gob.ni/Tc_Servicio/ServicioTC.asmx")
        #expect(latest[0].method == .post)
        #expect(latest[0].headers["SOAPAction"] == "\"http://servicios.bcn.gob.ni/RecuperaTC_Mes\"")
        #expect(latest[0].body?.contains("<tns:RecuperaTC_Mes><tns:Ano>2026</tns:Ano><tns:Mes>3</tns:Mes></tns:RecuperaTC_Mes>") == true)
        let range = provider.requests(for: .range(Day("2025-11-20")!, Day("2026-02-03")!))
        #expect(
            range.compactMap { $0.body?.components(separatedBy: "<tns:RecuperaTC_Mes>").last?.components(separatedBy: "</tns:RecuperaTC_Mes>").first } == [
                "<tns:Ano>2025</tns:Ano><tns:Mes>11</tns:Mes>", "<tns:Ano>2025</tns:Ano><tns:Mes>12</tns:Mes>",
                "<tns:Ano>2026</tns:Ano><tns:Mes>1</tns:Mes>", "<tns:Ano>2026</tns:Ano><tns:Mes>2</tns:Mes>",
            ])
        #expect(BCNProvider(baseURL: "http://127.0.0.1:8080/bcn").requests(for: .latest)[0].url == "http://127.0.0.1:8080/bcn")
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<Valor>36.6243</Valor>", with: "<Valor>36,62,43</Valor>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: usd, day: Day("2026-03-16")!, text: "36,62,43"))
        let zero = try ProviderFixture.edited(file, replacing: "<Valor>36.6243</Valor>", with: "<Valor>0</Valor>")
        #expect(ProviderFixture.error { try parse(zero) } == .invalidRate(currency: usd, day: Day("2026-03-16")!, text: "0"))
    }

    @Test("rejects a day listed twice, a day that does not exist, parts of a day that disagree with it")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: "<Fecha>2026-03-17</Fecha>", with: "<Fecha>2026-03-16</Fecha>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(twice) }))
        let twiceWhole = try ProviderFixture.edited(
            file, replacing: "<Fecha>2026-03-17</Fecha><Valor>36.6243</Valor><Ano>2026</Ano><Mes>3</Mes><Dia>17</Dia>",
            with: "<Fecha>2026-03-16</Fecha><Valor>36.6243</Valor><Ano>2026</Ano><Mes>3</Mes><Dia>16</Dia>")
        #expect(ProviderFixture.error { try parse(twiceWhole) } == .duplicateDay(Day("2026-03-16")!))
        let date = try ProviderFixture.edited(file, replacing: "<Fecha>2026-03-17</Fecha>", with: "<Fecha>2026-02-30</Fecha>")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-02-30"))
        let noValue = try ProviderFixture.edited(file, replacing: "<Valor>36.6243</Valor>", with: "")
        #expect(ProviderFixture.error { try parse(noValue) }?.isLayout(of: "BCN") == true)
    }

    @Test("rejects truncated bodies, an HTML error page, a SOAP fault and an empty body")
    func notTheAnswer() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 23) {
            #expect(ProviderFixture.error { try parse(cut) } != nil)
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let fault = Array(
            """
            <?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>\
            <soap:Fault><faultcode>soap:Server</faultcode><faultstring>Error</faultstring></soap:Fault></soap:Body></soap:Envelope>
            """.utf8)
        #expect(ProviderFixture.error { try parse(fault) }?.isLayout(of: "BCN") == true)
        let noRows = Array(
            """
            <?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>\
            <RecuperaTC_MesResponse xmlns="http://servicios.bcn.gob.ni/"><RecuperaTC_MesResult><Detalle_TC xmlns=""></Detalle_TC>\
            </RecuperaTC_MesResult></RecuperaTC_MesResponse></soap:Body></soap:Envelope>
            """.utf8)
        #expect(ProviderFixture.error { try parse(noRows) } == .empty)
    }
}
