import RatesCore
import RatesUpstream
import Testing

@Suite("BOB adapter")
struct BOBProviderTests {
    let provider = BOBProvider()
    let file = "bob-botswana/00_export_exchange-rates.csv__format=csv_page.csv"
    let header = "\u{FEFF}Date,CHN,EUR,GBP,USD,SDR,YEN,ZAR\n"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the whole export: 6241 days from 2001-01-03 to 2026-03-19, units per 1 BWP, the bank's column names made ISO codes")
    func export() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 6241)
        #expect(publications.first?.day == Day("2001-01-03")!)
        #expect(publications.last?.day == Day("2026-03-19")!)
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .unitsPerPivot && $0.unit == 1 } })
        let newest = try #require(publications.last)
        #expect(newest.codes == ["CNY", "EUR", "GBP", "JPY", "USD", "XDR", "ZAR"])
        #expect(newest["USD"] == quote("USD", "0.0748", .unitsPerPivot))
        #expect(newest["JPY"]?.value == "11.9500")
        #expect(newest["CNY"]?.value == "0.5165")
        #expect(newest["XDR"]?.value == "0.0551")
        // 0.0000 is no figure: the yuan before September 2016, the yen on 2005-01-17.
        #expect(ProviderFixture.quote("CNY", on: "2009-04-27", in: publications) == nil)
        #expect(ProviderFixture.quote("ZAR", on: "2009-04-27", in: publications)?.value == "1.1929")
        let yenless = try #require(publications.first { $0.day == Day("2005-01-17")! })
        #expect(yenless.codes == ["EUR", "GBP", "USD", "XDR", "ZAR"])
        // A day on two rows that disagree is left out; the days around it are read.
        #expect(!publications.contains { $0.day == Day("2018-01-17")! })
        #expect(ProviderFixture.quote("USD", on: "2018-01-16", in: publications)?.value == "0.1023")
        #expect(ProviderFixture.quote("USD", on: "2018-01-18", in: publications)?.value == "0.1023")
    }

    @Test("reads a column headed by any ISO 4217 code: the yuan and the yen under their codes, a currency the bank adds")
    func isoColumns() throws {
        let recorded = try parse(ProviderFixture.bytes(file))
        // The header as the bank would write it with CNY and JPY in place of its CHN and YEN.
        let codes = try #require(ProviderFixture.replacing("YEN", with: "JPY", in: try ProviderFixture.edited(file, replacing: "CHN,EUR", with: "CNY,EUR")))
        #expect(try parse(codes) == recorded)
        // A column the bank adds, under its ISO code: the rand's column headed AUD reads as AUD.
        let added = try parse(ProviderFixture.edited(file, replacing: "YEN,ZAR", with: "YEN,AUD"))
        #expect(added.last?["AUD"] == quote("AUD", "1.2717", .unitsPerPivot) && added.last?["ZAR"] == nil)
        #expect(added.count == recorded.count)
    }

    @Test("asks for the whole file, for the newest publication and for a range alike")
    func requests() {
        let url = "https://www.bankofbotswana.bw/export/exchange-rates.csv?_format=csv&page"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: url)])
        let range = provider.requests(for: .range(Day("2026-03-16")!, Day("2026-03-19")!))
        #expect(range == [ProviderRequest(url: url)])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(BOBProvider(baseURL: "http://127.0.0.1:8080/bob").requests(for: .latest)[0].url == "http://127.0.0.1:8080/bob/export/exchange-rates.csv?_format=csv&page")
    }

    @Test("reads two rows of one day once when they agree")
    func agreeingRows() throws {
        let row = "\"19 Mar 2026\",0.5165,0.0653,0.0564,0.0748,0.0551,11.9500,1.2717\n"
        let publications = try parse(Array((header + row + row).utf8))
        #expect(publications.count == 1)
        #expect(publications[0].quotes.count == 7)
    }

    @Test("rejects a value that is not a decimal, an unknown or repeated column, a bad day, a short row")
    func alteredFields() throws {
        let day = Day("2026-03-19")!
        let value = try ProviderFixture.edited(file, replacing: "0.0748", with: "0.07x8")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "0.07x8"))
        let comma = try ProviderFixture.edited(file, replacing: "11.9500", with: "11,9500")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(comma) }))
        let column = try ProviderFixture.edited(file, replacing: "YEN", with: "JPN")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(column) }))
        let twice = try ProviderFixture.edited(file, replacing: "CHN,EUR", with: "EUR,EUR")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(twice) }))
        let date = try ProviderFixture.edited(file, replacing: "\"19 Mar 2026\"", with: "\"31 Apr 2026\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("31 Apr 2026"))
        let short = try ProviderFixture.edited(file, replacing: ",1.2717", with: "")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(short) }))
    }

    @Test("rejects a truncated body, an HTML error page, an empty body and a header without rows")
    func notTheFile() throws {
        // Cut inside a row, the row is short or its figure is cut: a cut at a row's end would read as a shorter history.
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 4999) {
            _ = ProviderFixture.error { try parse(cut) }
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(ProviderFixture.error { try parse(Array(header.utf8)) } == .empty)
    }
}
