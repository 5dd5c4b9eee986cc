import RatesCore
import RatesUpstream
import Testing

@Suite("CBK adapter")
struct CBKProviderTests {
    let provider = CBKProvider(today: { Day("2026-03-23")! })
    let file = "cbk-kenya/00_wp-admin_admin-ajax.php_action=get_wdtable_table_id=193_fa789f2d.html"
    let day = Day("2026-03-19")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads table 193 whole: 549 days from 2024-01-05 to 2026-03-19, 21 currencies a day, KES per unit or units per KES")
    func wholeTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 549)
        #expect(publications.first?.day == Day("2024-01-05"))
        #expect(publications.last?.day == day)
        #expect(publications.allSatisfy { $0.quotes.count == 21 })
        let last = try #require(publications.last)
        #expect(last["USD"] == quote("USD", "129.5200"))
        #expect(last["JPY"] == quote("JPY", "81.2000", unit: 100))
        #expect(last["UGX"] == quote("UGX", "29.0900", .unitsPerPivot))
        #expect(last["BIF"] == quote("BIF", "22.9200", .unitsPerPivot))
        #expect(last.quotes.filter { $0.direction == .unitsPerPivot }.map(\.currency.rawValue).sorted() == ["BIF", "RWF", "TZS", "UGX"])
        #expect(ProviderFixture.quote("USD", on: "2024-01-05", in: publications)?.value == "157.9012")
        #expect(ProviderFixture.quote("ZAR", on: "2024-01-05", in: publications)?.value == "8.4378")
        // 28/11/2025 is listed twice, figure for figure: one day of 21 quotes.
        #expect(publications.filter { $0.day == Day("2025-11-28")! }.first?.quotes.count == 21)
    }

    @Test("posts for the whole table, for the newest publication and for a range alike")
    func requests() {
        let request = ProviderRequest(
            url: "https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193", method: .post,
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "draw=1&start=0&length=-1")
        #expect(provider.requests(for: .latest) == [request])
        #expect(provider.requests(for: .range(Day("2026-03-01")!, day)) == [request])
        #expect(CBKProvider(baseURL: "http://127.0.0.1:8080").requests(for: .latest)[0].url
            == "http://127.0.0.1:8080/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193")
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: #"["19\/03\/2026","US DOLLAR","129.5200"]"#, with: #"["19\/03\/2026","US DOLLAR","129,5200"]"#)
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "129,5200"))
    }

    @Test("reads a name with white space around or inside it as the name, and a name that is an ISO code as that currency")
    func names() throws {
        let recorded = try parse(ProviderFixture.bytes(file))
        // The sterling's name of 19 March written with a trailing space, then with two spaces inside, as a later export may.
        for spaced in [#""STG POUND ""#, #""STG  POUND""#] {
            let edited = try ProviderFixture.edited(file, replacing: #"["19\/03\/2026","STG POUND","#, with: #"["19\/03\/2026","# + spaced + ",")
            #expect(try parse(edited) == recorded, "\(spaced)")
        }
        let code = try ProviderFixture.edited(file, replacing: #"["19\/03\/2026","STG POUND","#, with: #"["19\/03\/2026","GBP","#)
        #expect(try parse(code) == recorded)
        #expect(ProviderFixture.quote("GBP", on: "2026-03-19", in: recorded) == quote("GBP", "172.4900"))
    }

    @Test("rejects a currency given two figures on one day, a name it does not know, a day that does not exist, a cut row count")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: #"["19\/03\/2026","STG POUND","#, with: #"["19\/03\/2026","US DOLLAR","#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let unknown = try ProviderFixture.edited(file, replacing: #""STG POUND""#, with: #""POUND""#)
        #expect(ProviderFixture.error { try parse(unknown) }?.isLayout(of: "CBK") == true)
        let date = try ProviderFixture.edited(file, replacing: #"["19\/03\/2026","US DOLLAR""#, with: #"["31\/04\/2026","US DOLLAR""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("31/04/2026"))
        let count = try ProviderFixture.edited(file, replacing: #""recordsFiltered":"11550""#, with: #""recordsFiltered":"11551""#)
        #expect(ProviderFixture.error { try parse(count) }?.isLayout(of: "CBK") == true)
        let cells = try ProviderFixture.edited(file, replacing: #""129.5200"]"#, with: #""129.5200","x"]"#)
        #expect(ProviderFixture.error { try parse(cells) }?.isLayout(of: "CBK") == true)
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notTheTable() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 4099) {
            #expect(ProviderFixture.error { try parse(cut) } != nil, "a cut at \(cut.count) bytes was read")
        }
        #expect(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }?.isLayout(of: "CBK") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(ProviderFixture.error { try parse(Array(#"{"draw":1,"recordsTotal":"0","recordsFiltered":"0","data":[]}"#.utf8)) } == .empty)
    }

    @Test("each recording imports as `rates-relay import --provider CBK` reads it: as it parses")
    func imports() throws {
        let files = [
            "cbk-kenya/00_wp-admin_admin-ajax.php_action=get_wdtable_table_id=193_fa789f2d.html",
        ]
        for name in files {
            let bytes = try ProviderFixture.bytes(name)
            #expect(try ProviderFile.read([bytes], provider: provider) == (try parse(bytes)), "\(name)")
        }
    }
}
