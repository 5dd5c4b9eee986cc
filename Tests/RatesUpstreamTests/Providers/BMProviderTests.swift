import Foundation
import RatesCore
@testable import RatesUpstream
import RatesTestFixtures
import Testing

@Suite("BM adapter")
struct BMProviderTests {
    let provider = BMProvider()
    let page = "bm-mozambique/01_2026-2025.html"
    let september2 = "bm-mozambique/02_taxas-de-c_C3_A2mbio-de-refer_C3_AAncia-do-mercado-cambial-do-dia-02092026.pdf"
    let september3 = "bm-mozambique/03_taxas-de-c_C3_A2mbio-de-refer_C3_AAncia-do-mercado-cambial-do-dia-03092026.pdf"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the bulletin of 2 September 2026: 20 currencies' MÉDIA in meticais per 1 or 1000 units, the dollar's row without its Dolar label")
    func readsSeptember2() throws {
        let publications = try parse(ProviderFixture.bytes(september2))
        #expect(publications.map(\.day) == [Day("2026-09-02")!])
        let day = try #require(publications.first)
        #expect(day.codes == [
            "BRL", "BWP", "CAD", "CHF", "CNH", "CNY", "DKK", "EUR", "GBP", "JPY", "MUR", "MWK", "NOK", "SEK", "SZL", "TZS", "USD", "ZAR", "ZMW", "ZWL",
        ])
        #expect(day["USD"] == quote("USD", "63.91"))
        #expect(day["ZAR"] == quote("ZAR", "3.97"))
        #expect(day["DKK"] == quote("DKK", "9.90"))  // trailing zero kept
        #expect(day["JPY"] == quote("JPY", "400.51", unit: 1000))
        #expect(day["MWK"] == quote("MWK", "37.22", unit: 1000))
        #expect(day["ZWL"] == quote("ZWL", "169.06", unit: 1000))
        #expect(day["CNH"] == quote("CNH", "9.51"))
        #expect(day["EUR"] == quote("EUR", "74.01"))
        #expect(day.quotes.filter { $0.unit == 1000 }.count == 4)
    }

    @Test("reads the bulletin of 3 September 2026, its dollar row labelled Dolar, dated by its title, not its signature line's next day")
    func readsSeptember3() throws {
        let publications = try parse(ProviderFixture.bytes(september3))
        #expect(publications.map(\.day) == [Day("2026-09-03")!])
        let day = try #require(publications.first)
        #expect(day.quotes.count == 20)
        #expect(day["USD"] == quote("USD", "63.91"))
        #expect(day["ZAR"] == quote("ZAR", "4.00"))
        #expect(day["JPY"] == quote("JPY", "410.81", unit: 1000))
        #expect(day["CHF"] == quote("CHF", "79.20"))
    }

    @Test("imports a lone bulletin file: its own text dates it")
    func importsLoneBulletin() throws {
        let publications = try provider.publications(inFiles: [Fixtures.url(september2)], subjects: [], today: Day("2026-09-09")!)
        #expect(publications.map(\.day) == [Day("2026-09-02")!])
        #expect(publications.first?["USD"]?.value == "63.91")
        #expect(publications.first?.quotes.count == 20)
    }

    @Test("reads the bulletins' page for each day's PDF, percent-encoding the accented names; without the page, the last known bulletin")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://www.bancomoc.mz/pt/tabelas-de-taxas-de-cambio-de-referencia-diarias/2026-2025/"))
        let session = ProviderSession(body: try ProviderFixture.bytes(page))
        let base = "https://www.bancomoc.mz/media/"
        #expect(try provider.requests(for: .range(Day("2026-09-02")!, Day("2026-09-03")!), session: session).map(\.url) == [
            base + "prubk0qz/taxas-de-c%C3%A2mbio-de-refer%C3%AAncia-do-mercado-cambial-do-dia-02092026.pdf",
            base + "ywgh5jwm/taxas-de-c%C3%A2mbio-de-refer%C3%AAncia-do-mercado-cambial-do-dia-03092026.pdf",
        ])
        #expect(try provider.requests(for: .latest, session: session).map(\.url) == [
            base + "ri4byo1g/taxas-de-c%C3%A2mbio-de-refer%C3%AAncia-do-mercado-cambial-do-dia-08092026.pdf"
        ])
        #expect(try provider.requests(for: .range(Day("2026-09-05")!, Day("2026-09-07")!), session: session).isEmpty)
        #expect(provider.requests(for: .latest).map(\.url) == ["https://www.bancomoc.mz" + BMProvider.lastKnownPath])
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("a row of figures naming no currency known, a figure that is not a decimal, and a title without a day are rejected")
    func alteredBulletin() throws {
        // The text is hexadecimal Latin-1: `Botswana` becomes `Botswanx`, `63,91` becomes `63;91`, `Setembro` becomes `Setembrx`.
        let unknown = try ProviderFixture.edited(september2, replacing: "426F747377616E61", with: "426F747377616E78")
        #expect(ProviderFixture.error(unknown, provider)?.isLayout(of: "BM") == true)
        let figure = try ProviderFixture.edited(september2, replacing: "<202020202036332C3931>", with: "<202020202036333B3931>")
        #expect(ProviderFixture.error(figure, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-09-02")!, text: "63;91"))
        let month = try ProviderFixture.edited(september2, replacing: "<536574656D62726F>", with: "<536574656D627278>")
        #expect(ProviderFixture.error(month, provider)?.isLayout(of: "BM") == true)
    }

    @Test("a bulletin cut short, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        for fraction in [0.2, 0.5, 0.9] {
            #expect(ProviderFixture.error(try ProviderFixture.truncated(september2, fraction: fraction), provider)?.isLayout(of: "BM") == true)
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "BM") == true)
        #expect(ProviderFixture.error([], provider)?.isLayout(of: "BM") == true)
    }
}
