import Foundation
import RatesCore
@testable import RatesUpstream
import RatesTestFixtures
import Testing

@Suite("BSP adapter")
struct BSPProviderTests {
    let provider = BSPProvider()
    let list = "bsp-philippines/00_items__expand=AttachmentFiles__orderby=Id_20desc__select=Id_Title_AttachmentFile.json"
    let may28 = "bsp-philippines/01_28May2026.pdf"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    /// A bulletin of the BSP's layout made in the test, its dollar row's cells as given.
    func bulletin(dollar: [String] = ["1", "UNITED STATES", "DOLLAR", "USD", "0.859771", "1.000000", "61.5820"]) -> [UInt8] {
        let columns = [19.0, 28, 213, 300, 387, 450, 520]
        return PDFFixture.file([
            .init(x: 200, y: 764, text: "REFERENCE EXCHANGE RATE BULLETIN"), .init(x: 250, y: 751, text: "28 May 2026"),
            .init(x: 386, y: 738, text: "EURO"), .init(x: 440, y: 738, text: "U.S.DOLLAR"), .init(x: 500, y: 738, text: "PHIL.PESO"),
        ] + zip(columns, dollar).map { PDFFixture.Line(x: $0, y: 699, text: $1) })
    }

    @Test("reads the bulletin of 28 May 2026: 31 currencies' PHIL.PESO figures per unit; Kuwait's N/A row skipped")
    func readsMay28() throws {
        let publications = try parse(ProviderFixture.bytes(may28))
        #expect(publications.map(\.day) == [Day("2026-05-28")!])
        let day = try #require(publications.first)
        #expect(day.quotes.count == 31)
        #expect(day["USD"] == quote("USD", "61.5820"))
        #expect(day["JPY"] == quote("JPY", "0.3862"))
        #expect(day["EUR"] == quote("EUR", "71.6260"))
        #expect(day["CNY"] == quote("CNY", "9.0838"))  // placed further right than the others
        #expect(day["IDR"] == quote("IDR", "0.0034"))
        #expect(day["VES"] == quote("VES", "0.1134"))
        #expect(day["KWD"] == nil)
        #expect(day.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits })
    }

    @Test("imports a lone bulletin file: its own text dates it")
    func importsLoneBulletin() throws {
        let publications = try provider.publications(inFiles: [Fixtures.url(may28)], subjects: [], today: Day("2026-06-01")!)
        #expect(publications.map(\.day) == [Day("2026-05-28")!])
        #expect(publications.first?["USD"]?.value == "61.5820")
    }

    @Test("reads the SharePoint list for each day's attachment; without the list, the last known bulletin")
    func requests() throws {
        let listURL = "https://www.bsp.gov.ph/_api/web/lists/getByTitle('RERB')/items?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100"
        #expect(provider.sessionRequest(for: .latest)?.url == listURL)
        let session = ProviderSession(body: try ProviderFixture.bytes(list))
        #expect(try provider.requests(for: .range(Day("2026-05-27")!, Day("2026-05-28")!), session: session).map(\.url) == [
            "https://www.bsp.gov.ph/Lists/RERB/Attachments/2281/28May2026.pdf"
        ])
        #expect(try provider.requests(for: .latest, session: session).map(\.url) == ["https://www.bsp.gov.ph/Lists/RERB/Attachments/2283/01Jun2026.pdf"])
        #expect(try provider.requests(for: .range(Day("2026-05-20")!, Day("2026-05-22")!), session: session).count == 3)
        #expect(provider.requests(for: .latest).map(\.url) == ["https://www.bsp.gov.ph/Lists/RERB/Attachments/2283/01Jun2026.pdf"])
        #expect(BSPProvider.day("1Jun2026") == Day("2026-06-01"))
        #expect(BSPProvider.day("28 May 2026") == nil)
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("a bulletin of the same layout made in the test reads; a symbol that is no currency, a figure that is not a decimal and a short row are rejected")
    func alteredBulletin() throws {
        #expect(try parse(bulletin()) == [ProviderPublication(day: Day("2026-05-28")!, quotes: [quote("USD", "61.5820")])])
        let symbol = bulletin(dollar: ["1", "UNITED STATES", "DOLLAR", "US$", "0.859771", "1.000000", "61.5820"])
        #expect(ProviderFixture.error(symbol, provider)?.isLayout(of: "BSP") == true)
        let figure = bulletin(dollar: ["1", "UNITED STATES", "DOLLAR", "USD", "0.859771", "1.000000", "61.58x0"])
        #expect(ProviderFixture.error(figure, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-05-28")!, text: "61.58x0"))
        let short = bulletin(dollar: ["1", "UNITED STATES", "USD", "61.5820"])
        #expect(ProviderFixture.error(short, provider)?.isLayout(of: "BSP") == true)
    }

    @Test("a bulletin cut short, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        for fraction in [0.2, 0.5, 0.9] {
            #expect(ProviderFixture.error(try ProviderFixture.truncated(may28, fraction: fraction), provider)?.isLayout(of: "BSP") == true)
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "BSP") == true)
        #expect(ProviderFixture.error([], provider)?.isLayout(of: "BSP") == true)
    }
}
