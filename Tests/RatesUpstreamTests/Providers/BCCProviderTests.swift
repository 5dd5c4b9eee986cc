import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BCC adapter")
struct BCCProviderTests {
    let provider = BCCProvider(today: { Day("2026-05-24")! })
    let files = [
        "AUD": "00", "CAD": "01", "CHF": "02", "CNY": "03", "DKK": "04", "EUR": "05", "GBP": "06", "JPY": "07", "MXN": "08", "NOK": "09",
        "RUB": "10", "SEK": "11", "USD": "12",
    ]

    func file(_ code: String) -> String {
        "bcc-cuba/\(files[code]!)_-de-cambio_historico_codigoMoneda=\(code)_fechaFin=2026-05-22_fechaInicio=2026-05-19.json"
    }

    func request(_ code: String) -> ProviderRequest {
        provider.requests(for: .range(Day("2026-05-19")!, Day("2026-05-22")!)).first { $0.subject == code }!
    }

    func parse(_ code: String) throws -> [ProviderPublication] {
        try provider.parse(try ProviderFixture.bytes(file(code)), of: request(code))
    }

    func error(_ code: String, _ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider, request: request(code))
    }

    @Test("reads 19–22 May 2026 for all 13 currencies: four days each, segment III as written")
    func readsAllCurrencies() throws {
        for code in BCCProvider.currencies {
            let publications = try parse(code)
            #expect(publications.map(\.day.description) == ["2026-05-19", "2026-05-20", "2026-05-21", "2026-05-22"], "\(code)")
            #expect(publications.allSatisfy { $0.codes == [code] })
        }
        #expect(ProviderFixture.quote("USD", on: "2026-05-19", in: try parse("USD")) == quote("USD", "502"))
        #expect(ProviderFixture.quote("AUD", on: "2026-05-20", in: try parse("AUD")) == quote("AUD", "360.65445"))
        #expect(ProviderFixture.quote("EUR", on: "2026-05-22", in: try parse("EUR")) == quote("EUR", "589.134"))
    }

    @Test("the yen is quoted as yen per peso, every other currency as pesos per unit")
    func yenTheOtherWay() throws {
        #expect(ProviderFixture.quote("JPY", on: "2026-05-19", in: try parse("JPY")) == quote("JPY", "0.31668", .unitsPerPivot))
        #expect(ProviderFixture.quote("RUB", on: "2026-05-19", in: try parse("RUB")) == quote("RUB", "6.92796"))
    }

    @Test("one request per currency with both days of a range; latest is the last seven days")
    func requests() {
        let root = "https://api.bc.gob.cu/v1/tasas-de-cambio/historico?codigoMoneda="
        #expect(request("AUD").url == root + "AUD&fechaFin=2026-05-22&fechaInicio=2026-05-19")
        let latest = provider.requests(for: .latest)
        #expect(latest.map(\.subject) == BCCProvider.currencies)
        #expect(latest.last?.url == root + "USD&fechaFin=2026-05-24&fechaInicio=2026-05-17")
        #expect(latest.allSatisfy { $0.method == .get && $0.body == nil })
    }

    @Test("a figure that is not a positive number, a day twice or a bad day rejects the answer; a null is no figure")
    func badRecords() throws {
        let day = Day("2026-05-19")!
        let negative = try ProviderFixture.edited(file("USD"), replacing: "\"tasaEspecial\":502", with: "\"tasaEspecial\":-502")
        #expect(error("USD", negative) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "-502"))
        let zero = try ProviderFixture.edited(file("USD"), replacing: "\"tasaEspecial\":502", with: "\"tasaEspecial\":0")
        #expect(error("USD", zero) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "0"))
        let text = try ProviderFixture.edited(file("USD"), replacing: "\"tasaEspecial\":502", with: "\"tasaEspecial\":\"502\"")
        #expect(error("USD", text)?.isLayout(of: "BCC") == true)
        let twice = try ProviderFixture.edited(file("USD"), replacing: "\"fecha\":\"2026-05-20\"", with: "\"fecha\":\"2026-05-19\"")
        #expect(error("USD", twice) == .duplicateDay(day))
        let badDay = try ProviderFixture.edited(file("USD"), replacing: "\"fecha\":\"2026-05-20\"", with: "\"fecha\":\"2026-05-40\"")
        #expect(error("USD", badDay) == .invalidDay("2026-05-40"))
        let missing = try ProviderFixture.edited(file("USD"), replacing: "\"tasaEspecial\":502", with: "\"tasaEspecial\":null")
        #expect(try provider.parse(missing, of: request("USD")).map(\.day.description) == ["2026-05-20", "2026-05-21", "2026-05-22"])
    }

    @Test("a truncated body, an HTML error page, an empty body, an empty array and an unknown subject are rejected")
    func brokenBodies() throws {
        #expect(error("USD", try ProviderFixture.truncated(file("USD")))?.isLayout(of: "BCC") == true)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file("EUR")), stride: 17) {
            #expect(error("EUR", cut) != nil, "a cut at \(cut.count) bytes parsed")
        }
        #expect(error("USD", ProviderFixture.htmlErrorPage)?.isLayout(of: "BCC") == true)
        #expect(error("USD", []) == .empty)
        #expect(error("USD", Array("[]".utf8)) == .empty)
        let unknown = ProviderRequest(url: BCCProvider.defaultBaseURL, subject: "XAU")
        #expect(ProviderFixture.error(try ProviderFixture.bytes(file("USD")), provider, request: unknown)?.isLayout(of: "BCC") == true)
    }
}
