import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("NBRM adapter")
struct NBRMProviderTests {
    let provider = NBRMProvider(today: { Day("2026-05-29")! })
    let range = "nbrm-northmacedonia/00_KLServiceNOV_GetExchangeRate_EndDate=29.05.2026_StartDate=01.03.2026_format=json.json"
    let single = "nbrm-northmacedonia/01_KLServiceNOV_GetExchangeRate_EndDate=30.05.2026_StartDate=30.05.2026_format=json.json"
    let day = Day("2026-05-30")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the list of 2026-05-30: 31 currencies, middle rates in denars per unit, as written")
    func oneDay() throws {
        let publications = try parse(ProviderFixture.bytes(single))
        #expect(publications.map(\.day) == [day])
        let list = try #require(publications.first)
        #expect(list.quotes.count == 31)
        #expect(list.quotes.allSatisfy { $0.direction == .pivotPerUnits && $0.unit == 1 })
        #expect(list["EUR"] == quote("EUR", "61.695"))
        #expect(list["USD"] == quote("USD", "53.1075"))
        #expect(list["GBP"] == quote("GBP", "71.1879"))
        #expect(list["JPY"] == quote("JPY", "0.3331"))
    }

    @Test("a list before 1999 is read (the service's lists go back to 1993); one before 1993 is refused")
    func before1999() throws {
        // The list of 2026-05-30 dated 1996-05-30, as the service dates its lists of that year.
        let text = String(decoding: try ProviderFixture.bytes(single), as: UTF8.self)
        let old = text.replacingOccurrences(of: "\"datum\":\"2026-05-30T00:00:00\"", with: "\"datum\":\"1996-05-30T00:00:00\"")
        let list = try #require(try parse(Array(old.utf8)).first)
        #expect(list.day == Day("1996-05-30")! && list["EUR"] == quote("EUR", "61.695"))
        #expect(provider.historyStart == Day("1993-01-01")!)
        let older = text.replacingOccurrences(of: "\"datum\":\"2026-05-30T00:00:00\"", with: "\"datum\":\"1992-12-31T00:00:00\"")
        #expect(ProviderFixture.error { try parse(Array(older.utf8)) } == .dayOutOfRange(Day("1992-12-31")!))
    }

    @Test("reads 90 days of 2026-03-01 to 2026-05-29, weekends included, 31 currencies each")
    func range90() throws {
        let publications = try parse(ProviderFixture.bytes(range))
        #expect(publications.count == 90)
        #expect(publications.first?.day == Day("2026-03-01"))
        #expect(publications.last?.day == Day("2026-05-29"))
        #expect(publications.allSatisfy { $0.quotes.count == 31 })
        #expect(ProviderFixture.quote("USD", on: "2026-03-02", in: publications) == quote("USD", "52.2616"))
        #expect(ProviderFixture.quote("JPY", on: "2026-03-01", in: publications) == quote("JPY", "0.3351"))
    }

    @Test("asks for one span per 90 days; the newest publication as the last week through tomorrow")
    func requests() {
        let base = "https://www.nbrm.mk/KLServiceNOV/GetExchangeRate"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: base + "?StartDate=23.05.2026&EndDate=30.05.2026&format=json")])
        #expect(
            provider.requests(for: .range(Day("2026-01-01")!, Day("2026-05-29")!)).map(\.url) == [
                base + "?StartDate=01.01.2026&EndDate=31.03.2026&format=json",
                base + "?StartDate=01.04.2026&EndDate=29.05.2026&format=json",
            ])
        #expect(provider.requests(for: .latest).allSatisfy { $0.method == .get && $0.body == nil })
    }

    @Test("rejects a value that is not a decimal, a currency twice, a bad code, unit or day")
    func alteredValues() throws {
        let value = try ProviderFixture.edited(single, replacing: #""sreden":61.695"#, with: #""sreden":"61,69,5""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("EUR")!, day: day, text: "61,69,5"))
        let twice = try ProviderFixture.edited(single, replacing: #""oznaka":"USD""#, with: #""oznaka":"EUR""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("EUR")!, day: day))
        let code = try ProviderFixture.edited(single, replacing: #""oznaka":"USD""#, with: #""oznaka":"840""#)
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("840", day: day))
        let unit = try ProviderFixture.edited(single, replacing: #""nomin":1,"sreden":53.1075"#, with: #""nomin":7,"sreden":53.1075"#)
        #expect(ProviderFixture.error { try parse(unit) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "53.1075"))
        let date = try ProviderFixture.edited(single, replacing: #""datum":"2026-05-30T00:00:00""#, with: #""datum":"2026-05-32T00:00:00""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-05-32T00:00:00"))
    }

    @Test("rejects every truncation, an HTML error page, an empty body; an empty list is no publication")
    func notTheList() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(single), stride: 61) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(try parse(Array("[]".utf8)).isEmpty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try [range, single]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: NBRMProvider()).count }
        #expect(counts == [90, 1])
    }
}
