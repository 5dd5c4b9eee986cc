import RatesCore
import RatesUpstream
import Testing

@Suite("CBLLR adapter")
struct CBLLRProviderTests {
    let provider = CBLLRProvider(today: { Day("2026-05-24")! })
    let file = "cbl-liberia/00_research_buying-selling-rates.html"
    let day = Day("2026-05-23")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the first page: 31 days from 2026-04-11 to 2026-05-23, LRD per USD as the exact midpoint of buying and selling")
    func firstPage() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 31)
        #expect(publications.first?.day == Day("2026-04-11"))
        #expect(publications.last?.day == day)
        #expect(publications.allSatisfy { $0.quotes.count == 1 && $0.quotes[0].direction == .unitsPerPivot && $0.quotes[0].unit == 1 })
        // L$182.0819/US$1.00 and L$183.9653/US$1.00.
        #expect(ProviderFixture.quote("LRD", on: "2026-05-23", in: publications) == quote("LRD", "183.0236", .unitsPerPivot))
        // 182.0951 and 184.0141.
        #expect(ProviderFixture.quote("LRD", on: "2026-05-18", in: publications)?.value == "183.0546")
        // 183.2605 and 185.3188: a midpoint with one more digit.
        #expect(ProviderFixture.quote("LRD", on: "2026-04-11", in: publications)?.value == "184.28965")
        // Sundays have no row.
        #expect(ProviderFixture.quote("LRD", on: "2026-05-17", in: publications) == nil)
    }

    @Test("asks for the first page for the newest publication, and for as many pages as reach back to a range's first day")
    func requests() {
        let url = "https://www.cbl.org.lr/research/buying-selling-rates"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: url)])
        // 2026-05-11 through today, 2026-05-24: 14 days, two pages.
        #expect(provider.requests(for: .range(Day("2026-05-11")!, Day("2026-05-20")!)).map(\.url) == [url, url + "?page=1"])
        #expect(provider.requests(for: .range(Day("2026-04-01")!, Day("2026-04-30")!)).count == 5)
        #expect(provider.requests(for: .range(Day("2012-07-05")!, Day("2012-07-31")!)).count == 200)
        #expect(CBLLRProvider(baseURL: "http://127.0.0.1:8080").requests(for: .latest)[0].url == "http://127.0.0.1:8080/research/buying-selling-rates")
    }

    @Test("rejects a value that is not a decimal or not in L$…/US$1.00")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "L$182.0819/US$1.00", with: "L$182.08x9/US$1.00")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("LRD")!, day: day, text: "L$182.08x9/US$1.00"))
        let other = try ProviderFixture.edited(file, replacing: "L$182.0819/US$1.00", with: "L$18208.19/US$100")
        #expect(ProviderFixture.error { try parse(other) } == .invalidRate(currency: CurrencyCode("LRD")!, day: day, text: "L$18208.19/US$100"))
    }

    @Test("rejects a day listed twice, a wrong weekday, a datetime of another day, a day that does not exist, another header")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: "<time datetime=\"2026-05-22T12:00:00Z\">Friday, May 22, 2026", with: "<time datetime=\"2026-05-23T12:00:00Z\">Saturday, May 23, 2026")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateDay(day))
        let weekday = try ProviderFixture.edited(file, replacing: "Saturday, May 23, 2026", with: "Friday, May 23, 2026")
        #expect(ProviderFixture.error { try parse(weekday) } == .invalidDay("Friday, May 23, 2026"))
        let stamp = try ProviderFixture.edited(file, replacing: "datetime=\"2026-05-23T12:00:00Z\"", with: "datetime=\"2026-05-22T12:00:00Z\"")
        #expect(ProviderFixture.error { try parse(stamp) } == .invalidDay("2026-05-22T12:00:00Z"))
        let date = try ProviderFixture.edited(file, replacing: "Saturday, May 23, 2026", with: "Saturday, May 32, 2026")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("Saturday, May 32, 2026"))
        let header = try ProviderFixture.edited(file, replacing: "scope=\"col\">Selling</th>", with: "scope=\"col\">Sell</th>")
        #expect(ProviderFixture.error { try parse(header) }?.isLayout(of: "CBLLR") == true)
    }

    @Test("rejects every truncation inside the table, an HTML error page and an empty body")
    func notTheTable() throws {
        let whole = try parse(ProviderFixture.bytes(file))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 701) {
            let read = try? parse(cut)
            #expect(read == nil || read == whole, "a cut at \(cut.count) bytes was read as another table")
        }
        #expect(ProviderFixture.error { try parse(ProviderFixture.truncated(file, fraction: 0.6)) } != nil)
        #expect(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }?.isLayout(of: "CBLLR") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as `rates-relay import --provider CBLLR` reads it: as it parses")
    func imports() throws {
        let files = [
            "cbl-liberia/00_research_buying-selling-rates.html",
        ]
        for name in files {
            let bytes = try ProviderFixture.bytes(name)
            #expect(try ProviderFile.read([bytes], provider: provider) == (try parse(bytes)), "\(name)")
        }
    }
}
