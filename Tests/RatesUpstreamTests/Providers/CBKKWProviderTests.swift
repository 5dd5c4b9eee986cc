import Foundation
import RatesCore
import RatesTestFixtures
@testable import RatesUpstream
import Testing

@Suite("CBKKW adapter")
struct CBKKWProviderTests {
    let provider = CBKKWProvider(today: { Day("2026-09-09")! })
    let folder = "cbkkw-kuwait"
    let form = "cbkkw-kuwait/00_usd.html"
    let usd = "cbkkw-kuwait/01_get-exchange-rates_USD.html"
    let range = FetchWindow.range(Day("2026-09-05")!, Day("2026-09-08")!)

    /// One line of `requests.jsonl`.
    struct Recorded: Decodable {
        var file: String
        var method: String
        var url: String
        var request_body: String
    }

    /// The recorded requests, the form's first.
    func recorded() throws -> [Recorded] {
        let lines = String(decoding: try ProviderFixture.bytes("\(folder)/requests.jsonl"), as: UTF8.self).split(separator: "\n")
        return try lines.map { try JSONDecoder().decode(Recorded.self, from: Data($0.utf8)) }
    }

    /// The request for `code` built from the recorded form, for the recorded days.
    func request(_ code: String) throws -> ProviderRequest {
        let requests = try provider.requests(for: range, session: ProviderSession(body: ProviderFixture.bytes(form)))
        return try #require(requests.first { $0.subject == code })
    }

    func parse(_ body: [UInt8], asked code: String? = nil) throws -> [ProviderPublication] {
        try provider.parse(body, of: code.map { try request($0) } ?? provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8], asked code: String? = nil) throws -> UpstreamDataError? {
        let asked = try code.map { try request($0) } ?? provider.requests(for: .latest)[0]
        return ProviderFixture.error(body, provider, request: asked)
    }

