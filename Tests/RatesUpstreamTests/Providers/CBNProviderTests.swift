import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("CBN adapter")
struct CBNProviderTests {
    let provider = CBNProvider()
    let file = "cbn-nigeria/00_api_GetAllExchangeRates.json"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads six days of 12 currencies each: central rates, currency names made codes, WAUA skipped")
    func allRates() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-05-14", "2026-05-15", "2026-05-18", "2026-05-19", "2026-05-20", "2026-05-21"])
        #expect(publications.allSatisfy { $0.quotes.count == 12 })
        let newest = try #require(publications.last)
        #expect(newest.codes == ["AED", "CHF", "CNY", "DKK", "EUR", "GBP", "JPY", "SAR", "USD", "XDR", "XOF", "ZAR"])
        #expect(newest["USD"] == quote("USD", "1371.8079"))
        #expect(newest["XDR"] == quote("XDR", "1884.0410"))
        // Trailing zeros stay as published.
        #expect(newest["XOF"] == quote("XOF", "2.4200"))
        #expect(ProviderFixture.quote("GBP", on: "2026-05-14", in: publications) == quote("GBP", "1850.7066"))
    }

    @Test("skips a row without a central rate")
    func noCentralRate() throws {
        let body = try ProviderFixture.edited(file, replacing: #""centralrate":"1371.8079""#, with: #""centralrate":"""#)
        let newest = try #require(try parse(body).last)
        #expect(newest.quotes.count == 11)
        #expect(newest["USD"] == nil)
    }

    @Test("a row without a figure, blank or zero, is skipped")
    func blankOrZero() throws {
        for empty in [#""centralrate":" ""#, #""centralrate":"0.0000""#, #""centralrate":null"#] {
            let body = try ProviderFixture.edited(file, replacing: #""centralrate":"1371.8079""#, with: empty)
            let newest = try #require(try parse(body).last)
            #expect(newest.quotes.count == 11, "\(empty)")
            #expect(newest["USD"] == nil, "\(empty)")
        }
    }

    /// The recording's US dollar row of 2026-05-21 (id 61889).
    let dollarRow = #"{"id":61889,"currency":"US DOLLAR","ratedate":"2026-05-21","buyingrate":"1371.3079","centralrate":"1371.8079","sellingrate":"1372.3079"}"#

    @Test("a currency listed twice on a day is one figure when the rows agree; where they differ the later record (higher id) is read")
    func corrections() throws {
        // The bank's whole list has such rows (US DOLLAR on 2020-11-18 twice alike, on 2024-02-22 as 1488.8960
        // and again as 1440.1210): here the recording's dollar row of 2026-05-21 is listed a second time.
        func withSecondRow(_ row: String) throws -> [ProviderPublication] {
            try parse(try ProviderFixture.edited(file, replacing: dollarRow, with: dollarRow + "," + row))
        }
        let alike = try withSecondRow(dollarRow.replacingOccurrences(of: "61889", with: "61892"))
        #expect(alike.last?["USD"] == quote("USD", "1371.8079"))
        #expect(alike.last?.quotes.count == 12)
        let later = try withSecondRow(dollarRow.replacingOccurrences(of: "61889", with: "61892").replacingOccurrences(of: "1371.8079", with: "1372.0000"))
        #expect(later.last?["USD"] == quote("USD", "1372.0000"))
        let earlier = try withSecondRow(dollarRow.replacingOccurrences(of: "61889", with: "61800").replacingOccurrences(of: "1371.8079", with: "1372.0000"))
        #expect(earlier.last?["USD"] == quote("USD", "1371.8079"))
        // Two spellings of one currency on one day are the same: the later record is read.
        let alias = try ProviderFixture.edited(
            file, replacing: dollarRow,
            with: dollarRow + #",{"id":61893,"currency":"JAPANESE YEN","ratedate":"2026-05-21","buyingrate":"8.6100","centralrate":"8.6150","sellingrate":"8.6200"}"#)
        #expect(try parse(alias).last?["JPY"] == quote("JPY", "8.6150"))
        // Differing rows without ids cannot be told apart.
        let noID = dollarRow.replacingOccurrences(of: #""id":61889,"#, with: "")
        let unordered = try ProviderFixture.edited(file, replacing: dollarRow, with: noID + "," + noID.replacingOccurrences(of: "1371.8079", with: "1372.0000"))
        #expect(ProviderFixture.error { try parse(unordered) } == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-05-21")!))
    }

    @Test("a name that is an ISO 4217 code is read as that code; a name the adapter does not know is skipped, not the answer")
    func names() throws {
        let code = try ProviderFixture.edited(file, replacing: #""currency":"RIYAL","ratedate":"2026-05-21""#, with: #""currency":"SAR","ratedate":"2026-05-21""#)
        #expect(try parse(code).last?["SAR"] == quote("SAR", "365.5425"))
        let unknown = try ProviderFixture.edited(file, replacing: #""currency":"EURO","ratedate":"2026-05-21""#, with: #""currency":"EUROPEAN CURRENCY","ratedate":"2026-05-21""#)
        let publications = try parse(unknown)
        #expect(publications.count == 6)
        #expect(publications.last?.quotes.count == 11)
        #expect(publications.last?["EUR"] == nil)
        #expect(ProviderFixture.quote("EUR", on: "2026-05-20", in: publications) == quote("EUR", "1591.9489"))
    }

    @Test("asks for the one list whatever the window")
    func requests() {
        let url = "https://www.cbn.gov.ng/api/GetAllExchangeRates"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: url)])
        #expect(provider.requests(for: .range(Day("2026-05-01")!, Day("2026-05-21")!)) == [ProviderRequest(url: url)])
        #expect(
            CBNProvider(baseURL: "http://127.0.0.1:8080/cbn").requests(for: .latest)[0].url == "http://127.0.0.1:8080/cbn/api/GetAllExchangeRates")
    }

    @Test("rejects a value that is not a decimal, a currency twice with the same id, a bad day")
    func alteredValues() throws {
        let day = Day("2026-05-21")!
        let value = try ProviderFixture.edited(file, replacing: #""centralrate":"1371.8079""#, with: #""centralrate":"1371.80.79""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "1371.80.79"))
        let twice = try ProviderFixture.edited(file, replacing: #""id":61881,"currency":"EURO""#, with: #""id":61889,"currency":"US DOLLAR""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let date = try ProviderFixture.edited(file, replacing: #""ratedate":"2026-05-21""#, with: #""ratedate":"2026-02-30""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-02-30"))
        let missing = try ProviderFixture.edited(file, replacing: #","centralrate":"2.4200""#, with: "")
        #expect(ProviderFixture.error { try parse(missing) }?.isLayout(of: "CBN") == true)
    }

    @Test("rejects every truncation, an HTML error page, an empty body and an empty list")
    func notTheList() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 97) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(ProviderFixture.error { try parse(Array("[]".utf8)) } == .empty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try ["cbn-nigeria/00_api_GetAllExchangeRates.json"]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: CBNProvider()).count }
        #expect(counts == [6])
    }
}
