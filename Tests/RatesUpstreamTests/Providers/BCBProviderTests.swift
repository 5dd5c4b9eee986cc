import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BCB adapter")
struct BCBProviderTests {
    let provider = BCBProvider(today: { Day("2026-03-09")! })

    func file(_ code: String) -> String { "bcb-brazil/PTAX_CotacaoMoedaPeriodo_\(code)_2026-03-01_2026-03-06.json" }

    func request(_ code: String) -> ProviderRequest {
        provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-06")!)).first { $0.subject == code }!
    }

    func parse(_ code: String, _ body: [UInt8]? = nil) throws -> [ProviderPublication] {
        try provider.parse(try body ?? ProviderFixture.bytes(file(code)), of: request(code))
    }

    func error(_ code: String, _ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider, request: request(code))
    }

    @Test("reads the closing PTAX of 2–6 Mar 2026 for all 10 currencies: 5 days each, BRL per 1 unit")
    func readsAllCurrencies() throws {
        for code in BCBProvider.currencies {
            let publications = try parse(code)
            #expect(publications.map(\.day.description) == ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"], "\(code)")
            #expect(publications.allSatisfy { $0.quotes.count == 1 && $0.quotes[0].currency.rawValue == code })
            #expect(publications.allSatisfy { $0.quotes[0].unit == 1 && $0.quotes[0].direction == .pivotPerUnits })
        }
    }

    @Test("the figure is the exact midpoint of buying and selling, digits as written in the JSON")
    func midpoints() throws {
        func value(_ code: String, _ day: String) throws -> String? { ProviderFixture.quote(code, on: day, in: try parse(code))?.value }
        // 5.19950 / 5.20010
        #expect(try value("USD", "2026-03-02") == "5.19980")
        // 6.07250 / 6.07420
        #expect(try value("EUR", "2026-03-02") == "6.07335")
        // 7.06260 / 7.06500
        #expect(try value("GBP", "2026-03-06") == "7.06380")
        // 0.03296 / 0.03297: one digit more than published
        #expect(try value("JPY", "2026-03-02") == "0.032965")
        // 0.03355 / 0.03355
        #expect(try value("JPY", "2026-03-06") == "0.03355")
    }

    @Test("a rate that is not a positive number, or a number written as text, rejects the answer")
    func garbageRate() throws {
        let negative = try ProviderFixture.edited(file("USD"), replacing: "\"cotacaoVenda\":5.20010", with: "\"cotacaoVenda\":-5.20010")
        #expect(error("USD", negative) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-02")!, text: "-5.20010"))
        let zero = try ProviderFixture.edited(file("USD"), replacing: "\"cotacaoCompra\":5.19950", with: "\"cotacaoCompra\":0")
        #expect(error("USD", zero) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-02")!, text: "0"))
        let text = try ProviderFixture.edited(file("USD"), replacing: "\"cotacaoVenda\":5.20010", with: "\"cotacaoVenda\":\"5,20010\"")
        #expect(error("USD", text)?.isLayout(of: "BCB") == true)
        let badStamp = try ProviderFixture.edited(file("USD"), replacing: "\"2026-03-03 13:10:27.879\"", with: "\"2026-03-32 13:10:27.879\"")
        #expect(error("USD", badStamp) == .invalidDay("2026-03-32"))
    }

    @Test("an intermediate bulletin, or the same day twice, rejects the answer")
    func otherBulletins() throws {
        let intermediate = try ProviderFixture.edited(file("USD"), replacing: "\"tipoBoletim\":\"Fechamento\"", with: "\"tipoBoletim\":\"Intermediário\"")
        #expect(error("USD", intermediate)?.isLayout(of: "BCB") == true)
        let twice = try ProviderFixture.edited(file("USD"), replacing: "\"2026-03-03 13:10:27.879\"", with: "\"2026-03-02 13:10:27.879\"")
        #expect(error("USD", twice) == .duplicateDay(Day("2026-03-02")!))
    }

    @Test("an answer without quotations, a span of weekends and holidays only, is no publication")
    func noQuotations() throws {
        // The USD recording with its quotations taken out, its "@odata.context" kept.
        let text = try #require(String(validating: try ProviderFixture.bytes(file("USD")), as: UTF8.self))
        let start = try #require(text.range(of: "\"value\":["))
        let empty = String(text[..<start.upperBound]) + "]}"
        #expect(try parse("USD", Array(empty.utf8)).isEmpty)
    }

    @Test("a truncated body, an HTML error page, an empty body and an unknown subject are rejected")
    func brokenBodies() throws {
        #expect(error("USD", try ProviderFixture.truncated(file("USD")))?.isLayout(of: "BCB") == true)
        #expect(error("USD", ProviderFixture.htmlErrorPage)?.isLayout(of: "BCB") == true)
        #expect(error("USD", []) == .empty)
        let unknown = ProviderRequest(url: BCBProvider.defaultBaseURL, subject: "XAU")
        #expect(ProviderFixture.error(try ProviderFixture.bytes(file("USD")), provider, request: unknown)?.isLayout(of: "BCB") == true)
    }

    @Test("one request per currency for the closing bulletin: the last seven days for latest, MM-DD-YYYY bounds for a range")
    func requests() {
        let root = "https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)?"
        let filter = "&$filter=tipoBoletim%20eq%20%27Fechamento%27&$format=json"
        let latest = provider.requests(for: .latest)
        #expect(latest.map(\.subject) == BCBProvider.currencies)
        #expect(latest.last?.url == root + "@moeda=%27USD%27&@dataInicial=%2703-02-2026%27&@dataFinalCotacao=%2703-09-2026%27" + filter)
        #expect(request("EUR").url == root + "@moeda=%27EUR%27&@dataInicial=%2703-01-2026%27&@dataFinalCotacao=%2703-06-2026%27" + filter)
    }
}
