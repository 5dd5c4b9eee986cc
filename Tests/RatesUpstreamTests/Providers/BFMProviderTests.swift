import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("BFM adapter")
struct BFMProviderTests {
    let provider = BFMProvider(today: { Day("2026-09-23")! })
    let euro = "bfm-madagascar/00_cours_mid_en_ar_filter.json"
    let pound = "bfm-madagascar/02_cours_mid_en_ar_filter.json"
    let day = Day("2026-09-23")!

    func request(_ code: String) -> ProviderRequest {
        provider.requests(for: .latest).first { $0.subject == code }!
    }

    func parse(_ body: [UInt8], _ code: String = "EUR") throws -> [ProviderPublication] {
        try provider.parse(body, of: request(code))
    }

    @Test("reads a currency's days: ariary per unit, the French number format made plain decimal text")
    func days() throws {
        let euros = try parse(ProviderFixture.bytes(euro))
        #expect(euros.map(\.day.description) == ["2026-09-21", "2026-09-22", "2026-09-23"])
        #expect(euros.last?["EUR"] == quote("EUR", "4983.29"))
        #expect(euros.first?["EUR"] == quote("EUR", "4984.87"))
        let pounds = try parse(ProviderFixture.bytes(pound), "GBP")
        #expect(pounds.last?["GBP"] == quote("GBP", "5831.73"))
        let yen = try parse(ProviderFixture.bytes("bfm-madagascar/04_cours_mid_en_ar_filter.json"), "JPY")
        #expect(yen.last?["JPY"] == quote("JPY", "27.81"))
        let sdr = try parse(ProviderFixture.bytes("bfm-madagascar/10_cours_mid_en_ar_filter.json"), "XDR")
        #expect(sdr.last?["XDR"] == quote("XDR", "5992.63"))
        let old = try parse(ProviderFixture.bytes("bfm-madagascar/19_cours_mid_en_ar_filter.json"))
        #expect(old.map(\.day.description) == ["2018-01-02", "2018-01-03", "2018-01-04", "2018-01-05"])
        #expect(old.last?["EUR"] == quote("EUR", "3884.16"))
    }

    @Test("reads every recorded answer as its request's currency: 19 currencies on 3 days of 2026 and 4 of 2018")
    func everyAnswer() throws {
        var currencies: Set<String> = []
        for index in 0..<38 {
            let code = BFMProvider.currencies[index % 19]
            let name = "bfm-madagascar/\(index < 10 ? "0" : "")\(index)_cours_mid_en_ar_filter.json"
            let publications = try parse(ProviderFixture.bytes(name), code)
            #expect(publications.count == (index < 19 ? 3 : 4))
            currencies.formUnion(publications.flatMap(\.codes))
        }
        #expect(currencies.count == 19)
    }

    @Test("posts one form per currency over the window, with the site's headers")
    func requests() {
        let latest = provider.requests(for: .latest)
        #expect(latest.map(\.subject) == BFMProvider.currencies)
        #expect(latest.allSatisfy { $0.method == .post && $0.url == "https://www.banky-foibe.mg/admin/wp-json/bfm/cours_mid_en_ar_filter" })
        #expect(latest[0].body == "dateFilterDebut=2026%2F09%2F16&dateFilterFin=2026%2F09%2F23&filterData=EUR")
        #expect(latest[0].headers["Content-Type"] == "application/x-www-form-urlencoded")
        let range = provider.requests(for: .range(Day("2018-01-02")!, Day("2019-01-05")!))
        #expect(range.count == 38)
        #expect(range[19].body == "dateFilterDebut=2019%2F01%2F02&dateFilterFin=2019%2F01%2F05&filterData=EUR")
    }

    @Test("rejects a value that is not a decimal, one the chart contradicts, a day twice or wrong, no currency asked for")
    func alteredValues() throws {
        let value = try ProviderFixture.edited(euro, replacing: #""2026-09-23":"4 983,29""#, with: #""2026-09-23":"4 98x,29""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("EUR")!, day: day, text: "4 98x,29"))
        let chart = try ProviderFixture.edited(euro, replacing: #""2026-09-23":"4983.29""#, with: #""2026-09-23":"4983.92""#)
        let contradicted = UpstreamDataError.invalidRate(currency: CurrencyCode("EUR")!, day: day, text: "4 983,29 (the chart: 4983.92)")
        #expect(ProviderFixture.error { try parse(chart) } == contradicted)
        let twice = try ProviderFixture.edited(euro, replacing: #""2026-09-22":"4 994,66""#, with: #""2026-09-23":"4 994,66""#)
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(twice) }))
        let date = try ProviderFixture.edited(euro, replacing: #""2026-09-23":"4 983,29""#, with: #""2026-09-31":"4 983,29""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-09-31"))
        let unnamed = ProviderFixture.error { try provider.parse(ProviderFixture.bytes(euro), of: ProviderRequest(url: "file")) }
        #expect(unnamed?.isLayout(of: "BFM") == true)
        let status = try ProviderFixture.edited(euro, replacing: #""status":200"#, with: #""status":500"#)
        #expect(ProviderFixture.error { try parse(status) }?.isLayout(of: "BFM") == true)
    }

    @Test("rejects every truncation, an HTML error page and an empty body; no rates is no publication")
    func notTheAnswer() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(euro), stride: 11) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let none = #"{"code":"cours-de-mid-en-ar-filter","data":{"status":200,"data":{"coursMid":[],"coursMidMax":[],"coursMidMin":[],"#
            + #""grapheData":[]}}}"#
        #expect(try parse(Array(none.utf8)).isEmpty)
    }

    @Test("each recording imports with its currency given, or named by the requests.jsonl beside it; not otherwise")
    func imports() throws {
        for index in 0..<38 {
            let name = "bfm-madagascar/\(index < 10 ? "0" : "")\(index)_cours_mid_en_ar_filter.json"
            let code = BFMProvider.currencies[index % 19]
            let publications = try ProviderFile.read([ProviderFixture.bytes(name)], provider: BFMProvider(), subjects: [code])
            #expect(publications.allSatisfy { $0.codes == [code] })
        }
        #expect(throws: ProviderFileError.self) { try ProviderFile.read([ProviderFixture.bytes(euro)], provider: BFMProvider()) }
    }

    @Test("a recording imports as the currency its requests.jsonl line names")
    func importsByItsRequest() throws {
        let files = [euro, pound, "bfm-madagascar/29_cours_mid_en_ar_filter.json"].map { Fixtures.url($0) }
        let publications = try BFMProvider().publications(inFiles: files, subjects: [], today: Day("2026-09-23")!)
        #expect(
            publications.map(\.day.description) == ["2018-01-02", "2018-01-03", "2018-01-04", "2018-01-05", "2026-09-21", "2026-09-22", "2026-09-23"])
        #expect(publications.first?.codes == ["XDR"])
        #expect(publications.last?.codes == ["EUR", "GBP"])
        #expect(publications.last?["GBP"] == quote("GBP", "5831.73"))
    }
}
