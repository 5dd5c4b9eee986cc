import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BCCH adapter")
struct BCCHProviderTests {
    let provider = BCCHProvider(apiKey: "someone@example.com:p@ss:word", today: { Day("2026-03-31")! })
    let files = [
        "USD": "00_lastdate=2026-03-15_pass=_BCCH_PASS_timeseries=F073.TCO.PRE.Z.D_user=_BCCH_USER.json",
        "EUR": "01_stdate=2026-03-15_pass=_BCCH_PASS_timeseries=F072.CLP.EUR.N.O.D_user=_BCCH_USER.json",
        "GBP": "02_stdate=2026-03-15_pass=_BCCH_PASS_timeseries=F072.CLP.GBP.N.O.D_user=_BCCH_USER.json",
        "JPY": "03_stdate=2026-03-15_pass=_BCCH_PASS_timeseries=F072.CLP.JPY.N.O.D_user=_BCCH_USER.json",
        "CAD": "04_stdate=2026-03-15_pass=_BCCH_PASS_timeseries=F072.CLP.CAD.N.O.D_user=_BCCH_USER.json",
        "AUD": "05_stdate=2026-03-15_pass=_BCCH_PASS_timeseries=F072.CLP.AUD.N.O.D_user=_BCCH_USER.json",
        "CNY": "06_stdate=2026-03-15_pass=_BCCH_PASS_timeseries=F072.CLP.CNY.N.O.D_user=_BCCH_USER.json",
        "BRL": "07_stdate=2026-03-15_pass=_BCCH_PASS_timeseries=F072.CLP.BRL.N.O.D_user=_BCCH_USER.json",
    ]

    func file(_ code: String) -> String { "bcch-chile/" + files[code]! }

    func request(_ code: String) -> ProviderRequest {
        provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-15")!)).first { $0.subject == code }!
    }

    func parse(_ code: String, as subject: String? = nil) throws -> [ProviderPublication] {
        try provider.parse(try ProviderFixture.bytes(file(code)), of: request(subject ?? code))
    }

    func error(_ code: String, _ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider, request: request(code))
    }

    @Test("reads 2–13 Mar 2026 for all 8 series: 10 working days each, ND weekends left out")
    func readsAllSeries() throws {
        let days = ["02", "03", "04", "05", "06", "09", "10", "11", "12", "13"].map { "2026-03-\($0)" }
        for (code, _) in BCCHProvider.series {
            let publications = try parse(code)
            #expect(publications.map(\.day.description) == days, "\(code)")
            #expect(publications.allSatisfy { $0.codes == [code] })
        }
    }

    @Test("figures are CLP per 1 unit as written")
    func figures() throws {
        #expect(ProviderFixture.quote("USD", on: "2026-03-02", in: try parse("USD")) == quote("USD", "871.41"))
        #expect(ProviderFixture.quote("JPY", on: "2026-03-05", in: try parse("JPY")) == quote("JPY", "5.7"))
        #expect(ProviderFixture.quote("GBP", on: "2026-03-04", in: try parse("GBP")) == quote("GBP", "1207.3"))
        #expect(ProviderFixture.quote("EUR", on: "2026-03-02", in: try parse("EUR")) == quote("EUR", "1029.91"))
    }

    @Test("the answer names its series: one asked for under another currency is rejected")
    func seriesChecked() throws {
        #expect(ProviderFixture.error { try parse("EUR", as: "USD") }?.isLayout(of: "BCCH") == true)
        let noSubject = ProviderRequest(url: BCCHProvider.defaultBaseURL)
        #expect(try provider.parse(try ProviderFixture.bytes(file("EUR")), of: noSubject).first?.codes == ["EUR"])
    }

    @Test("one request per series with the account in the query; latest is the last seven days")
    func requests() {
        #expect(request("USD").url == "https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?firstdate=2026-03-01&function=GetSeries&lastdate=2026-03-15"
            + "&pass=p%40ss%3Aword&timeseries=F073.TCO.PRE.Z.D&user=someone%40example.com")
        let latest = provider.requests(for: .latest)
        #expect(latest.map(\.subject) == ["USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CNY", "BRL"])
        #expect(latest.last?.url.contains("firstdate=2026-03-24&function=GetSeries&lastdate=2026-03-31") == true)
        #expect(latest.allSatisfy { $0.method == .get && $0.body == nil })
    }

    @Test("a value that is not a decimal, an unknown status, a day twice or a bad day rejects the answer")
    func badObservations() throws {
        let day = Day("2026-03-02")!
        let comma = try ProviderFixture.edited(file("USD"), replacing: "\"value\": \"871.41\"", with: "\"value\": \"871,41\"")
        #expect(error("USD", comma) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "871,41"))
        let nan = try ProviderFixture.edited(file("USD"), replacing: "\"value\": \"871.41\"", with: "\"value\": \"NaN\"")
        #expect(error("USD", nan) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "NaN"))
        let status = try ProviderFixture.edited(file("USD"), replacing: "\"statusCode\": \"OK\"", with: "\"statusCode\": \"XX\"")
        #expect(error("USD", status)?.isLayout(of: "BCCH") == true)
        let twice = try ProviderFixture.edited(file("USD"), replacing: "\"03-03-2026\"", with: "\"02-03-2026\"")
        #expect(error("USD", twice) == .duplicateDay(day))
        let badDay = try ProviderFixture.edited(file("USD"), replacing: "\"03-03-2026\"", with: "\"31-02-2026\"")
        #expect(error("USD", badDay) == .invalidDay("31-02-2026"))
    }

    @Test("a failure code, a truncated body, an HTML error page, an empty body and no observations are rejected")
    func brokenBodies() throws {
        let failed = Array(#"{"Codigo":-5,"Descripcion":"Invalid username or password","Series":{"descripEsp":null,"descripIng":null,"seriesId":null,"Obs":null},"SeriesInfos":[]}"#.utf8)
        #expect(error("USD", failed)?.isLayout(of: "BCCH") == true)
        #expect(error("USD", try ProviderFixture.truncated(file("USD")))?.isLayout(of: "BCCH") == true)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file("JPY")), stride: 53) {
            #expect(error("JPY", cut) != nil, "a cut at \(cut.count) bytes parsed")
        }
        #expect(error("USD", ProviderFixture.htmlErrorPage)?.isLayout(of: "BCCH") == true)
        #expect(error("USD", []) == .empty)
        let none = Array(#"{"Codigo":0,"Descripcion":"Success","Series":{"seriesId":"F073.TCO.PRE.Z.D","Obs":[]},"SeriesInfos":[]}"#.utf8)
        #expect(error("USD", none) == .empty)
    }
}
