import Foundation
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

    @Test("a row with its own start date within the month is a correction: a second publication, dated that day")
    func midMonthCorrection() throws {
        // HMRC corrects a currency that moves more than 5% within the month: the month-start row then
        // ends the day before and a row of the same currency runs from the correction's day to the
        // month's end (the shape of HMRC's files for such months). August's lek is given one here.
        let body = try ProviderFixture.edited(
            august, replacing: "Albania,Lek,ALL,109.7955,01/08/2026,31/08/2026",
            with: "Albania,Lek,ALL,109.7955,01/08/2026,14/08/2026\nAlbania,Lek,ALL,115.2210,15/08/2026,31/08/2026")
        let publications = try parse(body)
        #expect(publications.map(\.day) == [Day("2026-08-01")!, Day("2026-08-15")!])
        #expect(publications[0].quotes.count == 141)
        #expect(publications[0]["ALL"] == quote("ALL", "109.7955", .unitsPerPivot))
        #expect(publications[1].quotes == [quote("ALL", "115.2210", .unitsPerPivot)])
        // A correction row may also follow a month-start row that still runs to the month's end.
        let added = try ProviderFixture.edited(
            august, replacing: "USA,Dollar,USD,1.3367,01/08/2026,31/08/2026",
            with: "USA,Dollar,USD,1.3367,01/08/2026,31/08/2026\nUSA,Dollar,USD,1.2699,22/08/2026,31/08/2026")
        let two = try parse(added)
        #expect(two.map(\.day) == [Day("2026-08-01")!, Day("2026-08-22")!])
        #expect(two[0]["USD"]?.value == "1.3367")
        #expect(two[1].quotes == [quote("USD", "1.2699", .unitsPerPivot)])
    }

    @Test("reads HMRC's own labels: ZIG as ZWG, VED as VES, SLE before March 2023 as SLL; skips Ecuador's ECS row")
    func ownLabels() throws {
        // HMRC has labelled Zimbabwe Gold ZIG and the bolívar VED; August's rows relabelled so.
        let labels = try ProviderFixture.edited(
            august, replacing: "Venezuelan Bolivar,VES,984.1686", with: "Venezuelan Bolivar,VED,984.1686")
        let zig = try #require(ProviderFixture.replacing("Zimbabwe Gold,ZWG,35.8198", with: "Zimbabwe Gold,ZIG,35.8198", in: labels))
        // Ecuador's row, as HMRC writes it: the US dollar's figure under the sucre's code.
        let ecuador = try #require(ProviderFixture.replacing(
            "USA,Dollar,USD,1.3367,01/08/2026,31/08/2026",
            with: "Ecuador,Dollar,ECS,1.3367,01/08/2026,31/08/2026\nUSA,Dollar,USD,1.3367,01/08/2026,31/08/2026", in: zig))
        let month = try #require(try parse(ecuador).first)
        #expect(month.quotes.count == 141)
        #expect(month["ZWG"] == quote("ZWG", "35.8198", .unitsPerPivot))
        #expect(month["VES"]?.value == "984.1686")
        #expect(month["USD"]?.value == "1.3367")
        #expect(month["ZIG"] == nil && month["VED"] == nil && month["ECS"] == nil)
        #expect(month["SLE"]?.value == "30.6308")
        // A file of November 2022: HMRC's SLE row then priced the old leone (15631.1792 per £1 that month).
        var november = String(decoding: try ProviderFixture.bytes(august), as: UTF8.self)
            .replacingOccurrences(of: "01/08/2026,31/08/2026", with: "01/11/2022,30/11/2022")
        november = november.replacingOccurrences(of: "Leone,SLE,30.6308", with: "Leone,SLE,15631.1792")
        let old = try #require(try parse(Array(november.utf8)).first)
        #expect(old.day == Day("2022-11-01")!)
        #expect(old["SLL"] == quote("SLL", "15631.1792", .unitsPerPivot))
        #expect(old["SLE"] == nil)
    }

    @Test("rejects a value that is not a decimal, a code repeated with another figure, a bad code, a period outside the file's month or a month no row starts")
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
        let past = try ProviderFixture.edited(august, replacing: "4.9091,01/08/2026,31/08/2026", with: "4.9091,01/08/2026,01/09/2026")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(past) }))
        let backwards = try ProviderFixture.edited(august, replacing: "4.9091,01/08/2026,31/08/2026", with: "4.9091,20/08/2026,19/08/2026")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(backwards) }))
        // Every row moved to start on the 2nd: no row starts the month.
        let noFirst = Array(String(decoding: try ProviderFixture.bytes(august), as: UTF8.self).replacingOccurrences(of: ",01/08/2026,", with: ",02/08/2026,").utf8)
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(noFirst) }))
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
