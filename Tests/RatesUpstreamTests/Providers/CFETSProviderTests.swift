import RatesCore
import RatesUpstream
import Testing

@Suite("CFETS adapter")
struct CFETSProviderTests {
    let provider = CFETSProvider(today: { Day("2026-09-04")! })
    let september = "cfets-china/CcprHisNew_2026-09-01_2026-09-04_p1.json"
    let summerPage1 = "cfets-china/CcprHisNew_2026-06-01_2026-08-31_p1.json"
    let summerPage2 = "cfets-china/CcprHisNew_2026-06-01_2026-08-31_p2.json"
    let day = Day("2026-09-04")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads 2026-09-01 to 04: 25 pairs, yuan per unit for the first ten, units per yuan for the rest")
    func days() throws {
        let publications = try parse(ProviderFixture.bytes(september))
        #expect(publications.map(\.day.description) == ["2026-09-01", "2026-09-02", "2026-09-03", "2026-09-04"])
        #expect(publications.allSatisfy { $0.quotes.count == 25 })
        let friday = try #require(publications.last)
        #expect(friday["USD"] == quote("USD", "6.7787"))
        #expect(friday["JPY"] == quote("JPY", "4.3135", unit: 100))
        #expect(friday["HKD"] == quote("HKD", "0.86458"))
        #expect(friday["MOP"] == quote("MOP", "1.1919", .unitsPerPivot))
        #expect(friday["KRW"] == quote("KRW", "202.07", .unitsPerPivot))
        #expect(friday["TRY"] == quote("TRY", "7.17587", .unitsPerPivot))
        #expect(friday.quotes.filter { $0.direction == .pivotPerUnits }.count == 10)
    }

    @Test("reads both pages of a longer span as the days each holds: 65 in all, trailing zeros kept")
    func pages() throws {
        let first = try parse(ProviderFixture.bytes(summerPage1))
        let second = try parse(ProviderFixture.bytes(summerPage2))
        #expect(first.count == 50)
        #expect(second.count == 15)
        #expect(first.last?.day == Day("2026-08-31"))
        #expect(second.first?.day == Day("2026-06-01"))
        #expect(ProviderFixture.quote("HKD", on: "2026-08-31", in: first) == quote("HKD", "0.86510"))
        #expect(ProviderFixture.quote("EUR", on: "2026-06-22", in: second) == quote("EUR", "7.7886"))
    }

    @Test("posts for one page of at most 50 days; the newest publication as the last seven days")
    func requests() {
        let base = "https://www.chinamoney.com.cn/ags/ms/cm-u-bk-ccpr/CcprHisNew?"
        #expect(
            provider.requests(for: .latest) == [
                ProviderRequest(
                    url: base + "startDate=2026-08-28&endDate=2026-09-04&currency=&pageNum=1&pageSize=50", method: .post,
                    headers: ["Accept": "application/json"])
            ])
        #expect(
            provider.requests(for: .range(Day("2026-06-01")!, Day("2026-08-31")!)).map(\.url) == [
                base + "startDate=2026-06-01&endDate=2026-07-20&currency=&pageNum=1&pageSize=50",
                base + "startDate=2026-07-21&endDate=2026-08-31&currency=&pageNum=1&pageSize=50",
            ])
    }

    @Test("skips a pair without a parity; rejects a value that is not a decimal, a day twice or wrong, an unknown pair, missing values")
    func alteredValues() throws {
        let missing = try ProviderFixture.edited(september, replacing: #""6.7787""#, with: #""---""#)
        #expect(try parse(missing).last?["USD"] == nil)
        let value = try ProviderFixture.edited(september, replacing: #""6.7787""#, with: #""6.77.87""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "6.77.87"))
        let twice = try ProviderFixture.edited(september, replacing: #""date":"2026-09-03""#, with: #""date":"2026-09-04""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateDay(day))
        let date = try ProviderFixture.edited(september, replacing: #""date":"2026-09-04""#, with: #""date":"2026-09-4""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-09-4"))
        let pair = try ProviderFixture.edited(september, replacing: #""head":["USD/CNY""#, with: #""head":["USD/100CNY""#)
        #expect(ProviderFixture.error { try parse(pair) }?.isLayout(of: "CFETS") == true)
        let short = try ProviderFixture.edited(september, replacing: #"["6.7787","#, with: "[")
        #expect(ProviderFixture.error { try parse(short) }?.isLayout(of: "CFETS") == true)
        let refused = try ProviderFixture.edited(september, replacing: #""rep_code":"200""#, with: #""rep_code":"500""#)
        #expect(ProviderFixture.error { try parse(refused) }?.isLayout(of: "CFETS") == true)
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notTheAnswer() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(september), stride: 37) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try [september, summerPage1, summerPage2]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: CFETSProvider()).count }
        #expect(counts == [4, 50, 15])
    }
}
