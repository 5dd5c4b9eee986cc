import RatesCore
import RatesUpstream
import Testing

@Suite("HMRC adapter")
struct HMRCProviderTests {
    let provider = HMRCProvider(today: { Day("2026-09-15")! })
    let august = "hmrc-uk-monthly/exrates-monthly-0826.csv"
    let september = "hmrc-uk-monthly/exrates-monthly-0926.csv"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads August and September 2026: 141 codes each, dated the month's first day, units per £1, codes repeated per territory read once")
    func months() throws {
        let aug = try #require(try parse(ProviderFixture.bytes(august)).first)
        let sep = try #require(try parse(ProviderFixture.bytes(september)).first)
        #expect(aug.day == Day("2026-08-01")!)
        #expect(sep.day == Day("2026-09-01")!)
        #expect(aug.quotes.count == 141)
        #expect(sep.quotes.count == 141)
        #expect(sep.quotes.allSatisfy { $0.direction == .unitsPerPivot && $0.unit == 1 })
        #expect(aug["ALL"] == quote("ALL", "109.7955", .unitsPerPivot))
        #expect(aug["AED"]?.value == "4.9091")
        #expect(sep["AED"]?.value == "4.9776")
        #expect(sep["XOF"]?.value == "766.2127")
        #expect(sep["EUR"]?.value == "1.1681")
        #expect(sep["JPY"]?.value == "215.6954")
        // Trailing zeros stay as published.
        #expect(sep["BTN"]?.value == "129.7270")
        #expect(sep["BND"]?.value == "1.7300")
        #expect(sep["ZWG"]?.value == "36.2052")
        #expect(provider.validityDays == 31)
    }

    @Test("asks for one file per month of a range, and for the newest the month of today and, on a month's last day, of tomorrow")
    func requests() {
        let files = "https://www.trade-tariff.service.gov.uk/uk/api/exchange_rates/files/"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: files + "monthly_csv_2026-9.csv")])
        let lastDay = HMRCProvider(today: { Day("2026-09-30")! })
        #expect(lastDay.requests(for: .latest).map(\.url) == [files + "monthly_csv_2026-9.csv", files + "monthly_csv_2026-10.csv"])
        let range = provider.requests(for: .range(Day("2026-07-20")!, Day("2026-09-02")!))
        #expect(range.map(\.url) == [files + "monthly_csv_2026-7.csv", files + "monthly_csv_2026-8.csv", files + "monthly_csv_2026-9.csv"])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(provider.requests(for: .range(Day("2026-12-20")!, Day("2027-01-02")!)).map(\.url) == [files + "monthly_csv_2026-12.csv", files + "monthly_csv_2027-1.csv"])
        #expect(HMRCProvider(baseURL: "http://127.0.0.1:8080/hmrc").requests(for: .range(Day("2026-08-01")!, Day("2026-08-31")!))[0].url
            == "http://127.0.0.1:8080/hmrc/uk/api/exchange_rates/files/monthly_csv_2026-8.csv")
    }

    @Test("catches up by whole months, and a 404 for a month not out yet is no publication")
    func catchUpAndNotOut() {
        let today = Day("2026-09-15")!
        #expect(provider.catchUp(after: nil, backfillDays: 40, today: today) == .range(Day("2026-08-01")!, today))
        #expect(provider.catchUp(after: nil, backfillDays: 0, today: today) == .latest)
        #expect(provider.catchUp(after: Day("2026-09-01")!, backfillDays: 7, today: today) == .latest)
        #expect(provider.catchUp(after: Day("2026-07-01")!, backfillDays: 7, today: today) == .range(Day("2026-07-01")!, today))
        let next = HMRCProvider(today: { Day("2026-09-30")! }).requests(for: .latest)[1]
        #expect(provider.meansNoPublication(httpStatus: 404, for: next))
        #expect(!provider.meansNoPublication(httpStatus: 500, for: next))
    }

    @Test("rejects a value that is not a decimal, a code repeated with another figure, a bad code, a period that is not one month")
    func alteredFields() throws {
        let day = Day("2026-08-01")!
        let value = try ProviderFixture.edited(august, replacing: "109.7955", with: "109.79x5")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("ALL")!, day: day, text: "109.79x5"))
        let twice = try ProviderFixture.edited(august, replacing: "Dubai,Dirham,AED,4.9091", with: "Dubai,Dirham,AED,4.9092")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("AED")!, day: day))
        let code = try ProviderFixture.edited(august, replacing: "Albania,Lek,ALL", with: "Albania,Lek,Lek")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("Lek", day: day))
        let unknown = try ProviderFixture.edited(august, replacing: "Albania,Lek,ALL", with: "Albania,Lek,QQQ")
        #expect(ProviderFixture.error { try parse(unknown) } == .invalidCurrencyCode("QQQ", day: day))
        let start = try ProviderFixture.edited(august, replacing: "4.9091,01/08/2026,31/08/2026", with: "4.9091,02/08/2026,31/08/2026")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(start) }))
        let date = try ProviderFixture.edited(august, replacing: "4.9091,01/08/2026,31/08/2026", with: "4.9091,01/08/2026,32/08/2026")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("32/08/2026"))
        let mixed = try ProviderFixture.edited(august, replacing: "109.7955,01/08/2026,31/08/2026", with: "109.7955,01/09/2026,30/09/2026")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(mixed) }))
        let header = try ProviderFixture.edited(august, replacing: "Currency Units per £1", with: "Currency Units per $1")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(header) }))
    }

    @Test("rejects truncated bodies (a cut at a row's end aside), an HTML error page, the 404 answer's body, an empty body and a header alone")
    func notTheFile() throws {
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.truncated(august)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(august), stride: 97) {
            _ = ProviderFixture.error { try parse(cut) }
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.bytes("hmrc-uk-monthly/monthly_csv_2026-10.404.json")) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let header = "Country/Territories,Currency,Currency Code,Currency Units per £1,Start date,End date\n"
        #expect(ProviderFixture.error { try parse(Array(header.utf8)) } == .empty)
    }
}
