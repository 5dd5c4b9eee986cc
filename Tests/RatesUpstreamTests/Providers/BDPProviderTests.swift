import RatesCore
import RatesUpstream
import Testing

@Suite("BDP adapter")
struct BDPProviderTests {
    let provider = BDPProvider()
    let folder = "bdp-portugal-historical/"
    let page1 = "bdp-portugal-historical/00_3ad63a539_dim_cats=40_4263_lang=EN_obs_since=1998-12-28_obs_to=1998-12-31_page=1.json"
    let page2 = "bdp-portugal-historical/01_3ad63a539_dim_cats=40_4263_lang=EN_obs_since=1998-12-28_obs_to=1998-12-31_page=2.json"
    let page3 = "bdp-portugal-historical/02_3ad63a539_dim_cats=40_4263_lang=EN_obs_since=1998-12-28_obs_to=1998-12-31_page=3.json"

    func parse(_ body: [UInt8], page: Int = 1) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[page - 1])
    }

    @Test("reads the escudo's last four days from three pages: 24 currencies by name, PTE per unit, JSON numbers as written")
    func lastDays() throws {
        let pages = try [page1, page2, page3].enumerated().map { try parse(ProviderFixture.bytes($0.element), page: $0.offset + 1) }
        #expect(pages.map { $0.map(\.quotes.count) } == [[11, 11, 11, 11], [11, 11, 11, 11], [4, 4, 4, 4]])
        let first = try #require(pages[0].first)
        #expect(first.day == Day("1998-12-28")!)
        #expect(first.codes == ["CHF", "ESP", "GBP", "IEP", "ITL", "NLG", "NOK", "SEK", "USD", "XEU", "ZAR"])
        #expect(first["USD"] == quote("USD", "172.392"))
        #expect(first["ITL"] == quote("ITL", "0.10353"))
        #expect(first["XEU"]?.value == "201.43")
        let last = try #require(pages[1].last)
        #expect(last.day == Day("1998-12-31")!)
        #expect(last["JPY"]?.value == "1.5097")
        #expect(pages[2][0]["AUD"] != nil && pages[2][0]["BRL"] != nil)
        #expect(pages.joined().allSatisfy { $0.quotes.allSatisfy { $0.direction == .pivotPerUnits && $0.unit == 1 } })
        // The pages together, as a fetch or an import combines them: the guilder and the Belgian franc on two pages agree.
        let files = try [page1, page2, page3].map { try ProviderFixture.bytes($0) }
        let all = try ProviderFile.read(files, provider: provider)
        #expect(all.map(\.day.description) == ["1998-12-28", "1998-12-29", "1998-12-30", "1998-12-31"])
        #expect(all.allSatisfy { $0.quotes.count == 24 })
    }

    @Test("asks for three pages of the history's last four days, and for a range three pages per year within the history")
    func requests() {
        let dataset = "https://bpstat.bportugal.pt/data/v1/domains/29/datasets/23e0cdd56bddb4ad3016a9c3ad63a539/?dim_cats=40:4263&lang=EN"
        #expect(provider.requests(for: .latest).map(\.url) == (1...3).map { dataset + "&obs_since=1998-12-28&obs_to=1998-12-31&page=\($0)" })
        let range = provider.requests(for: .range(Day("1997-12-01")!, Day("1999-02-01")!))
        #expect(range.map(\.url) == (1...3).map { dataset + "&obs_since=1997-12-01&obs_to=1997-12-31&page=\($0)" }
            + (1...3).map { dataset + "&obs_since=1998-01-01&obs_to=1998-12-31&page=\($0)" })
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(provider.requests(for: .range(Day("2026-01-01")!, Day("2026-02-01")!)).isEmpty)
        #expect(provider.requests(for: .range(Day("1980-01-01")!, Day("1998-12-31")!)).count == 36)
        #expect(provider.schedule.weekdays.isEmpty)
        #expect(provider.catchUp(after: nil, backfillDays: 7, today: Day("2026-11-26")!) == .range(Day("1987-01-02")!, BDPProvider.lastDay))
    }

    @Test("rejects a value that is not a number, a currency twice, an unknown name, a bad day, another reference currency, a page after the third")
    func alteredFields() throws {
        let day = Day("1998-12-28")!
        let value = try ProviderFixture.edited(page1, replacing: "\"value\":[172.392,", with: "\"value\":[\"172.392\",")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "172.392"))
        let negative = try ProviderFixture.edited(page1, replacing: "\"value\":[172.392,", with: "\"value\":[-172.392,")
        #expect(ProviderFixture.error { try parse(negative) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "-172.392"))
        let twice = try ProviderFixture.edited(page1, replacing: "\"824\":\"United Kingdom, Pounds\"", with: "\"824\":\"United States of America, Dollars\"")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let unknown = try ProviderFixture.edited(page1, replacing: "\"824\":\"United Kingdom, Pounds\"", with: "\"824\":\"United Kingdom, Sterling\"")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(unknown) }))
        let date = try ProviderFixture.edited(page1, replacing: "\"1998-12-28\",\"1998-12-29\"", with: "\"1998-12-28\",\"1998-12-32\"")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("1998-12-32"))
        let reference = try ProviderFixture.edited(page1, replacing: "\"794\":\"Portuguese Escudo\"", with: "\"794\":\"Euro\"")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(reference) }))
        let fourth = try ProviderFixture.edited(page3, replacing: "\"num_series\":705", with: "\"num_series\":705, \"next_page\":\"page=4\"")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(fourth, page: 3) }))
        let short = try ProviderFixture.edited(page1, replacing: "\"value\":[172.392,", with: "\"value\":[")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(short) }))
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notTheAnswer() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(page1), stride: 97) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }
}
