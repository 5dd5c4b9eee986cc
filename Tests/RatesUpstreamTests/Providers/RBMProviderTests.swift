import RatesCore
import RatesUpstream
import Testing

@Suite("RBM adapter")
struct RBMProviderTests {
    let provider = RBMProvider(today: { Day("2024-01-05")! })
    let file = "rbm-malawi/00_Statistics_ExchangeRatesFilter_e4b1a7c2.html"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads 2024-01-02 to 2024-01-05: 36 currencies a day, the middle rate in MWK per unit; CMD and IEP skipped, XDR kept")
    func range() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day) == [Day("2024-01-02")!, Day("2024-01-03")!, Day("2024-01-04")!, Day("2024-01-05")!])
        #expect(publications.allSatisfy { $0.quotes.count == 36 })
        #expect(publications.allSatisfy { $0["CMD"] == nil && $0["IEP"] == nil })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits && $0.unit == 1 } })
        #expect(ProviderFixture.quote("AED", on: "2024-01-02", in: publications) == quote("AED", "458.3832"))
        #expect(ProviderFixture.quote("USD", on: "2024-01-05", in: publications) == quote("USD", "1683.3663"))
        #expect(ProviderFixture.quote("XDR", on: "2024-01-05", in: publications)?.value == "2250.2731")
        #expect(ProviderFixture.quote("IDR", on: "2024-01-05", in: publications)?.value == "0.1085")
        #expect(ProviderFixture.quote("ZMW", on: "2024-01-02", in: publications)?.value == "65.5848")
    }

    @Test("posts the range as MM/DD/YYYY; the newest publication as the last seven days")
    func requests() {
        let latest = provider.requests(for: .latest)
        #expect(
            latest == [
                ProviderRequest(
                    url: "https://www.rbm.mw/Statistics/ExchangeRatesFilter/", method: .post,
                    headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "RateTypes=&StartDate=12%2F29%2F2023&EndDate=01%2F05%2F2024")
            ])
        let range = provider.requests(for: .range(Day("2024-01-02")!, Day("2024-01-05")!))
        #expect(range.map(\.body) == ["RateTypes=&StartDate=01%2F02%2F2024&EndDate=01%2F05%2F2024"])
        #expect(RBMProvider(baseURL: "http://127.0.0.1:8080").requests(for: .latest)[0].url == "http://127.0.0.1:8080/Statistics/ExchangeRatesFilter/")
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<td>458.3832</td>", with: "<td>458.38x2</td>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("AED")!, day: Day("2024-01-02")!, text: "458.38x2"))
    }

    @Test("rejects a currency twice on one day, a bad code, a day that does not exist, another table")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: "<span style=''>Jan 03&nbsp;&nbsp;</span>", with: "<span style=''>Jan 02&nbsp;&nbsp;</span>")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("AED")!, day: Day("2024-01-02")!))
        let code = try ProviderFixture.edited(file, replacing: "AED\r\n", with: "Aed\r\n")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("Aed", day: Day("2024-01-02")!))
        let date = try ProviderFixture.edited(file, replacing: "<span style=''>Jan 02&nbsp;&nbsp;</span>", with: "<span style=''>Feb 30&nbsp;&nbsp;</span>")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("Feb 30 2024"))
        let header = try ProviderFixture.edited(file, replacing: "<th>Middle</th>", with: "<th>Mid</th>")
        #expect(ProviderFixture.error { try parse(header) }?.isLayout(of: "RBM") == true)
        let cells = try ProviderFixture.edited(file, replacing: "<td>458.3832</td>", with: "")
        #expect(ProviderFixture.error { try parse(cells) }?.isLayout(of: "RBM") == true)
    }

    @Test("a table without rows is no publication")
    func noPublication() throws {
        let body = Array(
            "<table id=\"exchange-rates\"><thead><tr><th>Currency</th><th>Buying</th><th>Middle</th><th>Selling</th><th>Date</th></tr></thead><tbody></tbody></table>".utf8)
        #expect(try parse(body) == [])
    }

    @Test("rejects every truncation inside the table, an HTML error page and an empty body")
    func notTheTable() throws {
        let whole = try parse(ProviderFixture.bytes(file))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 307) {
            let read = try? parse(cut)
            #expect(read == nil || read == whole, "a cut at \(cut.count) bytes was read as another table")
        }
        #expect(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) } != nil)
        #expect(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }?.isLayout(of: "RBM") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as `rates-relay import --provider RBM` reads it: as it parses")
    func imports() throws {
        let files = [
            "rbm-malawi/00_Statistics_ExchangeRatesFilter_e4b1a7c2.html",
        ]
        for name in files {
            let bytes = try ProviderFixture.bytes(name)
            #expect(try ProviderFile.read([bytes], provider: provider) == (try parse(bytes)), "\(name)")
        }
    }
}
