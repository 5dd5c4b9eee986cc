import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BI adapter")
struct BIProviderTests {
    let provider = BIProvider(today: { Day("2026-04-05")! })
    let pageFile = "bi-indonesia/00_en_statistik_informasi-kurs_transaksi-bi_default.aspx.html"
    let searches = [
        "AED": "bi-indonesia/01_en_statistik_informasi-kurs_transaksi-bi_default.aspx_594e95e8.html",
        "AUD": "bi-indonesia/02_en_statistik_informasi-kurs_transaksi-bi_default.aspx_2d03e7c4.html",
        "BND": "bi-indonesia/03_en_statistik_informasi-kurs_transaksi-bi_default.aspx_384c3c73.html",
    ]
    static let url = "https://www.bi.go.id/en/statistik/informasi-kurs/transaksi-bi/default.aspx"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider)
    }

    /// The searches over 1–5 March 2026 as the adapter posts them, with the recorded page's form state.
    let posts: [ProviderRequest]

    init() throws {
        let window = FetchWindow.range(Day("2026-03-01")!, Day("2026-03-05")!)
        posts = try provider.requests(for: window, session: ProviderSession(body: try ProviderFixture.bytes(pageFile)))
    }

    /// The search for `code` over 1–5 March 2026.
    func searchRequest(_ code: String) throws -> ProviderRequest {
        try #require(posts.first { $0.subject == code })
    }

    /// The recorded answer to the search for `code`, read as the answer to that search.
    func parseSearch(_ code: String, _ body: [UInt8]? = nil) throws -> [ProviderPublication] {
        try provider.parse(body ?? ProviderFixture.bytes(searches[code]!), of: searchRequest(code))
    }

    @Test("reads the latest table, dated by its Last Update (2 April 2026): 25 currencies, the exact midpoint in IDR per 1 or 100 units")
    func latest() throws {
        let publications = try parse(ProviderFixture.bytes(pageFile))
        #expect(publications.map(\.day) == [Day("2026-04-02")!])
        let table = try #require(publications.first)
        #expect(table.quotes.count == 26)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        // Sell 4,653.45, buy 4,605.27.
        #expect(ProviderFixture.quote("AED", in: table) == quote("AED", "4629.36"))
        // Sell 17,087.01, buy 16,916.99: the digits of the midpoint as the figures have them.
        #expect(ProviderFixture.quote("USD", in: table)?.value == "17002.00")
        // Per 100 yen: 10,762.12 and 10,653.69.
        #expect(ProviderFixture.quote("JPY", in: table) == quote("JPY", "10707.905", unit: 100))
        #expect(ProviderFixture.quote("CNH", in: table) == quote("CNH", "2471.26"))
        #expect(ProviderFixture.quote("CNY", in: table) != nil)
    }

    @Test("reads a search's answer: its currency's days, from 2 to 5 March 2026")
    func search() throws {
        let aed = try parseSearch("AED")
        #expect(aed.map(\.day.description) == ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"])
        #expect(aed.allSatisfy { $0.codes == ["AED"] })
        // 4,627.79 and 4,580.24
        #expect(ProviderFixture.quote("AED", on: "2026-03-05", in: aed) == quote("AED", "4604.015"))
        // 12,013.13 and 11,891.92
        #expect(ProviderFixture.quote("AUD", on: "2026-03-02", in: try parseSearch("AUD"))?.value == "11952.525")
        #expect(try parseSearch("BND").count == 4)
    }

    @Test("a search's answer must be the table of the currency searched for; a page is read as the answer to its own request")
    func answerToItsRequest() throws {
        let aud = try ProviderFixture.bytes(searches["AUD"]!)
        #expect(ProviderFixture.error { try provider.parse(aud, of: searchRequest("AED")) }?.isLayout(of: "BI") == true)
        // A search's answer is not the latest table, nor the latest page a search's answer.
        #expect(error(aud)?.isLayout(of: "BI") == true)
        #expect(ProviderFixture.error { try provider.parse(ProviderFixture.bytes(pageFile), of: searchRequest("AED")) }?.isLayout(of: "BI") == true)
    }

    @Test("a search with no day in its range, the label without the table, is no publication; cut short it is rejected")
    func searchWithoutDays() throws {
        // The recorded AED search with its result table taken out: the page's answer when no day of the
        // range has rates (the grid renders nothing without rows).
        let bytes = try ProviderFixture.bytes(searches["AED"]!)
        var text = try #require(String(validating: bytes, as: UTF8.self))
        let grid = try #require(text.range(of: "gvSearchResult2"))
        let open = try #require(text.range(of: "<table", options: .backwards, range: text.startIndex..<grid.lowerBound))
        let close = try #require(text.range(of: "</table>", range: grid.upperBound..<text.endIndex))
        text.removeSubrange(open.lowerBound..<close.upperBound)
        #expect(try parseSearch("AED", Array(text.utf8)).isEmpty)
        // The label must still be the currency searched for.
        #expect(ProviderFixture.error { try provider.parse(Array(text.utf8), of: searchRequest("AUD")) }?.isLayout(of: "BI") == true)
        // The recording cut between the label (byte 139,818) and its table (byte 140,327) is not a search without days.
        #expect(ProviderFixture.error { try parseSearch("AED", Array(bytes[..<140_327])) }?.isLayout(of: "BI") == true)
    }

    @Test("gets the page plainly for the latest rates; for a range first for its form state, then one search per currency")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == nil)
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: Self.url)])
        let window = FetchWindow.range(Day("2026-03-01")!, Day("2026-03-05")!)
        #expect(provider.sessionRequest(for: window) == ProviderRequest(url: Self.url))
        let range = try provider.requests(for: window, session: ProviderSession(body: try ProviderFixture.bytes(pageFile)))
        // Every currency of the list, the offshore yuan (CNH) among them.
        #expect(range.count == 26)
        #expect(range.map(\.subject).prefix(7) == ["AED", "AUD", "BND", "CAD", "CHF", "CNH", "CNY"])
        #expect(range.allSatisfy { $0.url == Self.url && $0.method == .post && $0.headers["Content-Type"] == "application/x-www-form-urlencoded" })
        #expect(range.allSatisfy { $0.headers["Referer"] == Self.url && $0.headers["Cookie"] == nil })
        let withCookie = ProviderSession(body: try ProviderFixture.bytes(pageFile), setCookies: ["ASP.NET_SessionId=abc; path=/; HttpOnly"])
        #expect(try provider.requests(for: window, session: withCookie)[0].headers["Cookie"] == "ASP.NET_SessionId=abc")
        let prefix = "ctl00%24PlaceHolderMain%24g_6c89d4ad_107f_437d_bd54_8fda17b556bf%24ctl00%24"
        let body = try #require(range[0].body)
        #expect(body.contains("&__REQUESTDIGEST=0x41D00311222AA5C7BCCDE7DFEA5D3ED0FA83851A66FFBB06DF250B456DB0D3DEACCB775F47795F"))
        #expect(body.contains("&__VIEWSTATE=%2FwEPDwUBMA9kFgJmD2QWAgIBD2QWBAIBD2QWAgInD2QWAgIDD2QWAmYPZBYC"))
        #expect(body.contains("&__EVENTVALIDATION=%2FwEdAD5fPwGme843RfwEsPE1wynjMTZk9qLGncDjImqxppn1M6g%2BuGj1e5yN"))
        #expect(
            body.hasSuffix(
                "&\(prefix)ddlmatauang1=AED++&\(prefix)txtFrom=01-Mar-2026&\(prefix)txtTo=05-Mar-2026&\(prefix)txtTanggal="
                    + "&\(prefix)btnSearch1=Search&\(prefix)hidSourceID=ctl00_PlaceHolderMain_g_6c89d4ad_107f_437d_bd54_8fda17b556bf_ctl00_btnSearch1"))
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: window, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("rejects a figure that is not a decimal, badly grouped digits, a currency twice, a bad code, unit or day")
    func badRows() throws {
        let day = Day("2026-04-02")!
        let aed = CurrencyCode("AED")!
        let garbage = try ProviderFixture.edited(pageFile, replacing: ">4,653.45<", with: ">4,653.4x<")
        #expect(error(garbage) == .invalidRate(currency: aed, day: day, text: "4,653.4x"))
        let grouping = try ProviderFixture.edited(pageFile, replacing: ">4,653.45<", with: ">46,53.45<")
        #expect(error(grouping) == .invalidRate(currency: aed, day: day, text: "46,53.45"))
        let twice = try ProviderFixture.edited(pageFile, replacing: "<td class=\"text-right\">AUD  </td>", with: "<td class=\"text-right\">AED </td>")
        #expect(error(twice) == .duplicateCurrency(aed, day: day))
        let code = try ProviderFixture.edited(pageFile, replacing: "<td class=\"text-right\">AUD  </td>", with: "<td class=\"text-right\">XYZ </td>")
        #expect(error(code) == .invalidCurrencyCode("XYZ", day: day))
        let unit = try ProviderFixture.edited(pageFile, replacing: "<td class=\"text-right\">100</td>", with: "<td class=\"text-right\">1OO</td>")
        #expect(error(unit)?.isLayout(of: "BI") == true)
        let badDay = try ProviderFixture.edited(pageFile, replacing: "<span>2 April 2026</span>", with: "<span>31 April 2026</span>")
        #expect(error(badDay) == .invalidDay("31 April 2026"))
        let searchDay = try ProviderFixture.edited(searches["AED"]!, replacing: "<td>4 Mar 2026</td>", with: "<td>5 Mar 2026</td>")
        #expect(ProviderFixture.error { try parseSearch("AED", searchDay) } == .duplicateDay(Day("2026-03-05")!))
        let searchFigure = try ProviderFixture.edited(searches["AED"]!, replacing: "<td>4,627.79</td>", with: "<td>4.627,79</td>")
        #expect(ProviderFixture.error { try parseSearch("AED", searchFigure) } == .invalidRate(currency: aed, day: Day("2026-03-05")!, text: "4.627,79"))
        let label = try ProviderFixture.edited(searches["AED"]!, replacing: ">CURRENCIES AED  </span>", with: "></span>")
        #expect(ProviderFixture.error { try parseSearch("AED", label) }?.isLayout(of: "BI") == true)
    }

    @Test("rejects a cut page, an HTML error page and an empty body")
    func notThePage() throws {
        // A cut before a table's end is rejected; one after it holds the whole table.
        for (file, request, cut) in [(pageFile, provider.requests(for: .latest)[0], 165_000), (searches["AED"]!, try searchRequest("AED"), 140_900)] {
            let bytes = try ProviderFixture.bytes(file)
            let whole = try provider.parse(bytes, of: request)
            for prefix in ProviderFixture.truncations(of: bytes, stride: 3001) {
                let read = try? provider.parse(prefix, of: request)
                #expect(read == nil || read == whole, "prefix of \(prefix.count) bytes of \(file)")
            }
            #expect(ProviderFixture.error(Array(bytes[..<cut]), provider, request: request)?.isLayout(of: "BI") == true)
        }
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BI") == true)
        #expect(error([]) == .empty)
    }

    @Test("the recordings import as answers of the adapter's")
    func imports() throws {
        let files = try ([pageFile] + searches.values.sorted()).map { try ProviderFixture.bytes($0) }
        let publications = try ProviderFile.read(files, provider: provider, today: Day("2026-04-05")!)
        #expect(publications.map(\.quotes.count) == [3, 3, 3, 3, 26])
    }
}
