import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BCRA adapter")
struct BCRAProviderTests {
    let provider = BCRAProvider(today: { Day("2026-03-22")! })
    let file = "bcra-argentina/00_estadisticascambiarias_v1.0_Cotizaciones_fecha=2026-03-19.json"

    func parse(_ body: [UInt8]? = nil) throws -> [ProviderPublication] {
        try provider.parse(try body ?? ProviderFixture.bytes(file), of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? { ProviderFixture.error(body, provider) }

    @Test("reads 19 Mar 2026: 33 currencies, the offshore yuan (CNH) among them; the peso, REF, metals, MXP and VEB skipped")
    func readsOneDay() throws {
        let publications = try parse()
        #expect(publications.map(\.day.description) == ["2026-03-19"])
        #expect(publications[0].quotes.count == 33)
        for code in ["ARS", "REF", "XAU", "XAG", "MXP", "VEB"] { #expect(publications[0][code] == nil, "\(code)") }
        #expect(publications[0]["CNH"] == quote("CNH", "202.43003100"))
        #expect(publications[0]["XDR"] == quote("XDR", "1894.56770000"))
    }

    @Test("figures are tipoCotizacion as written, ARS per unit, VND per 1000 as its description says")
    func figures() throws {
        let publication = try parse()[0]
        #expect(publication["USD"] == quote("USD", "1394.50000000"))
        #expect(publication["EUR"] == quote("EUR", "1612.04200000"))
        #expect(publication["JPY"] == quote("JPY", "8.83489600"))
        #expect(publication["VND"] == quote("VND", "53.04096500", unit: 1000))
    }

    @Test("one request per weekday; latest is the weekdays of the last seven days")
    func requests() {
        let root = "https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones?fecha="
        #expect(provider.requests(for: .range(Day("2026-03-19")!, Day("2026-03-23")!)).map(\.url) == [root + "2026-03-19", root + "2026-03-20", root + "2026-03-23"])
        #expect(provider.requests(for: .latest).map(\.url) == ["2026-03-16", "2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20"].map { root + $0 })
        #expect(provider.requests(for: .latest).allSatisfy { $0.method == .get && $0.body == nil })
    }

    @Test("a zero figure is a currency listed but not quoted that day: left out, the rest read")
    func zeroIsNotQuoted() throws {
        // The bank writes 0 for what it lists without a figure (the peso, gold and silver in this recording).
        let zero = try ProviderFixture.edited(file, replacing: "\"tipoCotizacion\":983.81975000", with: "\"tipoCotizacion\":0.00000000")
        let publication = try #require(try parse(zero).first)
        #expect(publication["AUD"] == nil)
        #expect(publication.quotes.count == 32)
        #expect(publication["USD"] == quote("USD", "1394.50000000"))
    }

    @Test("a code with spaces around it, and a unit written without the thousands point, read as the same quote")
    func paddedCodeAndPlainUnit() throws {
        let whole = try parse()
        let padded = try ProviderFixture.edited(file, replacing: "\"codigoMoneda\":\"AUD\"", with: "\"codigoMoneda\":\"AUD \"")
        #expect(try parse(padded) == whole)
        let plain = try ProviderFixture.edited(file, replacing: "(C/1.000 UNIDADES)", with: "(C/1000 UNIDADES)")
        #expect(try parse(plain)[0]["VND"] == quote("VND", "53.04096500", unit: 1000))
    }

    @Test("a holiday's answer, fecha null and no quotations, is no publication")
    func holiday() throws {
        // The recording with its date set to null and its quotations taken out: the API's answer for a
        // day without quotations, `{"status":200,"results":{"fecha":null,"detalle":[]}}`.
        let bytes = try ProviderFixture.bytes(file)
        let text = try #require(String(validating: bytes, as: UTF8.self))
        let start = try #require(text.range(of: "\"detalle\":["))
        let end = try #require(text.range(of: "]", options: .backwards))
        let emptied = String(text[..<start.upperBound]) + String(text[end.lowerBound...])
        let holiday = try #require(ProviderFixture.replacing("\"fecha\":\"2026-03-19\"", with: "\"fecha\":null", in: Array(emptied.utf8)))
        #expect(try parse(holiday).isEmpty)
        // Quotations without a date are no holiday: rejected.
        let undated = try ProviderFixture.edited(file, replacing: "\"fecha\":\"2026-03-19\"", with: "\"fecha\":null")
        #expect(error(undated)?.isLayout(of: "BCRA") == true)
    }

    @Test("a figure that is not a positive number, a currency twice, a bad code, unit or day rejects the answer")
    func badQuotations() throws {
        let day = Day("2026-03-19")!
        let negative = try ProviderFixture.edited(file, replacing: "\"tipoCotizacion\":983.81975000", with: "\"tipoCotizacion\":-983.81975000")
        #expect(error(negative) == .invalidRate(currency: CurrencyCode("AUD")!, day: day, text: "-983.81975000"))
        let text = try ProviderFixture.edited(file, replacing: "\"tipoCotizacion\":983.81975000", with: "\"tipoCotizacion\":\"983,81975\"")
        #expect(error(text)?.isLayout(of: "BCRA") == true)
        let twice = try ProviderFixture.edited(file, replacing: "\"codigoMoneda\":\"AWG\"", with: "\"codigoMoneda\":\"AUD\"")
        #expect(error(twice) == .duplicateCurrency(CurrencyCode("AUD")!, day: day))
        let code = try ProviderFixture.edited(file, replacing: "\"codigoMoneda\":\"AWG\"", with: "\"codigoMoneda\":\"AW\"")
        #expect(error(code) == .invalidCurrencyCode("AW", day: day))
        let unit = try ProviderFixture.edited(file, replacing: "(C/1.000 UNIDADES)", with: "(C/1,000 UNIDADES)")
        #expect(error(unit)?.isLayout(of: "BCRA") == true)
        let notTen = try ProviderFixture.edited(file, replacing: "(C/1.000 UNIDADES)", with: "(C/3 UNIDADES)")
        #expect(error(notTen) == .invalidRate(currency: CurrencyCode("VND")!, day: day, text: "53.04096500"))
        let badDay = try ProviderFixture.edited(file, replacing: "\"fecha\":\"2026-03-19\"", with: "\"fecha\":\"2026-03-32\"")
        #expect(error(badDay) == .invalidDay("2026-03-32"))
    }

    @Test("an error status, a truncated body, an HTML error page and an empty body are rejected; no quotations is no publication")
    func brokenBodies() throws {
        #expect(error(Array(#"{"status":400,"errorMessages":["Fecha invalida"]}"#.utf8))?.isLayout(of: "BCRA") == true)
        #expect(error(try ProviderFixture.truncated(file))?.isLayout(of: "BCRA") == true)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file)) {
            #expect(error(cut) != nil, "a cut at \(cut.count) bytes parsed")
        }
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BCRA") == true)
        #expect(error([]) == .empty)
        #expect(try parse(Array(#"{"status":200,"results":{"fecha":"2026-03-21","detalle":[]}}"#.utf8)).isEmpty)
    }
}
