import RatesCore
import RatesUpstream
import Testing

@Suite("BEAC adapter")
struct BEACProviderTests {
    let provider = BEACProvider()
    let file = "beac-centralafrica/beac_01_index.html"
    let day = Day("2026-05-22")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider)
    }

    @Test("reads the widget of 22 May 2026 (its Date de valeur): 13 currencies, the exact midpoint of buying and selling in XAF per 1 unit")
    func widget() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day) == [day])
        let table = try #require(publications.first)
        #expect(table.codes == ["AED", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "JPY", "MAD", "SAR", "SEK", "USD", "ZAR"])
        #expect(table.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits })
        // The euro's fixed parity, 655.957 both ways.
        #expect(ProviderFixture.quote("EUR", in: table) == quote("EUR", "655.957"))
        // 561.2317 and 566.0505
        #expect(ProviderFixture.quote("USD", in: table)?.value == "563.6411")
        // 34.131 and 34.4901: one digit more than either.
        #expect(ProviderFixture.quote("ZAR", in: table)?.value == "34.31055")
        #expect(ProviderFixture.quote("JPY", in: table)?.value == "3.5527")
    }

    @Test("asks for the home page, for the newest publication and a range alike")
    func requests() {
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: "https://www.beac.int/")])
        #expect(provider.requests(for: .range(Day("2026-05-01")!, Day("2026-05-22")!)) == [ProviderRequest(url: "https://www.beac.int/")])
        #expect(BEACProvider(baseURL: "http://127.0.0.1:9/beac").requests(for: .latest)[0].url == "http://127.0.0.1:9/beac/")
    }

    @Test("rejects a figure that is not a decimal, a currency twice, a bad pair or day, a missing date")
    func badWidget() throws {
        let usd = CurrencyCode("USD")!
        let garbage = try ProviderFixture.edited(file, replacing: "561.2317", with: "561,2317")
        #expect(error(garbage) == .invalidRate(currency: usd, day: day, text: "561,2317"))
        let twice = try ProviderFixture.edited(file, replacing: "GBP/XAF", with: "USD/XAF")
        #expect(error(twice) == .duplicateCurrency(usd, day: day))
        let pair = try ProviderFixture.edited(file, replacing: "GBP/XAF", with: "GBP/EUR")
        #expect(error(pair)?.isLayout(of: "BEAC") == true)
        let code = try ProviderFixture.edited(file, replacing: "GBP/XAF", with: "Gbp/XAF")
        #expect(error(code) == .invalidCurrencyCode("Gbp", day: day))
        let unknown = try ProviderFixture.edited(file, replacing: "GBP/XAF", with: "XYZ/XAF")
        #expect(error(unknown) == .invalidCurrencyCode("XYZ", day: day))
        let oneSided = try ProviderFixture.edited(file, replacing: "561.2317", with: "")
        #expect(error(oneSided) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: ""))
        let badDay = try ProviderFixture.edited(file, replacing: "Date de valeur : 22/05/2026", with: "Date de valeur : 31/06/2026")
        #expect(error(badDay) == .invalidDay("31/06/2026"))
        let noDay = try ProviderFixture.edited(file, replacing: "Date de valeur : 22/05/2026", with: "")
        #expect(error(noDay)?.isLayout(of: "BEAC") == true)
    }

    @Test("rejects a cut page, an HTML error page and an empty body")
    func notThePage() throws {
        let bytes = try ProviderFixture.bytes(file)
        let whole = try parse(bytes)
        for prefix in ProviderFixture.truncations(of: bytes, stride: 4099) {
            if let publications = try? parse(prefix) {
                #expect(publications == whole, "prefix of \(prefix.count) bytes")
            }
        }
        #expect(error(Array(bytes[..<116_000])) != nil)
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BEAC") == true)
        #expect(error([]) == .empty)
    }

    @Test("the recording imports as an answer of the adapter's")
    func imports() throws {
        #expect(try ProviderFile.read([try ProviderFixture.bytes(file)], provider: provider, today: day).map(\.day) == [day])
    }
}
