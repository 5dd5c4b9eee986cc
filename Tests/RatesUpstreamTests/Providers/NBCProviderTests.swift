import RatesCore
import RatesUpstream
import Testing

@Suite("NBC adapter")
struct NBCProviderTests {
    let provider = NBCProvider(today: { Day("2026-05-22")! })
    let folder = "nbc-cambodia/"
    let file = "nbc-cambodia/01_english_economic_research_exchange_rate.php_8b7a679f.html"
    let day = Day("2026-05-18")!
    let page = "https://www.nbc.gov.kh/english/economic_research/exchange_rate.php"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the table of 2026-05-18: the official dollar rate and 27 currencies' averages, KHR per Unit units, the offshore yuan (CNH) among them; SDR as XDR")
    func dailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 1)
        let table = try #require(publications.first)
        #expect(table.day == day)
        #expect(table.quotes.count == 29)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        #expect(table["USD"] == quote("USD", "4014"))
        #expect(table["AUD"] == quote("AUD", "2888.50"))
        #expect(table["JPY"] == quote("JPY", "2545.50", unit: 100))
        #expect(table["IDR"] == quote("IDR", "231.00", unit: 1000))
        #expect(table["VND"] == quote("VND", "153.00", unit: 1000))
        #expect(table["XDR"] == quote("XDR", "5535.50"))
        #expect(table["CNY"]?.value == "593.00")
        #expect(table["CNH"] != nil && table["SDR"] == nil)
    }

    @Test("reads every recorded page under its own date: the newest (2026-05-25) and the days posted for")
    func everyFile() throws {
        let names = [
            "00_english_economic_research_exchange_rate.php.html", "01_english_economic_research_exchange_rate.php_8b7a679f.html",
            "03_english_economic_research_exchange_rate.php_d2af4f34.html", "05_english_economic_research_exchange_rate.php_3435307c.html",
        ]
        let read = try names.map { try parse(ProviderFixture.bytes(folder + $0)) }
        #expect(read.map { $0.map(\.day) } == [[Day("2026-05-25")!], [day], [Day("2026-05-19")!], [Day("2026-05-20")!]])
        #expect(read.map { $0.first?["USD"]?.value } == ["4025", "4014", "4019", "4022"])
    }

    @Test("asks for the page for the newest table; for a range, posts the form per weekday with the token and cookies of a session page")
    func requests() throws {
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: page)])
        #expect(provider.sessionRequest(for: .latest) == nil)
        let range = FetchWindow.range(Day("2026-05-15")!, Day("2026-05-18")!)
        #expect(provider.sessionRequest(for: range) == ProviderRequest(url: page))
        let session = ProviderSession(body: try ProviderFixture.bytes(folder + "00_english_economic_research_exchange_rate.php.html"), cookies: ["PHPSESSID": "abc"])
        let posts = try provider.requests(for: range, session: session)
        #expect(
            posts.map(\.body) == [
                "exdate=2026-05-15&tk=72hrRQfXOMayjp%2Ftt7BTMjX6Euwzifl4QK%2FbVHUhfPo%3D&view=View",
                "exdate=2026-05-18&tk=72hrRQfXOMayjp%2Ftt7BTMjX6Euwzifl4QK%2FbVHUhfPo%3D&view=View",
            ])
        #expect(posts.allSatisfy { $0.url == page && $0.method == .post })
        #expect(posts[0].headers == ["Content-Type": "application/x-www-form-urlencoded", "Referer": page, "Cookie": "PHPSESSID=abc"])
        // Without the session's answer, the posts carry no token (what an import reads files as).
        #expect(provider.requests(for: range).map(\.body) == ["exdate=2026-05-15&tk=&view=View", "exdate=2026-05-18&tk=&view=View"])
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: range, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
        #expect(NBCProvider(baseURL: "http://127.0.0.1:8080").requests(for: .latest)[0].url == "http://127.0.0.1:8080/english/economic_research/exchange_rate.php")
    }

    @Test("rejects a value that is not a decimal, in the table or the official rate")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<td align='right'>2888.50</td>", with: "<td align='right'>2888.5x</td>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("AUD")!, day: day, text: "2888.5x"))
        let official = try ProviderFixture.edited(file, replacing: ">4014</font>", with: ">40l4</font>")
        #expect(ProviderFixture.error { try parse(official) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "40l4"))
    }

    @Test("skips a symbol no currency has; reads the rest of the table")
    func nonISOSymbol() throws {
        // An older table's symbol of the bank's own (`RMB/KHR` for the yuan) in place of the Canadian dollar's.
        let body = try ProviderFixture.edited(file, replacing: "CAD/KHR", with: "RMB/KHR")
        let table = try #require(try parse(body).first)
        #expect(table.quotes.count == 28)
        #expect(table["RMB"] == nil && table["CAD"] == nil)
        #expect(table["AUD"] == quote("AUD", "2888.50"))
    }

    @Test("rejects a currency listed twice, a bad code or unit, a day that does not exist, another layout")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: "CAD/KHR", with: "AUD/KHR")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("AUD")!, day: day))
        let code = try ProviderFixture.edited(file, replacing: "CAD/KHR", with: "Cad/KHR")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("Cad", day: day))
        let pivot = try ProviderFixture.edited(file, replacing: "CAD/KHR", with: "CAD/USD")
        #expect(ProviderFixture.error { try parse(pivot) }?.isLayout(of: "NBC") == true)
        let unit = try ProviderFixture.edited(file, replacing: "<td align='center'>1000</td>", with: "<td align='center'>1,000</td>")
        #expect(ProviderFixture.error { try parse(unit) }?.isLayout(of: "NBC") == true)
        let date = try ProviderFixture.edited(file, replacing: "<font color=\"#FF3300\">2026-05-18</font>", with: "<font color=\"#FF3300\">2026-02-30</font>")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-02-30"))
        let header = try ProviderFixture.edited(file, replacing: ">Average</td>", with: ">Mid</td>")
        #expect(ProviderFixture.error { try parse(header) }?.isLayout(of: "NBC") == true)
    }

    @Test("rejects every truncation inside the tables, an HTML error page and an empty body")
    func notTheTable() throws {
        let whole = try parse(ProviderFixture.bytes(file))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 499) {
            let read = try? parse(cut)
            #expect(read == nil || read == whole, "a cut at \(cut.count) bytes was read as another table")
        }
        #expect(ProviderFixture.error { try parse(ProviderFixture.truncated(file, fraction: 0.8)) } != nil)
        #expect(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }?.isLayout(of: "NBC") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as `rates-relay import --provider NBC` reads it: as it parses")
    func imports() throws {
        let files = [
            "nbc-cambodia/00_english_economic_research_exchange_rate.php.html",
            "nbc-cambodia/01_english_economic_research_exchange_rate.php_8b7a679f.html",
            "nbc-cambodia/02_english_economic_research_exchange_rate.php.html",
            "nbc-cambodia/03_english_economic_research_exchange_rate.php_d2af4f34.html",
            "nbc-cambodia/04_english_economic_research_exchange_rate.php.html",
            "nbc-cambodia/05_english_economic_research_exchange_rate.php_3435307c.html",
        ]
        for name in files {
            let bytes = try ProviderFixture.bytes(name)
            #expect(try ProviderFile.read([bytes], provider: provider) == (try parse(bytes)), "\(name)")
        }
    }
}
