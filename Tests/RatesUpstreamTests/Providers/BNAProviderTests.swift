import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("BNA adapter")
struct BNAProviderTests {
    let provider = BNAProvider(today: { Day("2026-05-22")! })
    let list = "bna-angola/00_service_rest_taxas_get_lista_moedas.json"
    let everything = "bna-angola/02_o_taxa_intervalo_datafim=2026-05-21_datainicio=2026-05-18_moeda=ALL_tipocambio=M.json"

    /// The recorded answers for each currency asked for, by code.
    func files() throws -> [String: String] {
        let folder = Fixtures.url("bna-angola")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.contains("_moeda=") {
            let code = String(name.split(separator: "=")[3].prefix(3))
            files[code] = "bna-angola/" + name
        }
        return files
    }

    func request(_ code: String) -> ProviderRequest {
        provider.requests(for: .range(Day("2026-05-18")!, Day("2026-05-21")!)).first { $0.subject == code }!
    }

    func parse(_ name: String, as code: String = "USD") throws -> [ProviderPublication] {
        try provider.parse(try ProviderFixture.bytes(name), of: request(code))
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? { ProviderFixture.error(body, provider, request: request("USD")) }

    @Test("the bank's list gives one request per currency, 65 of 73 listed, the skipped codes left out")
    func requestsFromTheList() throws {
        let session = ProviderSession(body: try ProviderFixture.bytes(list))
        #expect(provider.sessionRequest(for: .latest)?.url == "https://www.bna.ao/service/rest/taxas/get/lista/moedas")
        let requests = try provider.requests(for: .range(Day("2026-05-18")!, Day("2026-05-21")!), session: session)
        #expect(requests.map(\.subject) == BNAProvider.currencies.map { Optional($0) })
        #expect(requests.count == 65)
        #expect(requests[0].url == "https://www.bna.ao/service/rest/taxas/get/evolucao/taxa/intervalo?datafim=2026-05-21&datainicio=2026-05-18&moeda=AED&tipocambio=M")
        #expect(provider.requests(for: .latest).last?.url
            == "https://www.bna.ao/service/rest/taxas/get/evolucao/taxa/intervalo?datafim=2026-05-22&datainicio=2026-05-15&moeda=ZAR&tipocambio=M")
        #expect(requests.allSatisfy { $0.method == .get && $0.body == nil })
        let noList = Array(#"{"genericResponse":[{"idMoeda":73,"designacaoMoeda":"KWANZA","codigoMoeda":"AOA"}]}"#.utf8)
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: noList)) }
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("reads 19–21 May 2026 from every currency's answer: 64 currencies a day, AOA per unit as written")
    func readsEveryAnswer() throws {
        var parts: [[ProviderPublication]] = []
        for (code, name) in try files() where !["EEK", "HRK", "STD", "VEF", "ZMK"].contains(code) {
            parts.append(try parse(name, as: code))
        }
        #expect(parts.count == 65)
        let days = Dictionary(grouping: parts.joined(), by: \.day).mapValues { Set($0.flatMap(\.quotes)) }
        #expect(days.keys.sorted().map(\.description) == ["2026-05-19", "2026-05-20", "2026-05-21"])
        #expect(days.values.allSatisfy { $0.count == 64 })
        let usd = try parse(try files()["USD"]!)
        #expect(usd.map(\.day.description) == ["2026-05-19", "2026-05-20", "2026-05-21"])
        #expect(usd[0]["USD"] == quote("USD", "913.116"))
        #expect(ProviderFixture.quote("EUR", on: "2026-05-20", in: try parse(try files()["EUR"]!, as: "EUR")) == quote("EUR", "1059.032"))
    }

    @Test("asked for the lek (moeda=ALL), the service answers every currency: 64 read a day, the skipped codes left out")
    func theLekAnswersAll() throws {
        let publications = try parse(everything, as: "ALL")
        #expect(publications.map(\.day.description) == ["2026-05-19", "2026-05-20", "2026-05-21"])
        #expect(publications.allSatisfy { $0.quotes.count == 64 })
        for code in ["XDR", "XAU", "EEK", "HRK", "ZMK", "STD", "VEF", "AOA", "SDG"] { #expect(publications[0][code] == nil, "\(code)") }
        #expect(publications[0]["ZAR"] == quote("ZAR", "54.8171"))
        #expect(publications[0]["CVE"] == quote("CVE", "9.64023"))
        #expect(publications[0]["ALL"] != nil)
    }

    @Test("a figure printed with an exponent, as the service prints doubles below 0.001, is written out")
    func exponent() throws {
        // LBP's 0.0102 of 19 May printed as Java prints a double below 10^-3 (and, for the test, 0.0102 itself so printed).
        let small = try ProviderFixture.edited(everything, replacing: "\"taxa\":0.0102", with: "\"taxa\":7.0E-4")
        #expect(try provider.parse(small, of: request("ALL")).first?["LBP"] == quote("LBP", "0.00070"))
        let same = try ProviderFixture.edited(everything, replacing: "\"taxa\":0.0102", with: "\"taxa\":1.02E-2")
        #expect(try provider.parse(same, of: request("ALL")).first?["LBP"] == quote("LBP", "0.0102"))
        let broken = try ProviderFixture.edited(everything, replacing: "\"taxa\":0.0102", with: "\"taxa\":1.02E-")
        #expect(ProviderFixture.error(broken, provider, request: request("ALL")) != nil)
    }

    @Test("no records, or only skipped ones, is no publication")
    func noPublication() throws {
        #expect(try parse(try files()["SDG"]!, as: "SDG").isEmpty)
        #expect(try parse(try files()["STD"]!, as: "USD").isEmpty)
    }

    @Test("another rate type, a figure that is not a positive number, a currency twice, a bad code or day reject the answer")
    func badRecords() throws {
        let day = Day("2026-05-19")!
        let buying = try ProviderFixture.edited(everything, replacing: "\"tipoCambio\":\"M\"", with: "\"tipoCambio\":\"B\"")
        #expect(error(buying)?.isLayout(of: "BNA") == true)
        let zero = try ProviderFixture.edited(everything, replacing: "\"taxa\":663.98778", with: "\"taxa\":0")
        #expect(error(zero) == .invalidRate(currency: CurrencyCode("CAD")!, day: day, text: "0"))
        let text = try ProviderFixture.edited(everything, replacing: "\"taxa\":663.98778", with: "\"taxa\":\"663,98778\"")
        #expect(error(text)?.isLayout(of: "BNA") == true)
        let twice = try ProviderFixture.edited(everything, replacing: "\"codigoMoeda\":\"CHF\"", with: "\"codigoMoeda\":\"CAD\"")
        #expect(error(twice) == .duplicateCurrency(CurrencyCode("CAD")!, day: day))
        let code = try ProviderFixture.edited(everything, replacing: "\"codigoMoeda\":\"CHF\"", with: "\"codigoMoeda\":\"Chf\"")
        #expect(error(code) == .invalidCurrencyCode("Chf", day: day))
        let badDay = try ProviderFixture.edited(everything, replacing: "\"data\":\"2026-05-19\"", with: "\"data\":\"2026-13-19\"")
        #expect(error(badDay) == .invalidDay("2026-13-19"))
        let failed = try ProviderFixture.edited(everything, replacing: "\"success\":true", with: "\"success\":false")
        #expect(error(failed)?.isLayout(of: "BNA") == true)
    }

    @Test("a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        #expect(error(try ProviderFixture.truncated(everything))?.isLayout(of: "BNA") == true)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(try files()["USD"]!), stride: 31) {
            #expect(error(cut) != nil, "a cut at \(cut.count) bytes parsed")
        }
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BNA") == true)
        #expect(error([]) == .empty)
    }
}
