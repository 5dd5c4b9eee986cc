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

    @Test("a former description reads as its currency, and yields to the current one on a day both have a figure")
    func formerDescriptions() throws {
        // Eswatini's row under the name the Treasury used until 2018.
        let renamed = try ProviderFixture.edited(file, replacing: "Eswatini-Lilangeni", with: "Swaziland-Lilangeni")
        #expect(ProviderFixture.quote("SZL", on: "2026-03-31", in: try parse(renamed)) == quote("SZL", "17.087", .unitsPerPivot))
        // The yen's row of the quarter turned into a Netherlands Antilles guilder row, a description of the quarters before 2025.
        let guilder = try ProviderFixture.edited(file, replacing: "Japan-Yen\",\"exchange_rate\":\"159.41\"", with: "Netherlands Antilles-Guilder\",\"exchange_rate\":\"159.41\"")
        #expect(ProviderFixture.quote("ANG", on: "2026-03-31", in: try parse(guilder))?.value == "159.41")
        // Lesotho's row renamed Swaziland, beside Eswatini's with another figure: Eswatini's is read.
        let both = try ProviderFixture.edited(
            file, replacing: "\"Lesotho-Maloti\",\"exchange_rate\":\"17.087\"", with: "\"Swaziland-Lilangeni\",\"exchange_rate\":\"17.1\"")
        let publications = try parse(both)
        #expect(ProviderFixture.quote("SZL", on: "2026-03-31", in: publications)?.value == "17.087")
        #expect(ProviderFixture.quote("LSL", on: "2026-03-31", in: publications) == nil)
    }

    @Test("a description whose unit changed reads as the code of the row's day: Sierra Leone's leone SLL before 2022-04, none in the changeover")
    func redenominations() throws {
        // The quarter's Sierra Leone and Mauritania rows dated as rows of 2021 and 2018.
        var edited = try ProviderFixture.edited(
            file, replacing: "\"effective_date\":\"2026-03-31\",\"country_currency_desc\":\"Sierra Leone-Leone\"",
            with: "\"effective_date\":\"2021-12-31\",\"country_currency_desc\":\"Sierra Leone-Leone\"")
        edited = try #require(
            ProviderFixture.replacing(
                "\"effective_date\":\"2026-03-31\",\"country_currency_desc\":\"Mauritania-Ouguiya\"",
                with: "\"effective_date\":\"2018-03-31\",\"country_currency_desc\":\"Mauritania-Ouguiya\"", in: edited))
        edited = try #require(
            ProviderFixture.replacing(
                "\"effective_date\":\"2026-06-30\",\"country_currency_desc\":\"Sierra Leone-Leone\"",
                with: "\"effective_date\":\"2022-06-30\",\"country_currency_desc\":\"Sierra Leone-Leone\"", in: edited))
        let publications = try parse(edited)
        #expect(publications.first { $0.day == Day("2021-12-31")! }?.quotes == [quote("SLL", "24.35", .unitsPerPivot)])
        #expect(publications.first { $0.day == Day("2018-03-31")! }?.quotes == [quote("MRO", "39.852", .unitsPerPivot)])
        #expect(!publications.contains { $0.day == Day("2022-06-30")! })
        #expect(ProviderFixture.quote("SLE", on: "2026-03-31", in: try parse(ProviderFixture.bytes(file)))?.value == "24.35")
        #expect(ProviderFixture.quote("MRU", on: "2026-06-30", in: try parse(ProviderFixture.bytes(file)))?.value == "39.9")
    }

    @Test("a description in neither table is left out, the rest of the answer read")
    func unknownDescription() throws {
        let unknown = try ProviderFixture.edited(file, replacing: "Japan-Yen", with: "Japan-New Yen")
        let publications = try parse(unknown)
        #expect(ProviderFixture.quote("JPY", on: "2026-03-31", in: publications) == nil)
        #expect(publications[0].quotes.count == 143)
    }

    @Test("rejects a value that is not a decimal, one currency with two figures on a day, a bad day, a second page")
    func alteredFields() throws {
        let day = Day("2026-03-31")!
        let value = try ProviderFixture.edited(file, replacing: "\"exchange_rate\":\"159.41\"", with: "\"exchange_rate\":\"159,41\"")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("JPY")!, day: day, text: "159,41"))
        let number = try ProviderFixture.edited(file, replacing: "\"exchange_rate\":\"159.41\"", with: "\"exchange_rate\":159.41")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(number) }))
        let twice = try ProviderFixture.edited(file, replacing: "\"Senegal-Cfa Franc\",\"exchange_rate\":\"567.0\"", with: "\"Senegal-Cfa Franc\",\"exchange_rate\":\"567.5\"")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("XOF")!, day: day))
        let date = try ProviderFixture.edited(file, replacing: "\"effective_date\":\"2026-03-31\"", with: "\"effective_date\":\"2026-03-32\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-03-32"))
        let pages = try ProviderFixture.edited(file, replacing: "\"total-pages\":1", with: "\"total-pages\":2")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(pages) }))
    }

    @Test("rejects every truncation, an HTML error page and an empty body; an answer without rows is no publication")
    func notTheAnswer() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 499) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let rowless = #"{"data":[],"meta":{"count":0,"total-pages":0},"links":{}}"#
        #expect(try parse(Array(rowless.utf8)) == [])
    }
}
