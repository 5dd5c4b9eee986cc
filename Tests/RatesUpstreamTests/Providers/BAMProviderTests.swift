import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BAM adapter")
struct BAMProviderTests {
    let provider = BAMProvider(apiKey: "test-key", today: { Day("2026-03-30")! })
    let first = "bam-morocco/00_cours_Version1_api_CoursVirement_date=2026-03-25T12_30_00.json"
    let second = "bam-morocco/01_cours_Version1_api_CoursVirement_date=2026-03-26T12_30_00.json"

    func parse(_ name: String) throws -> [ProviderPublication] {
        try provider.parse(try ProviderFixture.bytes(name), of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? { ProviderFixture.error(body, provider) }

    @Test("reads 25 Mar 2026: 29 currencies, MAD per 1, 10 or 100 units as written; MRO skipped")
    func readsOneDay() throws {
        let publications = try parse(first)
        #expect(publications.map(\.day.description) == ["2026-03-25"])
        #expect(publications[0].quotes.count == 29)
        #expect(publications[0]["MRO"] == nil)
        #expect(publications[0]["USD"] == quote("USD", "9.3189"))
        #expect(publications[0]["NOK"] == quote("NOK", "95.938", unit: 100))
        #expect(publications[0]["DZD"] == quote("DZD", "0.7032", unit: 10))
        #expect(publications[0]["XOF"] == quote("XOF", "1.6473", unit: 100))
        #expect(publications[0]["SEK"] == quote("SEK", "100.06", unit: 100))
    }

    @Test("reads 26 Mar 2026, whose records come twice: each currency once, 29 currencies")
    func readsRepeatedRecords() throws {
        let publications = try parse(second)
        #expect(publications.map(\.day.description) == ["2026-03-26"])
        #expect(publications[0].quotes.count == 29)
        #expect(publications[0]["EUR"] == quote("EUR", "10.7729"))
        #expect(publications[0]["JPY"] == quote("JPY", "5.8475", unit: 100))
    }

    @Test("one request per weekday at 12:30, with the subscription key; latest is the last seven days' weekdays")
    func requests() {
        let root = "https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement?date="
        let range = provider.requests(for: .range(Day("2026-03-25")!, Day("2026-03-30")!))
        #expect(range.map(\.url) == ["2026-03-25", "2026-03-26", "2026-03-27", "2026-03-30"].map { root + $0 + "T12:30:00" })
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil && $0.headers["Ocp-Apim-Subscription-Key"] == "test-key" })
        #expect(provider.requests(for: .latest).map(\.url) == ["2026-03-23", "2026-03-24", "2026-03-25", "2026-03-26", "2026-03-27", "2026-03-30"].map { root + $0 + "T12:30:00" })
    }

    @Test("a figure that is not a positive decimal, as a string, or a bad unit rejects the answer")
    func badFigures() throws {
        let day = Day("2026-03-25")!
        let negative = try ProviderFixture.edited(first, replacing: "\"moyen\":9.3189", with: "\"moyen\":-9.3189")
        #expect(error(negative) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "-9.3189"))
        let zero = try ProviderFixture.edited(first, replacing: "\"moyen\":9.3189", with: "\"moyen\":0")
        #expect(error(zero) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "0"))
        let text = try ProviderFixture.edited(first, replacing: "\"moyen\":9.3189", with: "\"moyen\":\"9,3189\"")
        #expect(error(text)?.isLayout(of: "BAM") == true)
        let unit = try ProviderFixture.edited(first, replacing: "\"moyen\":95.938,\"uniteDevise\":100", with: "\"moyen\":95.938,\"uniteDevise\":1.5")
        #expect(error(unit)?.isLayout(of: "BAM") == true)
        let notTen = try ProviderFixture.edited(first, replacing: "\"moyen\":95.938,\"uniteDevise\":100", with: "\"moyen\":95.938,\"uniteDevise\":3")
        #expect(error(notTen) == .invalidRate(currency: CurrencyCode("NOK")!, day: day, text: "95.938"))
    }

    @Test("a currency with two different figures, a bad code or day rejects the answer")
    func badRecords() throws {
        let day = Day("2026-03-26")!
        let twice = try ProviderFixture.edited(second, replacing: "\"libDevise\":\"LYD\",\"moyen\":1.8921", with: "\"libDevise\":\"LYD\",\"moyen\":1.8922")
        #expect(error(twice) == .duplicateCurrency(CurrencyCode("LYD")!, day: day))
        let code = try ProviderFixture.edited(first, replacing: "\"libDevise\":\"NOK\"", with: "\"libDevise\":\"NO\"")
        #expect(error(code) == .invalidCurrencyCode("NO", day: Day("2026-03-25")!))
        let badDay = try ProviderFixture.edited(first, replacing: "\"date\":\"2026-03-25T12:30:00\"", with: "\"date\":\"2026-02-30T12:30:00\"")
        #expect(error(badDay) == .invalidDay("2026-02-30"))
        let badTime = try ProviderFixture.edited(first, replacing: "\"date\":\"2026-03-25T12:30:00\"", with: "\"date\":\"2026-03-25\"")
        #expect(error(badTime) == .invalidDay("2026-03-25"))
    }

    @Test("a truncated body, an HTML error page, an empty body or an object are rejected; an empty array is no publication")
    func brokenBodies() throws {
        #expect(error(try ProviderFixture.truncated(first))?.isLayout(of: "BAM") == true)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(second)) {
            #expect(error(cut) != nil, "a cut at \(cut.count) bytes parsed")
        }
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BAM") == true)
        #expect(error([]) == .empty)
        #expect(error(Array(#"{"statusCode":401,"message":"Access denied due to missing subscription key."}"#.utf8))?.isLayout(of: "BAM") == true)
        #expect(try provider.parse(Array("[]".utf8), of: provider.requests(for: .latest)[0]).isEmpty)
    }
}
