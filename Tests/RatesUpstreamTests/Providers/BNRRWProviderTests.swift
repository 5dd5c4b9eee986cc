import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BNRRW adapter")
struct BNRRWProviderTests {
    let provider = BNRRWProvider(today: { Day("2026-05-24")! })

    func file(_ code: String) -> String {
        let index = BNRRWProvider.currencies.firstIndex(of: code)!
        return "bnr-rwanda/" + (index < 10 ? "0" : "") + "\(index)_currency_history_currency_name=\(code)_end_date=2026-05-22_start_date=2026-05-19.json"
    }

    func request(_ code: String) -> ProviderRequest {
        provider.requests(for: .range(Day("2026-05-19")!, Day("2026-05-22")!)).first { $0.subject == code }!
    }

    func parse(_ code: String, as subject: String? = nil) throws -> [ProviderPublication] {
        try provider.parse(try ProviderFixture.bytes(file(code)), of: request(subject ?? code))
    }

    func error(_ code: String, _ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider, request: request(code))
    }

    @Test("reads 19–22 May 2026 for all 16 currencies: four days each, in day order")
    func readsAllCurrencies() throws {
        for code in BNRRWProvider.currencies {
            let publications = try parse(code)
            #expect(publications.map(\.day.description) == ["2026-05-19", "2026-05-20", "2026-05-21", "2026-05-22"], "\(code)")
            #expect(publications.allSatisfy { $0.codes == [code] })
        }
    }

    @Test("figures are the average rate as written, RWF per 1 unit")
    func figures() throws {
        #expect(ProviderFixture.quote("USD", on: "2026-05-19", in: try parse("USD")) == quote("USD", "1463.065"))
        #expect(ProviderFixture.quote("USD", on: "2026-05-22", in: try parse("USD")) == quote("USD", "1463.3525"))
        #expect(ProviderFixture.quote("JPY", on: "2026-05-20", in: try parse("JPY")) == quote("JPY", "9.209145"))
        #expect(ProviderFixture.quote("BIF", on: "2026-05-20", in: try parse("BIF")) == quote("BIF", "0.490891"))
        let grouped = try ProviderFixture.edited(file("USD"), replacing: "\"average_rate\":\"1463.065\"", with: "\"average_rate\":\"1,463.065\"")
        #expect(try provider.parse(grouped, of: request("USD"))[0]["USD"] == quote("USD", "1463.065"))
    }

    @Test("an answer for another currency than the one asked for is rejected")
    func currencyChecked() throws {
        #expect(ProviderFixture.error { try parse("EUR", as: "USD") }?.isLayout(of: "BNRRW") == true)
        #expect(try provider.parse(try ProviderFixture.bytes(file("EUR")), of: ProviderRequest(url: BNRRWProvider.defaultBaseURL)).count == 4)
    }

    @Test("one request per currency with both days of a range; latest is the last seven days")
    func requests() {
        #expect(request("USD").url == "https://fxrates.bnr.rw/currency_history/?currency_name=USD&end_date=2026-05-22&start_date=2026-05-19")
        let latest = provider.requests(for: .latest)
        #expect(latest.map(\.subject) == BNRRWProvider.currencies)
        #expect(latest.last?.url == "https://fxrates.bnr.rw/currency_history/?currency_name=BIF&end_date=2026-05-24&start_date=2026-05-17")
        #expect(latest.allSatisfy { $0.method == .get && $0.body == nil })
    }

    @Test("a rate that is not a decimal, a day twice, a bad code or day rejects the answer")
    func badRecords() throws {
        let day = Day("2026-05-19")!
        let comma = try ProviderFixture.edited(file("USD"), replacing: "\"average_rate\":\"1463.065\"", with: "\"average_rate\":\"1463,065\"")
        #expect(error("USD", comma) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "1463,065"))
        let grouping = try ProviderFixture.edited(file("USD"), replacing: "\"average_rate\":\"1463.065\"", with: "\"average_rate\":\"14,63.065\"")
        #expect(error("USD", grouping) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "14,63.065"))
        let zero = try ProviderFixture.edited(file("USD"), replacing: "\"average_rate\":\"1463.065\"", with: "\"average_rate\":\"0.000\"")
        #expect(error("USD", zero) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "0.000"))
        let twice = try ProviderFixture.edited(file("USD"), replacing: "\"post_date\":\"21-May-26\"", with: "\"post_date\":\"19-May-26\"")
        #expect(error("USD", twice) == .duplicateDay(day))
        let code = try ProviderFixture.edited(file("USD"), replacing: "\"currency_name\":\"USD\"", with: "\"currency_name\":\"usd\"")
        #expect(error("USD", code) == .invalidCurrencyCode("usd", day: day))
        let badDay = try ProviderFixture.edited(file("USD"), replacing: "\"post_date\":\"19-May-26\"", with: "\"post_date\":\"31-Jun-26\"")
        #expect(error("USD", badDay) == .invalidDay("31-Jun-26"))
        let longYear = try ProviderFixture.edited(file("USD"), replacing: "\"post_date\":\"19-May-26\"", with: "\"post_date\":\"19-May-2026\"")
        #expect(error("USD", longYear) == .invalidDay("19-May-2026"))
    }

    @Test("a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        #expect(error("USD", try ProviderFixture.truncated(file("USD")))?.isLayout(of: "BNRRW") == true)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file("EUR")), stride: 19) {
            #expect(error("EUR", cut) != nil, "a cut at \(cut.count) bytes parsed")
        }
        #expect(error("USD", ProviderFixture.htmlErrorPage)?.isLayout(of: "BNRRW") == true)
        #expect(error("USD", []) == .empty)
    }

    @Test("a range without a posting, an empty array, is no publication")
    func noPosting() throws {
        // A recorded answer with its records taken out: what the service answers for a weekend or a holiday.
        #expect(try provider.parse(Array("[]".utf8), of: request("USD")).isEmpty)
    }
}
