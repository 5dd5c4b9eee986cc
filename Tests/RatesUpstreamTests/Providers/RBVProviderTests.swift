import RatesCore
import RatesUpstream
import Testing

@Suite("RBV adapter")
struct RBVProviderTests {
    let provider = RBVProvider(today: { Day("2026-05-24")! })
    let file = "rbv-vanuatu/00_index.php_en_exchange-rates_limit1=100000.html"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the whole list: 185 days from 2025-08-26 to 2026-05-22, six currencies in VUV per unit, in every day notation")
    func wholeList() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 185)
        #expect(publications.first?.day == Day("2025-08-26"))
        #expect(publications.last?.day == Day("2026-05-22"))
        #expect(publications.allSatisfy { $0.codes == ["AUD", "EUR", "GBP", "JPY", "NZD", "USD"] })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits && $0.unit == 1 } })
        let last = try #require(publications.last)
        #expect(last["USD"] == quote("USD", "116.28"))
        #expect(last["JPY"] == quote("JPY", "0.7316"))
        #expect(last["EUR"]?.value == "135.14")
        // `03-Sep-25`, `7 May 2026`; trailing zeros kept.
        #expect(ProviderFixture.quote("USD", on: "2025-08-26", in: publications)?.value == "119.06")
        #expect(ProviderFixture.quote("GBP", on: "2025-08-28", in: publications)?.value == "160.40")
        #expect(ProviderFixture.quote("USD", on: "2026-05-07", in: publications) != nil)
        // The row dated 05 January 2025, before the series began, is skipped.
        #expect(!publications.contains { $0.day < RBVProvider.firstDay })
    }

    @Test("asks for the list's first 20 rows for the newest publication, for every row for a range")
    func requests() {
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: "https://www.rbv.gov.vu/index.php/en/exchange-rates?limit1=20")])
        #expect(
            provider.requests(for: .range(Day("2026-01-01")!, Day("2026-01-31")!))
                == [ProviderRequest(url: "https://www.rbv.gov.vu/index.php/en/exchange-rates?limit1=100000")])
        #expect(RBVProvider(baseURL: "http://127.0.0.1:8080").requests(for: .latest)[0].url == "http://127.0.0.1:8080/index.php/en/exchange-rates?limit1=20")
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "116.28\t", with: "116,28\t")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-05-22")!, text: "116,28"))
    }

    @Test("rejects a day listed twice, a day that does not exist, an empty figure, another header")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: "21 May 2026", with: "22 May 2026")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateDay(Day("2026-05-22")!))
        let date = try ProviderFixture.edited(file, replacing: "21 May 2026", with: "31 April 2026")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("31 April 2026"))
        let header = try ProviderFixture.edited(file, replacing: "<span>NZD</span>", with: "<span>FJD</span>")
        #expect(ProviderFixture.error { try parse(header) }?.isLayout(of: "RBV") == true)
        // A cell left open is closed by the next one, as in a browser: an empty figure.
        let open = try ProviderFixture.edited(file, replacing: "\t\t\t116.28\t\t</td>", with: "")
        #expect(ProviderFixture.error { try parse(open) } == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-05-22")!, text: ""))
        let dashed = try ProviderFixture.edited(file, replacing: "03-Sep-25", with: "03-Sep-2025x")
        #expect(ProviderFixture.error { try parse(dashed) } == .invalidDay("03-Sep-2025x"))
    }

    @Test("reads a day typed in any of the bank's forms: abbreviated or full month, dashed or spaced, two- or four-digit year")
    func dayForms() throws {
        // Four rows' days retyped in forms the hand-kept list may use.
        let edits = [("21 May 2026", "21-May-2026"), ("20 May 2026", "20 May 26"), ("03-Sep-25", "3-September-25"), ("02-Sep-25", "02-Sept-25")]
        var bytes = try ProviderFixture.bytes(file)
        for (old, new) in edits { bytes = try #require(ProviderFixture.replacing(old, with: new, in: bytes)) }
        #expect(try parse(bytes) == parse(ProviderFixture.bytes(file)))
        for (text, day) in [("12 Jun 2026", "2026-06-12"), ("3-June-26", "2026-06-03"), ("03-Sept-25", "2025-09-03"), ("7 May 2026", "2026-05-07")] {
            #expect(try RBVProvider.day(text) == Day(day)!)
        }
    }

    @Test("a row dated out of the list's newest-first order, or after tomorrow, is a mistyped date: skipped, the rest read")
    func mistypedDays() throws {
        let whole = try parse(ProviderFixture.bytes(file))
        // 21 May 2026 typed as 9 May 2026 (a Saturday not in the list), between 22 and 20 May.
        let back = try ProviderFixture.edited(file, replacing: "\t\t\t21 May 2026\t\t</td>", with: "\t\t\t9 May 2026\t\t</td>")
        let read = try parse(back)
        #expect(read.count == 184)
        #expect(read == whole.filter { $0.day != Day("2026-05-21")! })
        // 22 May 2026 typed as 22 May 2027: after tomorrow.
        let ahead = try ProviderFixture.edited(file, replacing: "22 May 2026", with: "22 May 2027")
        #expect(try parse(ahead) == whole.filter { $0.day != Day("2026-05-22")! })
    }

    @Test("rejects every truncation inside the table, an HTML error page and an empty body")
    func notTheTable() throws {
        let whole = try parse(ProviderFixture.bytes(file))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 20011) {
            let read = try? parse(cut)
            #expect(read == nil || read == whole, "a cut at \(cut.count) bytes was read as another list")
        }
        #expect(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) } != nil)
        #expect(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }?.isLayout(of: "RBV") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as `rates-relay import --provider RBV` reads it: as it parses")
    func imports() throws {
        let files = [
            "rbv-vanuatu/00_index.php_en_exchange-rates_limit1=100000.html",
        ]
        for name in files {
            let bytes = try ProviderFixture.bytes(name)
            #expect(try ProviderFile.read([bytes], provider: provider) == (try parse(bytes)), "\(name)")
        }
    }
}
