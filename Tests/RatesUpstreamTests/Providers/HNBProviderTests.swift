import RatesCore
import RatesUpstream
import Testing

@Suite("HNB adapter")
struct HNBProviderTests {
    let provider = HNBProvider()
    let file = "hnb-croatia-historical/00_tecajn-eur_v3_datum-primjene-do=2023-01-06_datum-primjene-od=2023-01-02.json"
    let kuna = "hnb-croatia-historical/01_tecajn_v2_datum-do=2022-12-31_datum-od=2022-12-28.json"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the lists of 2023-01-02 to 2023-01-06: 13 currencies a day, middle rates per 1 EUR with their trailing zeros")
    func lists() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2023-01-02", "2023-01-03", "2023-01-04", "2023-01-05", "2023-01-06"])
        #expect(publications.allSatisfy { $0.quotes.count == 13 })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .unitsPerPivot && $0.unit == 1 } })
        #expect(publications[0].codes == ["AUD", "BAM", "CAD", "CHF", "CZK", "DKK", "GBP", "HUF", "JPY", "NOK", "PLN", "SEK", "USD"])
        #expect(ProviderFixture.quote("USD", on: "2023-01-02", in: publications) == quote("USD", "1.066600", .unitsPerPivot))
        #expect(ProviderFixture.quote("HUF", on: "2023-01-06", in: publications)?.value == "396.880000")
        #expect(ProviderFixture.quote("CHF", on: "2023-01-06", in: publications)?.value == "0.983900")
        #expect(ProviderFixture.quote("JPY", on: "2023-01-04", in: publications)?.value == "137.930000")
    }

    @Test("asks for today's list without a query, and for a range with both application days")
    func requests() {
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: "https://api.hnb.hr/tecajn-eur/v3")])
        let range = provider.requests(for: .range(Day("2023-01-02")!, Day("2023-01-06")!))
        #expect(range == [ProviderRequest(url: "https://api.hnb.hr/tecajn-eur/v3?datum-primjene-od=2023-01-02&datum-primjene-do=2023-01-06")])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(HNBProvider(baseURL: "http://127.0.0.1:8080/hnb").requests(for: .latest)[0].url == "http://127.0.0.1:8080/hnb/tecajn-eur/v3")
        #expect(provider.requests(for: .range(Day("2023-01-06")!, Day("2023-01-02")!)).isEmpty)
    }

    @Test("rejects a value that is not a decimal, a currency twice, a bad code or day")
    func alteredFields() throws {
        let day = Day("2023-01-02")!
        let value = try ProviderFixture.edited(file, replacing: "\"srednji_tecaj\":\"1,066600\"", with: "\"srednji_tecaj\":\"1,06x600\"")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "1,06x600"))
        let number = try ProviderFixture.edited(file, replacing: "\"srednji_tecaj\":\"1,066600\"", with: "\"srednji_tecaj\":1.0666")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(number) }))
        let twice = try ProviderFixture.edited(file, replacing: "\"valuta\":\"CAD\"", with: "\"valuta\":\"AUD\"")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("AUD")!, day: day))
        let code = try ProviderFixture.edited(file, replacing: "\"valuta\":\"CAD\"", with: "\"valuta\":\"Cad\"")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("Cad", day: day))
        let date = try ProviderFixture.edited(file, replacing: "\"datum_primjene\":\"2023-01-02\"", with: "\"datum_primjene\":\"2023-02-30\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2023-02-30"))
        let missing = try ProviderFixture.edited(file, replacing: "\"srednji_tecaj\":\"1,066600\",", with: "")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(missing) }))
    }

    @Test("reads a kuna list (tecajn/v2) as the one figure it gives against the euro: its euro row, HRK per 1 EUR; the rows against the kuna left out")
    func kunaList() throws {
        let publications = try parse(ProviderFixture.bytes(kuna))
        #expect(publications.count == 1)
        #expect(publications[0].day == Day("2022-12-31")!)
        #expect(publications[0].quotes == [quote("HRK", "7.534500", .unitsPerPivot)])
        #expect(try ProviderFile.read([try ProviderFixture.bytes(kuna)], provider: provider, today: Day("2023-01-10")!) == publications)
        // A list stating the euro's figure for 100 euros keeps that unit.
        let hundred = try ProviderFixture.edited(kuna, replacing: #""jedinica":1,"kupovni_tecaj":"7,511897""#, with: #""jedinica":100,"kupovni_tecaj":"7,511897""#)
        #expect(try parse(hundred)[0].quotes == [quote("HRK", "7.534500", unit: 100, .unitsPerPivot)])
    }

    @Test("a kuna list without a euro row (the lists before 1999) is no publication; its rows are still checked")
    func kunaListWithoutEuro() throws {
        // The list's euro row relabelled as the Deutsche mark's, as the lists before the euro named it.
        let noEuro = try ProviderFixture.edited(kuna, replacing: #""valuta":"EUR""#, with: #""valuta":"DEM""#)
        #expect(try parse(noEuro) == [])
        let day = Day("2022-12-31")!
        let value = try ProviderFixture.edited(kuna, replacing: #""srednji_tecaj":"1,879537""#, with: #""srednji_tecaj":"1,87x537""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("HUF")!, day: day, text: "1,87x537"))
        let unit = try ProviderFixture.edited(kuna, replacing: #""jedinica":100,"kupovni_tecaj":"1,873898""#, with: #""jedinica":50,"kupovni_tecaj":"1,873898""#)
        #expect(ProviderFixture.error { try parse(unit) } == .invalidRate(currency: CurrencyCode("HUF")!, day: day, text: "50"))
        let code = try ProviderFixture.edited(kuna, replacing: #""valuta":"HUF""#, with: #""valuta":"Huf""#)
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("Huf", day: day))
        let date = try ProviderFixture.edited(kuna, replacing: #""datum":"2022-12-31""#, with: #""datum":"2022-12-32""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2022-12-32"))
    }

    @Test("a range without a list, answered [], is no publication")
    func noList() throws {
        #expect(try parse(Array("[]".utf8)) == [])
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notTheList() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file)) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }
}
