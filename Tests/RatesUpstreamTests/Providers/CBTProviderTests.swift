import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("CBT adapter")
struct CBTProviderTests {
    let provider = CBTProvider(today: { Day("2026-05-21")! })
    let file = "cbt-turkmenistan/cbt_02_21052026.xml"
    let day = Day("2026-05-21")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the table of 2026-05-21: 47 currencies and the SDR, TMT per multiplier units")
    func dailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day) == [day])
        let table = try #require(publications.first)
        #expect(table.quotes.count == 48)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        #expect(table["USD"] == quote("USD", "3.5"))
        #expect(table["XDR"] == quote("XDR", "4.7844"))
        #expect(table["RUB"] == quote("RUB", "4.9192", unit: 100))
        #expect(table["IRR"] == quote("IRR", "0.0265", unit: 10000))
        #expect(table.quotes.filter { $0.unit != 1 }.count == 17)
    }

    @Test("imports both recorded days, each under the date it states")
    func imports() throws {
        let urls = ["cbt-turkmenistan/cbt_01_20052026.xml", file].map { Fixtures.url($0) }
        let publications = try provider.publications(inFiles: urls, subjects: [], today: day)
        #expect(publications.map(\.day.description) == ["2026-05-20", "2026-05-21"])
        #expect(publications.allSatisfy { $0.quotes.count == 48 })
        #expect(ProviderFixture.quote("AMD", on: "2026-05-20", in: publications) == quote("AMD", "0.9536", unit: 100))
    }

    @Test("reads the dates of the 2020–2023 files, written YYYY-MM-DD")
    func isoDate() throws {
        let body = try ProviderFixture.edited(file, replacing: "<date>21.05.2026</date>", with: "<date>2026-05-21</date>")
        #expect(try parse(body).map(\.day) == [day])
    }

    @Test("asks for the day's file, Monday to Saturday, and on a Sunday for Saturday's")
    func requests() {
        #expect(provider.requests(for: .latest).map(\.url) == ["https://cbt.tm/kurs/2026/21052026.xml"])
        #expect(CBTProvider(today: { Day("2026-05-24")! }).requests(for: .latest).map(\.url) == ["https://cbt.tm/kurs/2026/23052026.xml"])
        let range = provider.requests(for: .range(Day("2025-12-27")!, Day("2026-01-02")!))
        #expect(
            range.map(\.url) == [
                "https://cbt.tm/kurs/2025/27122025.xml", "https://cbt.tm/kurs/2025/29122025.xml", "https://cbt.tm/kurs/2025/30122025.xml",
                "https://cbt.tm/kurs/2025/31122025.xml", "https://cbt.tm/kurs/2026/01012026.xml", "https://cbt.tm/kurs/2026/02012026.xml",
            ])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(CBTProvider(baseURL: "http://127.0.0.1:8080/cbt").requests(for: .range(day, day))[0].url == "http://127.0.0.1:8080/cbt/kurs/2026/21052026.xml")
    }

    @Test("rejects a value that is not a decimal")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<rate_tmt>4.9192</rate_tmt>", with: "<rate_tmt>4.91 92x</rate_tmt>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("RUB")!, day: day, text: "4.91 92x"))
    }

    @Test("rejects a currency listed twice")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "<rate code=\"AED\">", with: "<rate code=\"USD\">")
        #expect(ProviderFixture.error { try parse(body) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
    }

    @Test("rejects a bad code, multiplier or day")
    func badFields() throws {
        let code = try ProviderFixture.edited(file, replacing: "<rate code=\"AED\">", with: "<rate code=\"A1D\">")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("A1D", day: day))
        let unit = try ProviderFixture.edited(file, replacing: "<multiplier>10000</multiplier>", with: "<multiplier>0</multiplier>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(unit) }))
        let date = try ProviderFixture.edited(file, replacing: "<date>21.05.2026</date>", with: "<date>21.13.2026</date>")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("21.13.2026"))
        let noValue = try ProviderFixture.edited(file, replacing: "<rate_tmt>3.5</rate_tmt>", with: "")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(noValue) }))
    }

    @Test("rejects truncated bodies, an HTML error page, an empty body and a table without rates")
    func notTheTable() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file)) {
            #expect(ProviderFixture.error { try parse(cut) } != nil)
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let empty = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><cbt_currency_rate name=\"CBT Currency XML\"><date>21.05.2026</date></cbt_currency_rate>".utf8)
        #expect(ProviderFixture.error { try parse(empty) } == .emptyDay(day))
    }
}
