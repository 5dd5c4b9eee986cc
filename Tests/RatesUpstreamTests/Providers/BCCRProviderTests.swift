import RatesCore
import RatesUpstream
import Testing

@Suite("BCCR adapter")
struct BCCRProviderTests {
    let provider = BCCRProvider(today: { Day("2026-03-24")! })
    let file = "bccr-costarica/01_ostrar=100_FechaFin=2026-03-24_FechaInicio=2026-03-21T00_00_00_IdGrupoVariable=1.json"
    let tokenFile = "bccr-costarica/00_E_api_Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API_Token_GenereCSRF.txt"
    static let tableURL =
        "https://apim.bccr.fi.cr/SDDE/api/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider)
    }

    @Test("reads the 100 days from 2025-12-15 to 2026-03-24: the dollar only, CRC per 1 USD, the exact midpoint of buying and selling")
    func table() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 100)
        #expect(publications.first?.day == Day("2025-12-15"))
        #expect(publications.last?.day == Day("2026-03-24"))
        #expect(publications.allSatisfy { $0.codes == ["USD"] && $0.quotes[0].unit == 1 && $0.quotes[0].direction == .pivotPerUnits })
        // 463.50 and 468.29
        #expect(ProviderFixture.quote("USD", on: "2026-03-24", in: publications) == quote("USD", "465.895"))
        // 494.34 and 500.49
        #expect(ProviderFixture.quote("USD", on: "2025-12-15", in: publications)?.value == "497.415")
        // 463.61 and 470.58
        #expect(ProviderFixture.quote("USD", on: "2026-03-18", in: publications)?.value == "467.095")
        // Saturday, Sunday and Monday carry the figures set on Friday 20 March for them.
        #expect(ProviderFixture.quote("USD", on: "2026-03-21", in: publications)?.value == "466.365")
        #expect(ProviderFixture.quote("USD", on: "2026-03-23", in: publications)?.value == "466.365")
    }

    @Test("asks for a token first, then for the table with it: the last seven days for latest, spans of 100 days for a range")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest)?.url == "https://apim.bccr.fi.cr/SDDE/api/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF")
        #expect(provider.sessionRequest(for: .latest)?.method == .get)
        let token = try ProviderFixture.bytes(tokenFile)
        let latest = try provider.requests(for: .latest, session: ProviderSession(body: token))
        #expect(latest.count == 1)
        #expect(latest[0].url == Self.tableURL + "?CantidadSeriesAMostrar=100&FechaFin=2026-03-24&FechaInicio=2026-03-17T00:00:00&IdGrupoVariable=1")
        #expect(latest[0].method == .get && latest[0].body == nil)
        #expect(latest[0].headers["token_csrf"] == String(decoding: token, as: UTF8.self))
        #expect(latest[0].headers["Origin"] == "https://sdd.bccr.fi.cr")
        // Without the token answer (an import), the same request without the header.
        #expect(provider.requests(for: .latest)[0].url == latest[0].url)
        #expect(provider.requests(for: .latest)[0].headers["token_csrf"] == nil)

        let range = try provider.requests(for: .range(Day("2025-10-01")!, Day("2026-03-24")!), session: ProviderSession(body: token))
        #expect(
            range.map(\.url) == [
                Self.tableURL + "?CantidadSeriesAMostrar=100&FechaFin=2026-01-08&FechaInicio=2025-10-01T00:00:00&IdGrupoVariable=1",
                Self.tableURL + "?CantidadSeriesAMostrar=100&FechaFin=2026-03-24&FechaInicio=2026-01-09T00:00:00&IdGrupoVariable=1",
            ])
        #expect(BCCRProvider(baseURL: "http://127.0.0.1:9/bccr").sessionRequest(for: .latest)?.url.hasPrefix("http://127.0.0.1:9/bccr/Bccr.GE.SDDE") == true)
    }

    @Test("a token answer that is not a token fails the fetch")
    func badToken() {
        for body in ["", "<html><body>403 Forbidden</body></html>", "{\"error\":\"x\"}"] {
            #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: Array(body.utf8))) }
        }
    }

    @Test("rejects a figure that is not a decimal, one figure of the two, figures that disagree, and a bad day")
    func badFigures() throws {
        let usd = CurrencyCode("USD")!
        let garbage = try ProviderFixture.edited(file, replacing: #""serie100Ingles":"463.50""#, with: #""serie100Ingles":"463.5x""#)
        #expect(error(garbage) == .invalidRate(currency: usd, day: Day("2026-03-24")!, text: "463.5x"))
        let oneSided = try ProviderFixture.edited(file, replacing: #""serie100":"463,50","serie100Ingles":"463.50""#, with: #""serie100":"","serie100Ingles":"""#)
        #expect(error(oneSided)?.isLayout(of: "BCCR") == true)
        let disagree = try ProviderFixture.edited(file, replacing: #""serie100":"463,50""#, with: #""serie100":"463,51""#)
        #expect(error(disagree)?.isLayout(of: "BCCR") == true)
        let number = try ProviderFixture.edited(file, replacing: #""serie100Ingles":"463.50""#, with: #""serie100Ingles":463.50"#)
        #expect(error(number) == .invalidRate(currency: usd, day: Day("2026-03-24")!, text: "463.50"))
        let badDay = try ProviderFixture.edited(file, replacing: #""tituloIngles":"24 mar 2026""#, with: #""tituloIngles":"31 feb 2026""#)
        #expect(error(badDay) == .invalidDay("31 feb 2026"))
        let twice = try ProviderFixture.edited(file, replacing: #""tituloIngles":"24 mar 2026""#, with: #""tituloIngles":"23 mar 2026""#)
        #expect(error(twice) == .duplicateDay(Day("2026-03-23")!))
    }

    @Test("rejects another table, a row twice or missing, a truncated body, an HTML error page and an empty body")
    func notTheTable() throws {
        let group = try ProviderFixture.edited(file, replacing: #""codGrupoVariablePublicado":1,"#, with: #""codGrupoVariablePublicado":2,"#)
        #expect(error(group)?.isLayout(of: "BCCR") == true)
        let sellTwice = try ProviderFixture.edited(file, replacing: #""idIndicador":317"#, with: #""idIndicador":318"#)
        #expect(error(sellTwice)?.isLayout(of: "BCCR") == true)
        let other = try ProviderFixture.edited(file, replacing: #""idIndicador":317"#, with: #""idIndicador":319"#)
        #expect(error(other)?.isLayout(of: "BCCR") == true)
        let bytes = try ProviderFixture.bytes(file)
        for prefix in ProviderFixture.truncations(of: bytes, stride: 523) {
            #expect(error(prefix)?.isLayout(of: "BCCR") == true, "prefix of \(prefix.count) bytes")
        }
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BCCR") == true)
        #expect(error([]) == .empty)
        let noColumns = Array(#"{"informacionDelCuadro":{"codGrupoVariablePublicado":1},"columnas":[{"field":"nombre"}],"indicadoresRaiz":[{"idIndicador":317,"series":{}},{"idIndicador":318,"series":{}}]}"#.utf8)
        #expect(error(noColumns) == .empty)
    }

    @Test("the recording imports as an answer of the adapter's")
    func imports() throws {
        let publications = try ProviderFile.read([try ProviderFixture.bytes(file)], provider: provider, today: Day("2026-03-24")!)
        #expect(publications.count == 100)
    }
}