    @Test("reads the dollar's answer: 6, 7 and 8 September 2026, fils per dollar kept as dinars per 1000 dollars, digit for digit")
    func readsDollar() throws {
        let publications = try parse(ProviderFixture.bytes(usd), asked: "USD")
        #expect(publications.map(\.day.description) == ["2026-09-06", "2026-09-07", "2026-09-08"])
        #expect(publications.map { $0.quotes } == [
            [quote("USD", "306.850", unit: 1000)], [quote("USD", "306.850", unit: 1000)], [quote("USD", "306.650", unit: 1000)],
        ])
        // Read the same without knowing the currency asked for (an import): the table names it.
        #expect(try parse(ProviderFixture.bytes(usd)) == publications)
    }

    @Test("reads every recorded answer: 98 currencies on 8 September 2026, each as published (JPY 1.9980, AUD 221.20); ECS and VEF give none")
    func readsEveryAnswer() throws {
        let answers = try recorded().dropFirst()
        #expect(answers.count == 100)
        let files = answers.map { Fixtures.url("\(folder)/\($0.file)") }
        let publications = try provider.publications(inFiles: files, subjects: [], today: Day("2026-11-29")!)
        #expect(publications.map(\.day.description) == ["2026-09-06", "2026-09-07", "2026-09-08"])
        let eighth = try #require(publications.last)
        #expect(eighth.quotes.count == 98)
        #expect(eighth.quotes.allSatisfy { $0.unit == 1000 && $0.direction == .pivotPerUnits })
        #expect(eighth["JPY"] == quote("JPY", "1.9980", unit: 1000))
        #expect(eighth["AUD"] == quote("AUD", "221.20", unit: 1000))
        #expect(eighth["EUR"] == quote("EUR", "356.450", unit: 1000))
        #expect(eighth["LBP"]?.value == "0.003")
        #expect(eighth["ECS"] == nil && eighth["VEF"] == nil && eighth["KWD"] == nil)
        // The three currencies whose answers are not in the recording.
        #expect(eighth["CHF"] == nil && eighth["BHD"] == nil && eighth["OMR"] == nil)
    }

    @Test("gets the form, then posts one currency a time for the whole span, with the form's formId, option and cookies")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://www.cbk.gov.kw/en/monetary-policy/market-operations/exchange-rates/usd"))
        let session = ProviderSession(body: try ProviderFixture.bytes(form), setCookies: ["JSESSIONID=abc; Path=/; HttpOnly"])
        let requests = try provider.requests(for: range, session: session)
        // The form's 103 options less ECS and VEF, in the form's order.
        #expect(requests.count == 101)
        #expect(requests.prefix(4).compactMap(\.subject) == ["USD", "EUR", "GBP", "JPY"])
        #expect(requests.last?.subject == "PHP")
        #expect(!requests.contains { $0.subject == "ECS" || $0.subject == "VEF" })
        #expect(requests.allSatisfy {
            $0.method == .post && $0.url == "https://www.cbk.gov.kw/en/monetary-policy/market-operations/exchange-rates/get-exchange-rates"
                && $0.headers["Cookie"] == "JSESSIONID=abc" && $0.headers["Content-Type"] == "application/x-www-form-urlencoded"
        })
        // The bodies the browser posted, byte for byte (requests.jsonl), for each currency asked for (not ECS and VEF;
        // VEF's post named another option than the form's).
        let posts = try recorded().filter { $0.method == "POST" && !$0.file.hasSuffix("_VEF.html") && !$0.file.hasSuffix("_ECS.html") }
        #expect(posts.count == 98)
        let bodies = Dictionary(uniqueKeysWithValues: requests.map { ($0.subject ?? "", $0.body ?? "") })
        let differing = posts.filter { post in bodies[String(post.file.dropLast(".html".count).suffix(3))] != post.request_body }
        #expect(differing.map(\.file) == [])
        #expect(bodies["USD"] == "formId=127906&selCurrency=USD%3A128735&txtDateFrom=05%2F09%2F2026&txtDateTo=08%2F09%2F2026")
        // The newest publication: the week up to today.
        let latest = try provider.requests(for: .latest, session: session)
        #expect(latest.count == 101)
        #expect(latest[0].body == "formId=127906&selCurrency=USD%3A128735&txtDateFrom=02%2F09%2F2026&txtDateTo=09%2F09%2F2026")
        #expect(try provider.requests(for: .range(Day("2026-09-08")!, Day("2026-09-05")!), session: session).isEmpty)
        // Without the form (an import): one post naming no currency.
        #expect(provider.requests(for: range) == [
            ProviderRequest(
                url: "https://www.cbk.gov.kw/en/monetary-policy/market-operations/exchange-rates/get-exchange-rates", method: .post,
                headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "formId=&selCurrency=&txtDateFrom=05%2F09%2F2026&txtDateTo=08%2F09%2F2026"),
        ])
    }

    @Test("asks for whatever currencies the form offers: a new option is asked for, one not ISO 4217's is not")
    func otherOptions() throws {
        let more = try ProviderFixture.edited(
            form, replacing: "<option value=\"PHP:128608\">PHP</option>",
            with: "<option value=\"PHP:128608\">PHP</option>\n<option value=\"VES:1\">VES</option><option value=\"XYZ:2\">XYZ</option>")
        let requests = try provider.requests(for: range, session: ProviderSession(body: more))
        #expect(requests.count == 102)
        #expect(requests.last?.body == "formId=127906&selCurrency=VES%3A1&txtDateFrom=05%2F09%2F2026&txtDateTo=08%2F09%2F2026")
        let fewer = try ProviderFixture.edited(form, replacing: "<option value=\"EUR:128674\">EUR</option>", with: "")
        #expect(try provider.requests(for: range, session: ProviderSession(body: fewer)).count == 100)
    }

    @Test("a form without its formId or any currency, or with an option that is not CODE:ID, fails the fetch")
    func brokenForm() throws {
        let noID = try ProviderFixture.edited(form, replacing: "name=\"formId\"", with: "name=\"other\"")
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: range, session: ProviderSession(body: noID)) }
        let badOption = try ProviderFixture.edited(form, replacing: "value=\"USD:128735\"", with: "value=\"US Dollar\"")
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: range, session: ProviderSession(body: badOption)) }
        let noSelect = try ProviderFixture.edited(form, replacing: "name=\"selCurrency\"", with: "name=\"other\"")
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: range, session: ProviderSession(body: noSelect)) }
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: range, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("a table without rows (VEF's, or a span without rates) and a withdrawn code's table (ECS) are no publication")
    func noPublication() throws {
        #expect(try parse(ProviderFixture.bytes("\(folder)/103_get-exchange-rates_VEF.html")).isEmpty)
        #expect(try parse(ProviderFixture.bytes("\(folder)/45_get-exchange-rates_ECS.html")).isEmpty)
        let noRows = try ProviderFixture.edited("\(folder)/04_get-exchange-rates_JPY.html", replacing: "<tr><td>08.09.2026</td><td>1.9980</td></tr>", with: "")
        #expect(try parse(noRows, asked: "JPY").isEmpty)
    }

    @Test("another currency's table than the one asked for, a figure that is not a number, a bad day or code, a cut page or another page is rejected")
    func alteredInput() throws {
        let day = Day("2026-09-08")!
        #expect(try error(ProviderFixture.bytes(usd), asked: "EUR")?.isLayout(of: "CBKKW") == true)
        let text = try ProviderFixture.edited(usd, replacing: "<td>306.650</td>", with: "<td>306,65x</td>")
        #expect(try error(text) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "306,65x"))
        let badDay = try ProviderFixture.edited(usd, replacing: "<td>08.09.2026</td>", with: "<td>31.09.2026</td>")
        #expect(try error(badDay) == .invalidDay("31.09.2026"))
        let twice = try ProviderFixture.edited(usd, replacing: "<td>07.09.2026</td>", with: "<td>08.09.2026</td>")
        #expect(try error(twice) == .duplicateDay(day))
        let code = try ProviderFixture.edited(usd, replacing: "KWD / USD", with: "KWD / XYZ")
        #expect(try error(code) == .invalidCurrencyCode("XYZ", day: Day("2026-09-06")!))
        let cells = try ProviderFixture.edited(usd, replacing: "<td>306.650</td>", with: "<td>306.650</td><td>0.3</td>")
        #expect(try error(cells)?.isLayout(of: "CBKKW") == true)
        #expect(try error(Array(try ProviderFixture.bytes(usd).prefix(300)))?.isLayout(of: "CBKKW") == true)
        #expect(try error(ProviderFixture.bytes(form))?.isLayout(of: "CBKKW") == true)
        #expect(try error(ProviderFixture.htmlErrorPage)?.isLayout(of: "CBKKW") == true)
        #expect(try error([]) == .empty)
    }
}
