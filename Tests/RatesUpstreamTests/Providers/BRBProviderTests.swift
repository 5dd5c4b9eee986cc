import Foundation
import RatesCore
@testable import RatesUpstream
import RatesTestFixtures
import Testing

@Suite("BRB adapter")
struct BRBProviderTests {
    let provider = BRBProvider()
    let page = "brb-burundi/00_affichagetoustauxchange.html"
    let may20 = "brb-burundi/01_Cours_20de_20change_20du_2020-05-2026.pdf"
    let may21 = "brb-burundi/02_Cours_20de_20change_20du_2021-05-2026.pdf"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    /// A bulletin of the BRB's layout made in the test, its dollar row's cells as given.
    func bulletin(date: String = "EN DATE DU 20 MAI  2026", dollar: [String] = ["1 Dollar USA", "2965,9907", "2989,9100", "3013,8293"]) -> [UInt8] {
        let columns = [54.0, 240, 344, 448]
        return PDFFixture.file([
            .init(x: 148, y: 695, text: "C O U R S  O F F I C I E L S  D E S  C H A N G E S "),
            .init(x: 202, y: 665, text: date),
            .init(x: 60, y: 634, text: "MONNAIES ETRANGERES"), .init(x: 217, y: 634, text: "     Acheteur"),
            .init(x: 305, y: 634, text: "  Cours moyen jour"), .init(x: 427, y: 634, text: "     Vendeur"),
        ] + zip(columns, dollar).map { PDFFixture.Line(x: $0, y: 515, text: $1) })
    }

    @Test("reads the bulletin of 20 May 2026: 18 currencies and the SDR, the Cours moyen jour in francs per unit, decimal comma to point")
    func readsMay20() throws {
        let publications = try parse(ProviderFixture.bytes(may20))
        #expect(publications.map(\.day) == [Day("2026-05-20")!])
        let day = try #require(publications.first)
        #expect(day.codes == [
            "AUD", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "JPY", "KES", "KWD", "NOK", "RWF", "SAR", "SEK", "TZS", "UGX", "USD", "XDR", "ZAR",
        ])
        #expect(day["USD"] == quote("USD", "2989.9100"))
        #expect(day["XDR"] == quote("XDR", "4087.0963"))
        #expect(day["JPY"] == quote("JPY", "18.8068"))
        #expect(day["CNY"] == quote("CNY", "439.1464"))  // its buying rate has more decimals (435,633255)
        #expect(day["UGX"] == quote("UGX", "0.7933"))
        #expect(day["TZS"] == quote("TZS", "1.1448"))
    }

    @Test("reads the bulletin of 21 May 2026, written with a decimal point")
    func readsMay21() throws {
        let publications = try parse(ProviderFixture.bytes(may21))
        #expect(publications.map(\.day) == [Day("2026-05-21")!])
        #expect(publications.first?.quotes.count == 19)
        #expect(publications.first?["CAD"] == quote("CAD", "2172.4022"))
        #expect(publications.first?["DKK"] == quote("DKK", "465.0146"))
    }

    @Test("imports a lone bulletin file: its own text dates it")
    func importsLoneBulletin() throws {
        let publications = try provider.publications(inFiles: [Fixtures.url(may21)], subjects: [], today: Day("2026-05-24")!)
        #expect(publications.map(\.day) == [Day("2026-05-21")!])
        #expect(publications.first?.quotes.count == 19)
    }

    @Test("reads the page's list for each day's bulletin; without the page, the last known bulletin")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://www.brb.bi/en/affichagetoustauxchange"))
        let session = ProviderSession(body: try ProviderFixture.bytes(page))
        let folder = "https://www.brb.bi/sites/default/files/2026-05/Cours%20de%20change%20du%20"
        #expect(try provider.requests(for: .range(Day("2026-05-20")!, Day("2026-05-21")!), session: session).map(\.url) == [
            folder + "20-05-2026.pdf", folder + "21-05-2026.pdf",
        ])
        #expect(try provider.requests(for: .latest, session: session).map(\.url) == [folder + "22-05-2026.pdf"])
        #expect(try provider.requests(for: .range(Day("2026-05-16")!, Day("2026-05-17")!), session: session).isEmpty)
        let local = BRBProvider(baseURL: "http://127.0.0.1:9/brb")
        #expect(try local.requests(for: .latest, session: session).map(\.url) == ["http://127.0.0.1:9/brb/sites/default/files/2026-05/Cours%20de%20change%20du%2022-05-2026.pdf"])
        #expect(provider.requests(for: .latest).map(\.url) == [folder + "22-05-2026.pdf"])
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("a bulletin of the same layout made in the test reads; an unknown currency, a figure that is not a decimal and a bad date are rejected")
    func alteredBulletin() throws {
        let publications = try parse(bulletin())
        #expect(publications == [ProviderPublication(day: Day("2026-05-20")!, quotes: [quote("USD", "2989.9100")])])
        let unknown = bulletin(dollar: ["1 Dollar Martien", "2965,9907", "2989,9100", "3013,8293"])
        #expect(ProviderFixture.error(unknown, provider)?.isLayout(of: "BRB") == true)
        let figure = bulletin(dollar: ["1 Dollar USA", "2965,9907", "2989,91x0", "3013,8293"])
        #expect(ProviderFixture.error(figure, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-05-20")!, text: "2989,91x0"))
        let vendeur = bulletin(dollar: ["1 Dollar USA", "2965,9907", "2989,9100", "3013;8293"])
        #expect(ProviderFixture.error(vendeur, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-05-20")!, text: "3013;8293"))
        let twoFigures = bulletin(dollar: ["1 Dollar USA", "2965,9907", "2989,9100"])
        #expect(ProviderFixture.error(twoFigures, provider)?.isLayout(of: "BRB") == true)
        #expect(ProviderFixture.error(bulletin(date: "EN DATE DU 31 FEVRIER 2026"), provider)?.isLayout(of: "BRB") == true)
    }

    @Test("a bulletin cut short, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        for fraction in [0.2, 0.5, 0.9] {
            #expect(ProviderFixture.error(try ProviderFixture.truncated(may20, fraction: fraction), provider)?.isLayout(of: "BRB") == true)
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "BRB") == true)
        #expect(ProviderFixture.error([], provider)?.isLayout(of: "BRB") == true)
    }
}
