import RatesCore
import RatesUpstream
import Testing

@Suite("UST adapter")
struct USTProviderTests {
    let provider = USTProvider(today: { Day("2026-09-15")! })
    let file = "ust-usa-treasury/rates_of_exchange_record_date_gte_2026-02-28.json"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads two quarters and their amendments, each figure dated its effective date, descriptions made ISO codes, dollar rows skipped")
    func quarters() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-03-31", "2026-04-30", "2026-05-29", "2026-06-30", "2026-07-15", "2026-08-14", "2026-08-31"])
        #expect(publications.map(\.quotes.count) == [144, 1, 2, 145, 3, 1, 2])
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .unitsPerPivot && $0.unit == 1 } })
        #expect(ProviderFixture.quote("JPY", on: "2026-03-31", in: publications) == quote("JPY", "159.41", .unitsPerPivot))
        // Trailing zeros stay as published.
        #expect(ProviderFixture.quote("ARS", on: "2026-03-31", in: publications)?.value == "1420.0")
        // Eight countries' CFA franc rows are one XOF quote; the euro zone's and Cyprus's euro one EUR quote.
        #expect(ProviderFixture.quote("XOF", on: "2026-06-30", in: publications)?.value == "571.5")
        #expect(ProviderFixture.quote("EUR", on: "2026-06-30", in: publications)?.value == "0.877")
        #expect(ProviderFixture.quote("EUR", on: "2026-03-31", in: publications)?.value == "0.87")
        #expect(ProviderFixture.quote("USD", on: "2026-03-31", in: publications) == nil)
        // Amendments: the quarter's figure on its day, the amended one on its effective date.
        #expect(ProviderFixture.quote("ILS", on: "2026-03-31", in: publications)?.value == "3.165")
        #expect(publications[2].codes == ["ILS", "VES"])
        #expect(ProviderFixture.quote("ILS", on: "2026-05-29", in: publications)?.value == "2.807")
        #expect(publications[6].codes == ["KRW", "RUB"])
        #expect(ProviderFixture.quote("KRW", on: "2026-08-31", in: publications)?.value == "1367.46")
        #expect(provider.validityDays == 92 && provider.publishesInParts)
    }

    @Test("asks for a range by effective date, and for the newest publication by the record dates of the last 183 days")
    func requests() {
        let dataset = "https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v1/accounting/od/rates_of_exchange"
            + "?fields=record_date,effective_date,country_currency_desc,exchange_rate&filter="
        let page = "&page%5Bnumber%5D=1&page%5Bsize%5D=10000&sort=record_date"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: dataset + "record_date:gte:2026-03-16" + page)])
        let range = provider.requests(for: .range(Day("2026-03-01")!, Day("2026-06-30")!))
        #expect(range == [ProviderRequest(url: dataset + "effective_date:gte:2026-03-01,effective_date:lte:2026-06-30" + page)])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(provider.requests(for: .range(Day("2026-06-30")!, Day("2026-03-01")!)).isEmpty)
        #expect(USTProvider(baseURL: "http://127.0.0.1:8080/ust").requests(for: .latest)[0].url.hasPrefix("http://127.0.0.1:8080/ust/services/api/"))
    }

    @Test("rejects a value that is not a decimal, one currency with two figures on a day, an unknown description, a bad day, a second page")
    func alteredFields() throws {
        let day = Day("2026-03-31")!
        let value = try ProviderFixture.edited(file, replacing: "\"exchange_rate\":\"159.41\"", with: "\"exchange_rate\":\"159,41\"")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("JPY")!, day: day, text: "159,41"))
        let number = try ProviderFixture.edited(file, replacing: "\"exchange_rate\":\"159.41\"", with: "\"exchange_rate\":159.41")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(number) }))
        let twice = try ProviderFixture.edited(file, replacing: "\"Senegal-Cfa Franc\",\"exchange_rate\":\"567.0\"", with: "\"Senegal-Cfa Franc\",\"exchange_rate\":\"567.5\"")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("XOF")!, day: day))
        let unknown = try ProviderFixture.edited(file, replacing: "Japan-Yen", with: "Japan-New Yen")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(unknown) }))
        let date = try ProviderFixture.edited(file, replacing: "\"effective_date\":\"2026-03-31\"", with: "\"effective_date\":\"2026-03-32\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-03-32"))
        let pages = try ProviderFixture.edited(file, replacing: "\"total-pages\":1", with: "\"total-pages\":2")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(pages) }))
    }

    @Test("rejects every truncation, an HTML error page, an empty body and an answer without rows")
    func notTheAnswer() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 499) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let rowless = #"{"data":[],"meta":{"count":0,"total-pages":0},"links":{}}"#
        #expect(ProviderFixture.error { try parse(Array(rowless.utf8)) } == .empty)
    }
}
