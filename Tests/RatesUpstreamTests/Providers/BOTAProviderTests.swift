import RatesCore
import RatesUpstream
import Testing

@Suite("BOTA adapter")
struct BOTAProviderTests {
    let provider = BOTAProvider(today: { Day("2026-05-19")! })
    let file = "bot-tanzania/01_ExchangeRate_previous_rates_3986ded1.html"
    let formFile = "bot-tanzania/00_ExchangeRate_previous_rates.html"
    let noTokenFile = "bot-tanzania/no_token_00_ExchangeRate_previous_rates.html"
    let day = Day("2026-05-19")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider)
    }

    @Test("reads the rates of 19 May 2026: 42 currencies, the bank's Mean in TZS per 1 unit, commas dropped and digits kept")
    func rates() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day) == [day])
        let table = try #require(publications.first)
        #expect(table.quotes.count == 42)
        #expect(table.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits })
        // Buy 2,589.0,500, Sell 2,615.0,600: the Mean as published, not their midpoint (2602.0550).
        #expect(ProviderFixture.quote("USD", in: table) == quote("USD", "2602.0545"))
        #expect(ProviderFixture.quote("KWD", in: table)?.value == "8472.3000")
        #expect(ProviderFixture.quote("UGX", in: table)?.value == "0.7050")
        #expect(ProviderFixture.quote("XAF", in: table)?.value == "4.4850")
        // RUR, the old rouble code beside RUB with the same figures, is skipped.
        #expect(ProviderFixture.quote("RUB", in: table)?.value == "32.2600")
        #expect(ProviderFixture.quote("RUR", in: table) == nil)
    }

    @Test("gets the page for its token, then posts the days with it and the cookie the page set")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://www.bot.go.tz/ExchangeRate/previous_rates"))
        let session = ProviderSession(body: try ProviderFixture.bytes(formFile), setCookies: ["__RequestVerificationToken=abc123; path=/; HttpOnly"])
        let latest = try provider.requests(for: .latest, session: session)
        #expect(latest.count == 1)
        #expect(latest[0].url == "https://www.bot.go.tz/ExchangeRate/previous_rates")
        #expect(latest[0].method == .post)
        #expect(
            latest[0].body
                == "__RequestVerificationToken=jd5KNjc0tLCkU5rIQdshrRo3YaozVBmomb_abzQP-2Spzz7tGi9k4BzB_DYZP29qFbc77d63vGRfx8W9LAHW8Y1z2wJ49dl0uK02KGd9bJk1"
                + "&dateFrom=05%2F12%2F2026&dateTo=05%2F19%2F2026")
        #expect(latest[0].headers["Cookie"] == "__RequestVerificationToken=abc123")
        #expect(latest[0].headers["Content-Type"] == "application/x-www-form-urlencoded")
        let range = try provider.requests(for: .range(Day("2026-05-19")!, Day("2026-05-19")!), session: session)
        #expect(range.map(\.body) == [
            "__RequestVerificationToken=jd5KNjc0tLCkU5rIQdshrRo3YaozVBmomb_abzQP-2Spzz7tGi9k4BzB_DYZP29qFbc77d63vGRfx8W9LAHW8Y1z2wJ49dl0uK02KGd9bJk1"
                + "&dateFrom=05%2F19%2F2026&dateTo=05%2F19%2F2026"
        ])
        // Without the page (an import), the same post without a token.
        #expect(provider.requests(for: .latest)[0].body == "__RequestVerificationToken=&dateFrom=05%2F12%2F2026&dateTo=05%2F19%2F2026")
    }

    @Test("a page without a token fails the fetch, and reads as no table")
    func noToken() throws {
        let session = ProviderSession(body: try ProviderFixture.bytes(noTokenFile))
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: session) }
        #expect(error(try ProviderFixture.bytes(noTokenFile))?.isLayout(of: "BOTA") == true)
    }

    @Test("the table with its header and no row, a range without figures, is no publication")
    func noRows() throws {
        // The form page holds the table so, as the answer to a post for days without figures does.
        #expect(try parse(ProviderFixture.bytes(formFile)).isEmpty)
    }

    @Test("rejects a Mean that is not a decimal, a currency twice, a bad code or day")
    func badRows() throws {
        let usd = CurrencyCode("USD")!
        let garbage = try ProviderFixture.edited(file, replacing: "<td>2,602.0,545</td>", with: "<td>2,602.0x545</td>")
        #expect(error(garbage) == .invalidRate(currency: usd, day: day, text: "2,602.0x545"))
        let doubleComma = try ProviderFixture.edited(file, replacing: "<td>2,602.0,545</td>", with: "<td>2,,602.0545</td>")
        #expect(error(doubleComma) == .invalidRate(currency: usd, day: day, text: "2,,602.0545"))
        let grouping = try ProviderFixture.edited(file, replacing: "<td>2,602.0,545</td>", with: "<td>26,02.0,545</td>")
        #expect(error(grouping) == .invalidRate(currency: usd, day: day, text: "26,02.0,545"))
        let noPoint = try ProviderFixture.edited(file, replacing: "<td>2,602.0,545</td>", with: "<td>2,602,0,545</td>")
        #expect(error(noPoint) == .invalidRate(currency: usd, day: day, text: "2,602,0,545"))
        let twice = try ProviderFixture.edited(file, replacing: "<td>EUR</td>", with: "<td>USD</td>")
        #expect(error(twice) == .duplicateCurrency(usd, day: day))
        let code = try ProviderFixture.edited(file, replacing: "<td>EUR</td>", with: "<td>EURO</td>")
        #expect(error(code) == .invalidCurrencyCode("EURO", day: day))
        let notISO = try ProviderFixture.edited(file, replacing: "<td>EUR</td>", with: "<td>XYZ</td>")
        #expect(error(notISO) == .invalidCurrencyCode("XYZ", day: day))
        let badDay = try ProviderFixture.edited(file, replacing: "<td>19-May-26</td>", with: "<td>31-Jun-26</td>")
        #expect(error(badDay) == .invalidDay("31-Jun-26"))
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notThePage() throws {
        let bytes = try ProviderFixture.bytes(file)
        let whole = try parse(bytes)
        // A cut inside the table is rejected; one after it (the page's last tags) still holds the whole table.
        for prefix in ProviderFixture.truncations(of: bytes, stride: 97) {
            if let publications = try? parse(prefix) {
                #expect(publications == whole, "prefix of \(prefix.count) bytes")
            } else {
                #expect(error(prefix) != nil)
            }
        }
        #expect(error(Array(bytes[..<(bytes.count / 2)])) != nil)
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BOTA") == true)
        #expect(error([]) == .empty)
    }

    @Test("the recording imports as an answer of the adapter's")
    func imports() throws {
        let publications = try ProviderFile.read([try ProviderFixture.bytes(file)], provider: provider, today: day)
        #expect(publications.map(\.day) == [day])
    }
}
