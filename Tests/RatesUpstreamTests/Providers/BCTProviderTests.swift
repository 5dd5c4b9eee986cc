import RatesCore
import RatesUpstream
import Testing

@Suite("BCT adapter")
struct BCTProviderTests {
    let provider = BCTProvider(today: { Day("2026-05-20")! })
    let file = "bct-tunisia/00_bct_siteprod_cours_archiv.jsp_5b75628c.html"
    let day = Day("2026-05-18")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the interbank table of 2026-05-18: 20 currencies, TND per Unité units, decimal commas made points; not the manual-exchange table")
    func dailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 1)
        let table = try #require(publications.first)
        #expect(table.day == day)
        #expect(table.quotes.count == 20)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        #expect(table["USD"] == quote("USD", "2.9034"))
        #expect(table["EUR"] == quote("EUR", "3.3965"))
        #expect(table["DZD"] == quote("DZD", "0.2198", unit: 10))
        #expect(table["JPY"] == quote("JPY", "18.4093", unit: 1000))
        #expect(table["DKK"] == quote("DKK", "45.5540", unit: 100))
        #expect(table["MRU"] == quote("MRU", "0.7292", unit: 10))
        // Eleven currencies are quoted per 10, 100 or 1000 units.
        let units = Dictionary(uniqueKeysWithValues: table.quotes.filter { $0.unit != 1 }.map { ($0.currency.rawValue, $0.unit) })
        #expect(units == ["AED": 10, "CHF": 10, "DKK": 100, "DZD": 10, "JPY": 1000, "MAD": 10, "MRU": 10, "NOK": 100, "QAR": 10, "SAR": 10, "SEK": 10])
    }

    @Test("reads each recorded day under its own date")
    func everyFile() throws {
        let second = try parse(ProviderFixture.bytes("bct-tunisia/01_bct_siteprod_cours_archiv.jsp_b503ad05.html"))
        let third = try parse(ProviderFixture.bytes("bct-tunisia/02_bct_siteprod_cours_archiv.jsp_21c147ed.html"))
        #expect(second.map(\.day) == [Day("2026-05-19")!] && third.map(\.day) == [Day("2026-05-20")!])
        #expect(second.first?.quotes.count == 20 && third.first?.quotes.count == 20)
    }

    @Test("posts one form per weekday, with the Referer the server asks for")
    func requests() {
        let latest = provider.requests(for: .latest)
        #expect(latest.map(\.body) == ["input=2026-05-18&langue=_AN", "input=2026-05-19&langue=_AN", "input=2026-05-20&langue=_AN"])
        #expect(latest.allSatisfy { $0.url == "https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp" && $0.method == .post })
        #expect(latest[0].headers == ["Content-Type": "application/x-www-form-urlencoded", "Referer": "https://www.bct.gov.tn/bct/siteprod/cours_archive.jsp"])
        // 2026-05-15 is a Friday: the weekend is not asked for.
        #expect(provider.requests(for: .range(Day("2026-05-15")!, Day("2026-05-18")!)).map(\.body) == ["input=2026-05-15&langue=_AN", "input=2026-05-18&langue=_AN"])
        #expect(BCTProvider(baseURL: "http://127.0.0.1:8080").requests(for: .range(day, day))[0].url == "http://127.0.0.1:8080/bct/siteprod/cours_archiv.jsp")
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "  2,9034<", with: "  2,90x4<")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "2,90x4"))
    }

    @Test("rejects a currency listed twice, a bad code, a bad unit, a day that does not exist, another layout")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: "<td scope='col'>SAR</td>", with: "<td scope='col'>USD</td>")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let code = try ProviderFixture.edited(file, replacing: "<td scope='col'>SAR</td>", with: "<td scope='col'>Sar</td>")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("Sar", day: day))
        let unit = try ProviderFixture.edited(file, replacing: "<div align='right'>1000</div>", with: "<div align='right'>1 000</div>")
        #expect(ProviderFixture.error { try parse(unit) }?.isLayout(of: "BCT") == true)
        let date = try ProviderFixture.edited(file, replacing: "Journée du 18/05/2026", with: "Journée du 31/04/2026")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("31/04/2026"))
        let header = try ProviderFixture.edited(file, replacing: "<div align='center'>Valeur</div>", with: "<div align='center'>Cours</div>")
        #expect(ProviderFixture.error { try parse(header) }?.isLayout(of: "BCT") == true)
        let heading = try ProviderFixture.edited(file, replacing: "Cours Moyens des Devises", with: "Cours des Devises")
        #expect(ProviderFixture.error { try parse(heading) }?.isLayout(of: "BCT") == true)
    }

    @Test("a page saying Exhausted Resultset is no publication")
    func noPublication() throws {
        #expect(try parse(Array("<html><body><h5>Exhausted Resultset</h5></body></html>".utf8)) == [])
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notTheTable() throws {
        let whole = try parse(ProviderFixture.bytes(file))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file)) {
            let read = try? parse(cut)
            #expect(read == nil || read == whole, "a cut at \(cut.count) bytes was read as another table")
        }
        #expect(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) } != nil)
        #expect(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }?.isLayout(of: "BCT") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as `rates-relay import --provider BCT` reads it: as it parses")
    func imports() throws {
        let files = [
            "bct-tunisia/00_bct_siteprod_cours_archiv.jsp_5b75628c.html",
            "bct-tunisia/01_bct_siteprod_cours_archiv.jsp_b503ad05.html",
            "bct-tunisia/02_bct_siteprod_cours_archiv.jsp_21c147ed.html",
        ]
        for name in files {
            let bytes = try ProviderFixture.bytes(name)
            #expect(try ProviderFile.read([bytes], provider: provider) == (try parse(bytes)), "\(name)")
        }
    }
}
