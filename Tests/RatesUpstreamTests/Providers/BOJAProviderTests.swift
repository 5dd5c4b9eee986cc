import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BOJA adapter")
struct BOJAProviderTests {
    let provider = BOJAProvider(today: { Day("2026-03-22")! })
    let page = "boj-jamaica/00_market_foreign-exchange_counter-rates.html"
    let file = "boj-jamaica/01_wp-admin_admin-ajax.php_action=get_wdtable_table_id=134_56441081.html"
    let day = Day("2026-03-20")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads 2026-03-02 to 2026-03-20: 15 days of 16 currencies, the exact midpoint of the DMD & TT buying and the selling rate")
    func table() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 15)
        #expect(publications.first?.day == Day("2026-03-02"))
        #expect(publications.last?.day == day)
        #expect(publications.allSatisfy { $0.quotes.count == 16 && $0["GBP"] != nil })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits && $0.unit == 1 } })
        // 155.3493 and 157.2639.
        #expect(ProviderFixture.quote("USD", on: "2026-03-02", in: publications) == quote("USD", "156.3066"))
        let last = try #require(publications.last)
        #expect(last["USD"] == quote("USD", "157.6302"))
        #expect(last["JPY"]?.value == "0.98925")
        #expect(last["EUR"]?.value == "183.16225")
        // "DOMINICAN REP. PESO " with its trailing space.
        #expect(last["DOP"]?.value == "2.60435")
        #expect(last.codes == ["AUD", "BBD", "BSD", "BZD", "CAD", "CHF", "DOP", "EUR", "GBP", "GIP", "GYD", "HKD", "JPY", "KYD", "USD", "XCD"])
    }

    @Test("asks the counter-rates page for the nonce and the table's header, then posts for table 134 with it")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://boj.org.jm/market/foreign-exchange/counter-rates/"))
        let session = ProviderSession(body: try ProviderFixture.bytes(page))
        let expected = ProviderRequest(
            url: "https://boj.org.jm/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134", method: .post,
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "draw=1&start=0&length=-1&wdtNonce=5a1cc1896f")
        #expect(try provider.requests(for: .latest, session: session) == [expected])
        #expect(try provider.requests(for: .range(Day("2026-03-02")!, day), session: session) == [expected])
        #expect(provider.requests(for: .latest).map(\.body) == ["draw=1&start=0&length=-1&wdtNonce="])
        let withCookie = try provider.requests(for: .latest, session: ProviderSession(body: try ProviderFixture.bytes(page), cookies: ["a": "1"]))
        #expect(withCookie.first?.headers["Cookie"] == "a=1")
        // A page without the nonce, or whose table 134 is another table (the filter box before it is also marked 134).
        let noNonce = try ProviderFixture.edited(page, replacing: "id=\"wdtNonceFrontendServerSide_134\"", with: "id=\"other\"")
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: noNonce)) }
        let table = try ProviderFixture.edited(
            page, replacing: "data-described-by='table_2_desc'\n           data-wpdatatable_id=\"134\"",
            with: "data-described-by='table_2_desc'\n           data-wpdatatable_id=\"135\"")
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: table)) }
        let header = try ProviderFixture.edited(
            page, replacing: " wdtheader numdata float \"\n        style=\"\">        Notes</th>",
            with: " wdtheader numdata float \"\n        style=\"\">        Cash</th>")
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: header)) }
        #expect(BOJAProvider(baseURL: "http://127.0.0.1:8080").sessionRequest(for: .latest)?.url == "http://127.0.0.1:8080/market/foreign-exchange/counter-rates/")
    }

    /// The names the table's currency filter lists on the recorded counter-rates page, beyond those of the recorded month, and their codes.
    static let otherNames = [
        ("BERMUDA DOLLAR", "BMD"), ("BRAZIL REAL", "BRL"), ("CHINESE YUAN", "CNY"), ("INDIAN RUPEE", "INR"), ("MALAYSIA RINGGIT", "MYR"),
        ("MEXICAN PESO", "MXN"), ("NEW ZEALAND DOLLAR", "NZD"), ("SINGAPORE DOLLAR", "SGD"), ("SOUTH AFRICA RAND", "ZAR"),
        ("SOUTH KOREA WON", "KRW"), ("SRI LANKA RUPEE", "LKR"), ("TAIWAN N.T. DOLLAR", "TWD"), ("THAILAND BAHT", "THB"),
        ("T&#038;T DOLLAR", "TTD"), ("T&T DOLLAR", "TTD"), ("DANISH KRONE", "DKK"), ("BSD", "BSD"),
    ]

    @Test("reads every name the table's currency filter lists, written with character references or not, and a name that is an ISO code")
    func filterNames() throws {
        // The recorded page's filter of table 134 lists these names; the recorded month quotes none of them. Each is put in
        // place of the Bahamas dollar's name on 2 March (153.0191 and 157.2639).
        let filter = String(decoding: try ProviderFixture.bytes(page), as: UTF8.self)
        for (name, code) in Self.otherNames {
            if name != "BSD" && name != "T&T DOLLAR" { #expect(filter.contains("{\"value\":\"\(name)\"")) }
            let body = try ProviderFixture.edited(file, replacing: #""BAHAMAS DOLLAR""#, with: "\"\(name)\"")
            let first = try #require(try parse(body).first)
            #expect(first[code] == quote(code, "155.1415"), "\(name)")
            #expect(first.quotes.count == 16)
        }
    }

    @Test("reads the bolivar as VEB before 2008, VEF until 2018-08-19 and VES since")
    func bolivar() throws {
        // The filter lists VENEZUELAN BOLIVAR; the Bahamas dollar's row of 2 March 2026 renamed, and moved to a day of each bolivar.
        for (date, day, code) in [("02 Mar 2026", "2026-03-02", "VES"), ("20 Aug 2018", "2018-08-20", "VES"), ("17 Aug 2018", "2018-08-17", "VEF"),
                                  ("02 Jan 2008", "2008-01-02", "VEF"), ("28 Dec 2007", "2007-12-28", "VEB")] {
            let body = try ProviderFixture.edited(
                file, replacing: #"["02 Mar 2026","BAHAMAS DOLLAR""#, with: "[\"\(date)\",\"VENEZUELAN BOLIVAR\"")
            let publications = try parse(body)
            #expect(ProviderFixture.quote(code, on: day, in: publications) == quote(code, "155.1415"), "\(date)")
        }
    }

    @Test("a buying or selling figure of 0.0000, the bank's mark for no figure, leaves the currency out that day")
    func noFigure() throws {
        // 0.0000 is how the table writes no figure (every Coins cell but the dollar's in the recording).
        let buying = try ProviderFixture.edited(file, replacing: #""U.S. DOLLAR","155.3493""#, with: #""U.S. DOLLAR","0.0000""#)
        let first = try #require(try parse(buying).first)
        #expect(first.day == Day("2026-03-02") && first["USD"] == nil && first.quotes.count == 15)
        let selling = try ProviderFixture.edited(file, replacing: #""U.S. DOLLAR","155.3493","147.5800","127.5800","157.2639""#,
                                                 with: #""U.S. DOLLAR","155.3493","147.5800","127.5800","0.0000""#)
        #expect(try parse(selling).first?["USD"] == nil)
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: #""U.S. DOLLAR","155.3493""#, with: #""U.S. DOLLAR","155,3493""#)
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-02")!, text: "155,3493"))
    }

    @Test("rejects a currency listed twice, a name it does not know, a day that does not exist, a row of other columns")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: #""BAHAMAS DOLLAR""#, with: #""AUSTRALIAN DOLLAR""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("AUD")!, day: Day("2026-03-02")!))
        let unknown = try ProviderFixture.edited(file, replacing: #""BAHAMAS DOLLAR""#, with: #""BAHAMIAN DOLLAR""#)
        #expect(ProviderFixture.error { try parse(unknown) }?.isLayout(of: "BOJA") == true)
        let date = try ProviderFixture.edited(file, replacing: #""02 Mar 2026""#, with: #""30 Feb 2026""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("30 Feb 2026"))
        let cells = try ProviderFixture.edited(file, replacing: #","0.0000","112.0741"]"#, with: #","112.0741"]"#)
        #expect(ProviderFixture.error { try parse(cells) }?.isLayout(of: "BOJA") == true)
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notTheTable() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 173) {
            #expect(ProviderFixture.error { try parse(cut) } != nil, "a cut at \(cut.count) bytes was read")
        }
        #expect(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }?.isLayout(of: "BOJA") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("the table without rows (a month before its first rates) is no publication; rows that are all no figure are rejected as empty")
    func tableWithoutRows() throws {
        // The recorded answer with its rows taken out: what the table answers before the month's first rates.
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let start = try #require(text.range(of: "\"data\":["))
        let withoutRows = String(text[..<start.upperBound]) + "]}"
        #expect(try parse(Array(withoutRows.utf8)).isEmpty)
        let zeros = String(text[..<start.upperBound]) + #"["02 Mar 2026","U.S. DOLLAR","0.0000","0.0000","0.0000","0.0000"]]}"#
        #expect(ProviderFixture.error { try parse(Array(zeros.utf8)) } == .empty)
    }

    @Test("each recording imports as `rates-relay import --provider BOJA` reads it: as it parses")
    func imports() throws {
        let files = [
            "boj-jamaica/01_wp-admin_admin-ajax.php_action=get_wdtable_table_id=134_56441081.html",
        ]
        for name in files {
            let bytes = try ProviderFixture.bytes(name)
            #expect(try ProviderFile.read([bytes], provider: provider) == (try parse(bytes)), "\(name)")
        }
    }
}
