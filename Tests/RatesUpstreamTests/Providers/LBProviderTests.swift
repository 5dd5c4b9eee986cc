import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("LB adapter")
struct LBProviderTests {
    let provider = LBProvider()
    let file = "lb-lithuania-historical/01_webservices_FxRates_FxRates.asmx_getFxRates_dt=2014-12-30_tp=LT.xml"
    let day = Day("2014-12-30")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the litas table of 2014-12-30: 88 currencies, LTL per the paired units, trailing zeros kept")
    func table() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day) == [day])
        let table = try #require(publications.first)
        #expect(table.quotes.count == 88)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        #expect(table["EUR"] == quote("EUR", "3.4528"))
        #expect(table["USD"] == quote("USD", "2.8238"))
        #expect(table["XDR"] == quote("XDR", "4.0919"))
        #expect(table["AMD"] == quote("AMD", "6.1387", unit: 1000))
        #expect(table["VND"] == quote("VND", "1.3205", unit: 10000))
        #expect(table["IDR"] == quote("IDR", "2.2660", unit: 10000))
        // Codes current then are kept.
        #expect(table["BYR"] == quote("BYR", "2.5671", unit: 10000))
        #expect(table.quotes.filter { $0.unit != 1 }.count == 68)
    }

    @Test("reads a pair written the other way round as units per litas")
    func reversedPair() throws {
        let body = try ProviderFixture.edited(
            file, replacing: "<Ccy>LTL</Ccy>\r\n      <Amt>3.4528</Amt>\r\n    </CcyAmt>\r\n    <CcyAmt>\r\n      <Ccy>EUR</Ccy>\r\n      <Amt>1</Amt>",
            with: "<Ccy>EUR</Ccy>\r\n      <Amt>28.962</Amt>\r\n    </CcyAmt>\r\n    <CcyAmt>\r\n      <Ccy>LTL</Ccy>\r\n      <Amt>100</Amt>")
        #expect(try parse(body).first?["EUR"] == quote("EUR", "28.962", unit: 100, .unitsPerPivot))
    }

    @Test("imports both recorded days")
    func imports() throws {
        let urls = ["lb-lithuania-historical/00_webservices_FxRates_FxRates.asmx_getFxRates_dt=2014-12-29_tp=LT.xml", file].map { Fixtures.url($0) }
        let publications = try provider.publications(inFiles: urls, subjects: [], today: Day("2026-04-09")!)
        #expect(publications.map(\.day.description) == ["2014-12-29", "2014-12-30"])
        #expect(publications.allSatisfy { $0.quotes.count == 88 })
    }

    @Test("reads tables back to 1994-04-01, the service's first; an earlier day is refused")
    func history() throws {
        // A table from before 1999 has the same layout: the recording with every rate dated 1994-04-01.
        let recorded = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let old = recorded.replacingOccurrences(of: "<Dt>2014-12-30</Dt>", with: "<Dt>1994-04-01</Dt>")
        let publications = try parse(Array(old.utf8))
        #expect(publications.map(\.day) == [Day("1994-04-01")!])
        #expect(publications.first?.quotes.count == 88)
        #expect(publications.first?["AED"] == quote("AED", "7.6881", unit: 10))
        let before = recorded.replacingOccurrences(of: "<Dt>2014-12-30</Dt>", with: "<Dt>1994-03-31</Dt>")
        #expect(ProviderFixture.error { try parse(Array(before.utf8)) } == .dayOutOfRange(Day("1994-03-31")!))
    }

    @Test("asks for the litas' last table as the newest, one table per weekday of a range, nothing outside 1994-04-01…2014-12-31")
    func requests() {
        let base = "https://www.lb.lt/webservices/FxRates/FxRates.asmx/getFxRates"
        #expect(provider.requests(for: .latest).map(\.url) == [base + "?tp=LT&dt=2014-12-31"])
        #expect(
            provider.requests(for: .range(Day("2014-12-26")!, Day("2015-01-05")!)).map(\.url) == [
                base + "?tp=LT&dt=2014-12-26", base + "?tp=LT&dt=2014-12-29", base + "?tp=LT&dt=2014-12-30", base + "?tp=LT&dt=2014-12-31",
            ])
        #expect(provider.requests(for: .range(Day("2015-01-01")!, Day("2026-04-09")!)).isEmpty)
        // 1994-03-30 is a Wednesday.
        #expect(provider.requests(for: .range(Day("1994-03-30")!, Day("1994-04-04")!)).map(\.url) == [base + "?tp=LT&dt=1994-04-01", base + "?tp=LT&dt=1994-04-04"])
        #expect(provider.requests(for: .latest).allSatisfy { $0.method == .get && $0.body == nil })
    }

    @Test("catches up from the litas' last days, and once they are stored asks for nothing")
    func catchUp() {
        let today = Day("2026-04-09")!
        #expect(provider.catchUp(after: nil, backfillDays: 7, today: today) == .range(Day("2014-12-24")!, LBProvider.lastDay))
        #expect(provider.catchUp(after: nil, backfillDays: 0, today: today) == .latest)
        #expect(provider.catchUp(after: Day("2014-12-29")!, backfillDays: 0, today: today) == .range(Day("2014-12-30")!, LBProvider.lastDay))
        #expect(provider.requests(for: provider.catchUp(after: LBProvider.lastDay, backfillDays: 7, today: today)).isEmpty)
        #expect(provider.requests(for: provider.catchUp(after: LBProvider.lastDay, backfillDays: 0, today: today)).isEmpty)
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<Amt>3.4528</Amt>", with: "<Amt>3,45,28</Amt>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("EUR")!, day: day, text: "3,45,28"))
    }

    @Test("rejects a currency listed twice")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "<Ccy>AFN</Ccy>", with: "<Ccy>AED</Ccy>")
        #expect(ProviderFixture.error { try parse(body) } == .duplicateCurrency(CurrencyCode("AED")!, day: day))
    }

    @Test("rejects a bad code, amount, type or day, and a pair without litas")
    func badFields() throws {
        let code = try ProviderFixture.edited(file, replacing: "<Ccy>AFN</Ccy>", with: "<Ccy>AF</Ccy>")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("AF", day: day))
        let amount = try ProviderFixture.edited(file, replacing: "<Amt>1000</Amt>", with: "<Amt>1,000</Amt>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(amount) }))
        let type = try ProviderFixture.edited(file, replacing: "<Tp>LT</Tp>", with: "<Tp>EU</Tp>")
        #expect(ProviderFixture.error { try parse(type) }?.isLayout(of: "LB") == true)
        let date = try ProviderFixture.edited(file, replacing: "<Dt>2014-12-30</Dt>", with: "<Dt>2014-12-32</Dt>")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2014-12-32"))
        let noLitas = try ProviderFixture.edited(file, replacing: "<Ccy>LTL</Ccy>", with: "<Ccy>EUR</Ccy>")
        #expect(ProviderFixture.error { try parse(noLitas) }?.isLayout(of: "LB") == true)
    }

    @Test("rejects truncated bodies, an HTML error page and an empty body; a table without rates is no publication")
    func notTheTable() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 211) {
            #expect(ProviderFixture.error { try parse(cut) } != nil)
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let empty = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?><FxRates xmlns=\"http://www.lb.lt/WebServices/FxRates\"></FxRates>".utf8)
        #expect(try parse(empty).isEmpty)
    }
}
