import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("NBM adapter")
struct NBMProviderTests {
    let provider = NBMProvider(today: { Day("2026-04-07")! })
    let file = "nbm-moldova/02_en_official_exchange_rates_date=07.04.2026_get_xml=1.xml"
    let day = Day("2026-04-07")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the table of 2026-04-07: 40 currencies with the SDR, MDL per Nominal units, trailing zeros kept")
    func dailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day) == [day])
        let table = try #require(publications.first)
        #expect(table.quotes.count == 40)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        #expect(table["USD"] == quote("USD", "17.5303"))
        #expect(table["EUR"] == quote("EUR", "20.2457"))
        #expect(table["XDR"] == quote("XDR", "23.8609"))
        #expect(table["CAD"] == quote("CAD", "12.5900"))
        #expect(table["JPY"] == quote("JPY", "10.9938", unit: 100))
        #expect(table["ALL"] == quote("ALL", "2.1121", unit: 10))
        #expect(table.quotes.filter { $0.unit != 1 }.count == 12)
    }

    @Test("imports both recorded days, each day's table and metal prices one publication")
    func imports() throws {
        let urls = [
            "nbm-moldova/00_en_official_exchange_rates_date=06.04.2026_get_xml=1.xml", "nbm-moldova/01_en_official_metal_rates_date=06.04.2026_get_xml=1.xml",
            file, "nbm-moldova/03_en_official_metal_rates_date=07.04.2026_get_xml=1.xml",
        ].map { Fixtures.url($0) }
        let publications = try provider.publications(inFiles: urls, subjects: [], today: day)
        #expect(publications.map(\.day.description) == ["2026-04-06", "2026-04-07"])
        #expect(publications.map(\.quotes.count) == [42, 42])
        #expect(ProviderFixture.quote("USD", on: "2026-04-06", in: publications) == quote("USD", "17.6124"))
        // 41.2972 lei per gram of silver × 31.1034768 grams per troy ounce, exactly (products checked with Python's decimal).
        #expect(ProviderFixture.quote("XAG", on: "2026-04-07", in: publications) == quote("XAG", "1284.48650210496"))
    }

    @Test("reads the metal prices per gram as prices per troy ounce, exactly: 2,617.7179 lei per gram of gold")
    func metals() throws {
        let metalFile = "nbm-moldova/01_en_official_metal_rates_date=06.04.2026_get_xml=1.xml"
        let request = provider.requests(for: .range(Day("2026-04-06")!, Day("2026-04-06")!))[1]
        let publications = try provider.parse(ProviderFixture.bytes(metalFile), of: request)
        #expect(publications.map(\.day) == [Day("2026-04-06")!])
        #expect(publications.first?["XAU"] == quote("XAU", "81420.12797159472"))
        #expect(publications.first?["XAG"] == quote("XAG", "1250.24468449584"))
        // Another unit than one gram, or a name that does not say grams, is not a price this adapter can convert.
        for (original, edited) in [("<Nominal>1</Nominal>", "<Nominal>10</Nominal>"), ("<Name>Gram gold</Name>", "<Name>Ounce gold</Name>"),
                                   ("<CharCode>XAU</CharCode>", "<CharCode>USD</CharCode>")] {
            let body = try ProviderFixture.edited(metalFile, replacing: original, with: edited)
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try provider.parse(body, of: request) }), "\(edited)")
        }
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(metalFile)) {
            #expect(ProviderFixture.error { try provider.parse(cut, of: request) } != nil)
        }
        // The currency table is not read as metal prices, nor the other way round.
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try provider.parse(ProviderFixture.bytes(file), of: request) }))
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.bytes(metalFile)) }))
    }

    @Test("a 404 for the metal prices (days before their series) or a price list without metals is no publication; the table's 404 is not")
    func noMetals() throws {
        for request in provider.requests(for: .range(Day("2009-03-02")!, Day("2009-03-03")!)) {
            #expect(provider.meansNoPublication(httpStatus: 404, for: request) == request.url.contains("/official_metal_rates"))
            #expect(!provider.meansNoPublication(httpStatus: 500, for: request))
        }
        let metalFile = "nbm-moldova/01_en_official_metal_rates_date=06.04.2026_get_xml=1.xml"
        let request = try #require(provider.requests(for: .latest).first { $0.url.contains("/official_metal_rates") })
        let text = String(decoding: try ProviderFixture.bytes(metalFile), as: UTF8.self)
        // The answer cut to its <MetalPrice> element, its metals left out.
        let empty = text.replacing(/<Metal ID="">.*<\/Metal>\s*/.dotMatchesNewlines(), with: "")
        #expect(empty.contains("<MetalPrice Date=\"06.04.2026\"") && !empty.contains("<Metal "))
        #expect(try provider.parse(Array(empty.utf8), of: request) == [])
    }

    @Test("asks for today's table and metal prices, and for a range both per Monday to Friday")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == [
            "https://www.bnm.md/en/official_exchange_rates?date=07.04.2026&get_xml=1", "https://www.bnm.md/en/official_metal_rates?date=07.04.2026&get_xml=1",
        ])
        let range = provider.requests(for: .range(Day("2026-04-03")!, Day("2026-04-06")!))
        #expect(
            range.map(\.url) == [
                "https://www.bnm.md/en/official_exchange_rates?date=03.04.2026&get_xml=1",
                "https://www.bnm.md/en/official_metal_rates?date=03.04.2026&get_xml=1",
                "https://www.bnm.md/en/official_exchange_rates?date=06.04.2026&get_xml=1",
                "https://www.bnm.md/en/official_metal_rates?date=06.04.2026&get_xml=1",
            ])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<Value>17.5303</Value>", with: "<Value>17.53O3</Value>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "17.53O3"))
    }

    @Test("rejects a currency listed twice")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "<CharCode>EUR</CharCode>", with: "<CharCode>USD</CharCode>")
        #expect(ProviderFixture.error { try parse(body) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
    }

    @Test("rejects a bad code, nominal or day")
    func badFields() throws {
        let code = try ProviderFixture.edited(file, replacing: "<CharCode>EUR</CharCode>", with: "<CharCode>eur</CharCode>")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("eur", day: day))
        let nominal = try ProviderFixture.edited(file, replacing: "<Nominal>100</Nominal>", with: "<Nominal></Nominal>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(nominal) }))
        let date = try ProviderFixture.edited(file, replacing: "Date=\"07.04.2026\"", with: "Date=\"2026-04-07\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-04-07"))
    }

    @Test("rejects truncated bodies, an HTML error page, an empty body and a table without currencies")
    func notTheTable() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file)) {
            #expect(ProviderFixture.error { try parse(cut) } != nil)
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let empty = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ValCurs Date=\"07.04.2026\" name=\"Official exchange rate\"></ValCurs>".utf8)
        #expect(ProviderFixture.error { try parse(empty) } == .emptyDay(day))
    }
}
