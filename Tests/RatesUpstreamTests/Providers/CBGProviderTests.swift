import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("CBG adapter")
struct CBGProviderTests {
    let provider = CBGProvider(today: { Day("2026-05-24")! })
    let recorded = [
        "USD", "EUR", "GBP", "CHF", "SEK", "CAD", "XOF", "NOK", "DKK", "SAR", "JPY", "AUD", "TWD", "LKR", "THB", "PHP", "NZD", "AED", "KWD", "NGN",
        "HKD", "ZAR", "EGP", "CNY", "BRL", "INR", "GHS", "SLL", "TRY", "GNF", "XDR", "SGD",
    ]

    func file(_ code: String) -> String {
        let index = recorded.firstIndex(of: code)!
        return "cbg-gambia/" + (index < 10 ? "0" : "") + "\(index)_ajax_indicative-exchange-rates_\(code).json"
    }

    func request(_ code: String) -> ProviderRequest { ProviderRequest(url: "\(CBGProvider.defaultBaseURL)/\(code)", headers: ["Accept": "application/json"], subject: code) }

    func parse(_ code: String) throws -> [ProviderPublication] {
        try provider.parse(try ProviderFixture.bytes(file(code)), of: request(code))
    }

    func error(_ code: String, _ body: [UInt8]) -> UpstreamDataError? { ProviderFixture.error(body, provider, request: request(code)) }

    @Test("reads each of the 29 currencies' whole archive, up to 22 May 2026")
    func readsEveryArchive() throws {
        for code in CBGProvider.currencies {
            let publications = try parse(code)
            #expect(publications.last?.day.description == "2026-05-22", "\(code)")
            #expect(publications.allSatisfy { $0.codes == [code] })
        }
        let usd = try parse("USD")
        #expect(usd.first?.day.description == "2000-01-07")
        // 1778 entries, 7 days given twice, 6 of them with two different figures.
        #expect(usd.count == 1765)
    }

    @Test("figures are GMD per unit as written, per 100 for JPY, SEK and NOK")
    func figures() throws {
        #expect(ProviderFixture.quote("USD", on: "2026-05-22", in: try parse("USD")) == quote("USD", "72.39"))
        #expect(ProviderFixture.quote("USD", on: "2026-05-21", in: try parse("USD")) == quote("USD", "72.84"))
        #expect(ProviderFixture.quote("JPY", on: "2026-05-22", in: try parse("JPY")) == quote("JPY", "45.47", unit: 100))
        #expect(ProviderFixture.quote("SEK", on: "2026-05-22", in: try parse("SEK")) == quote("SEK", "771.61", unit: 100))
        #expect(ProviderFixture.quote("GNF", on: "2026-05-22", in: try parse("GNF")) == quote("GNF", "0.01"))
        #expect(ProviderFixture.quote("XDR", on: "2026-05-22", in: try parse("XDR")) == quote("XDR", "98.9"))
    }

    @Test("a day given two different figures is left out, a repeat of one figure read once, a zero is no figure")
    func archiveDefects() throws {
        let gbp = try parse("GBP")
        #expect(ProviderFixture.quote("GBP", on: "2026-04-16", in: gbp) == nil)
        #expect(ProviderFixture.quote("USD", on: "2015-08-27", in: try parse("USD")) == nil)
        let lkr = try parse("LKR")
        #expect(lkr.count == Set(lkr.map(\.day)).count)
        let twice = Array(#"[[1779408000000,72.39],[1779408000000,72.39],[1779321600000,72.84],[1779321600000,0]]"#.utf8)
        #expect(try provider.parse(twice, of: request("USD")).map { $0.quotes[0].value } == ["72.84", "72.39"])
    }

    @Test("one request per currency, the same for any window")
    func requests() {
        let latest = provider.requests(for: .latest)
        #expect(latest.map(\.subject) == CBGProvider.currencies)
        #expect(latest.first?.url == "https://www.cbg.gm/ajax/indicative-exchange-rates/USD")
        #expect(provider.requests(for: .range(Day("2026-05-18")!, Day("2026-05-22")!)) == latest)
        #expect(latest.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(!CBGProvider.currencies.contains("XOF") && !CBGProvider.currencies.contains("SLL") && !CBGProvider.currencies.contains("DKK"))
    }

    @Test("a negative figure, a figure as text, a time not at midnight, a malformed pair or an unknown subject rejects the answer")
    func badEntries() throws {
        let negative = try ProviderFixture.edited(file("USD"), replacing: "[1779408000000,72.39]", with: "[1779408000000,-72.39]")
        #expect(error("USD", negative) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-05-22")!, text: "-72.39"))
        let text = try ProviderFixture.edited(file("USD"), replacing: "[1779408000000,72.39]", with: "[1779408000000,\"72.39\"]")
        #expect(error("USD", text)?.isLayout(of: "CBG") == true)
        let noon = try ProviderFixture.edited(file("USD"), replacing: "[1779408000000,72.39]", with: "[1779451200000,72.39]")
        #expect(error("USD", noon)?.isLayout(of: "CBG") == true)
        let triple = try ProviderFixture.edited(file("USD"), replacing: "[1779408000000,72.39]", with: "[1779408000000,72.39,1]")
        #expect(error("USD", triple)?.isLayout(of: "CBG") == true)
        let unknown = ProviderRequest(url: CBGProvider.defaultBaseURL + "/XOF", subject: "XOF")
        #expect(ProviderFixture.error(try ProviderFixture.bytes(file("USD")), provider, request: unknown)?.isLayout(of: "CBG") == true)
    }

    @Test("a truncated body, an HTML error page, an empty body and an empty archive are rejected")
    func brokenBodies() throws {
        #expect(error("USD", try ProviderFixture.truncated(file("USD")))?.isLayout(of: "CBG") == true)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file("THB")), stride: 997) {
            #expect(error("THB", cut) != nil, "a cut at \(cut.count) bytes parsed")
        }
        #expect(error("USD", ProviderFixture.htmlErrorPage)?.isLayout(of: "CBG") == true)
        #expect(error("USD", []) == .empty)
        #expect(error("USD", Array("[]".utf8)) == .empty)
    }
}
