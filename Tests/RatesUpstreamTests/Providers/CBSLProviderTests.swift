import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("CBSL adapter")
struct CBSLProviderTests {
    let provider = CBSLProvider(today: { Day("2026-05-22")! })
    let file = "cbsl-srilanka/01_cbsl_custom_exrates_exrates_results.php_f30f837b.html"
    let formFile = "cbsl-srilanka/00_cbsl_custom_exrates_exrates.php.html"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? {
        ProviderFixture.error(body, provider)
    }

    @Test("reads 15, 16 and 19 May 2025: 54 currencies a day, LKR per 1 unit as published, the offshore yuan (CNH) among them; gold skipped")
    func tables() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2025-05-15", "2025-05-16", "2025-05-19"])
        #expect(publications.allSatisfy { $0.quotes.count == 54 })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits } })
        #expect(ProviderFixture.quote("USD", on: "2025-05-19", in: publications) == quote("USD", "298.8165"))
        #expect(ProviderFixture.quote("AUD", on: "2025-05-19", in: publications)?.value == "191.8850")
        #expect(ProviderFixture.quote("EUR", on: "2025-05-15", in: publications)?.value == "334.2487")
        #expect(ProviderFixture.quote("VND", on: "2025-05-16", in: publications)?.value == "0.0115")
        #expect(ProviderFixture.quote("XAU", on: "2025-05-19", in: publications) == nil)
        #expect(ProviderFixture.quote("CNH", on: "2025-05-19", in: publications) == quote("CNH", "41.4180"))
        #expect(ProviderFixture.quote("CNY", on: "2025-05-19", in: publications)?.value == "41.4074")
    }

    @Test("gets the form for its currencies, then posts them all with the days")
    func requests() throws {
        #expect(provider.sessionRequest(for: .latest) == ProviderRequest(url: "https://www.cbsl.gov.lk/cbsl_custom/exrates/exrates.php"))
        let session = ProviderSession(body: try ProviderFixture.bytes(formFile))
        let range = try provider.requests(for: .range(Day("2025-05-15")!, Day("2025-05-19")!), session: session)
        #expect(range.count == 1)
        #expect(range[0].url == "https://www.cbsl.gov.lk/cbsl_custom/exrates/exrates_results.php")
        #expect(range[0].method == .post && range[0].headers["Content-Type"] == "application/x-www-form-urlencoded")
        let body = try #require(range[0].body)
        #expect(body.hasPrefix("lookupPage=lookup_daily_exchange_rates.php&rangeType=dates&txtStart=2025-05-15&txtEnd=2025-05-19&chk_cur%5B%5D=AUD%7EAustralian+Dollar&"))
        #expect(body.hasSuffix("&chk_cur%5B%5D=ZMW%7EZambia+Kwacha+%28New%29&submit_button=Submit"))
        #expect(body.components(separatedBy: "chk_cur%5B%5D=").count - 1 == 55)
        let latest = try provider.requests(for: .latest, session: session)
        #expect(latest[0].body?.contains("txtStart=2026-05-15&txtEnd=2026-05-22&") == true)
        #expect(throws: UpstreamDataError.self) { try provider.requests(for: .latest, session: ProviderSession(body: ProviderFixture.htmlErrorPage)) }
    }

    @Test("rejects a figure that is not a decimal, a currency twice, a bad code, day or header")
    func badTables() throws {
        let usd = CurrencyCode("USD")!
        let day = Day("2025-05-19")!
        let garbage = try ProviderFixture.edited(file, replacing: "<td> 298.8165 </td>", with: "<td> 298,8165 </td>")
        #expect(error(garbage) == .invalidRate(currency: usd, day: day, text: "298,8165"))
        let twice = try ProviderFixture.edited(file, replacing: "1  AUD  -&gt; LKR</th>\t<th class=\"header\">1 LKR -&gt;  AUD ", with: "1 USD -&gt; LKR</th>\t<th class=\"header\">1 LKR -&gt; USD")
        #expect(error(twice) == .duplicateCurrency(usd, day: Day("2025-05-15")!))
        let code = try ProviderFixture.edited(file, replacing: "1  AUD  -&gt; LKR</th>\t<th class=\"header\">1 LKR -&gt;  AUD ", with: "1 XYZ -&gt; LKR</th>\t<th class=\"header\">1 LKR -&gt; XYZ")
        #expect(error(code) == .invalidCurrencyCode("XYZ", day: day))
        let badDay = try ProviderFixture.edited(file, replacing: "<td> 2025-05-19 </td><td> 191.8850 </td>", with: "<td> 2025-05-32 </td><td> 191.8850 </td>")
        #expect(error(badDay) == .invalidDay("2025-05-32"))
        let header = try ProviderFixture.edited(file, replacing: "1 LKR -&gt;  AUD ", with: "1 LKR -&gt; USD")
        #expect(error(header)?.isLayout(of: "CBSL") == true)
    }

    @Test("a range of a weekend or holidays only, its tables without rows, is no publication")
    func noDays() throws {
        // The answer for days without rates: every currency's table, headed as usual, with no row.
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
            .replacingOccurrences(of: #"<tr class="odd"><td> 2025-05-\d\d </td>.*?</tr>"#, with: "", options: .regularExpression)
        #expect(!text.contains("2025-05-19"))
        #expect(try parse(Array(text.utf8)) == [])
    }

    @Test("rejects a cut page, an HTML error page, the form and an empty body")
    func notThePage() throws {
        let bytes = try ProviderFixture.bytes(file)
        let whole = try parse(bytes)
        // Every cut is rejected, one between two tables too: only the whole page has its </html>.
        for prefix in ProviderFixture.truncations(of: bytes, stride: 211) {
            #expect(error(prefix)?.isLayout(of: "CBSL") == true, "prefix of \(prefix.count) bytes")
        }
        let betweenTables = try #require(String(decoding: bytes, as: UTF8.self).range(of: "</table><h2 id=\"LOOKUPS_IEXE0101\"> Bahrain Dinar </h2>"))
        let cut = Array(String(decoding: bytes, as: UTF8.self)[..<betweenTables.upperBound].utf8)
        #expect(error(cut)?.isLayout(of: "CBSL") == true)
        #expect(whole.allSatisfy { $0.quotes.count == 54 })
        #expect(error(Array(bytes[..<(bytes.count / 2)]))?.isLayout(of: "CBSL") == true)
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "CBSL") == true)
        #expect(error(try ProviderFixture.bytes(formFile))?.isLayout(of: "CBSL") == true)
        #expect(error([]) == .empty)
    }

    @Test("the recording imports as an answer of the adapter's")
    func imports() throws {
        let publications = try ProviderFile.read([try ProviderFixture.bytes(file)], provider: provider, today: Day("2026-05-22")!)
        #expect(publications.count == 3)
    }
}
