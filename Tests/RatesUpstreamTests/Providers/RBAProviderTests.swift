import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("RBA adapter")
struct RBAProviderTests {
    let provider = RBAProvider()
    // The recorded file's metadata block and its last 30 days (see the README beside it).
    let file = "rba-australia/f11.1-data.csv"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads F11.1 from 09-Feb-2026 to 20-Mar-2026: 30 days of 20 currencies per 1 AUD; the index and discontinued AED, ZAR left out")
    func readsTable() throws {
        let publications = try parse(try ProviderFixture.bytes(file))
        #expect(publications.count == 30)
        #expect(publications.first?.day == Day("2026-02-09"))
        #expect(publications.last?.day == Day("2026-03-20"))
        #expect(publications.allSatisfy { $0.quotes.count == 20 })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .unitsPerPivot } })
        func value(_ code: String) -> String? { ProviderFixture.quote(code, on: "2026-03-20", in: publications)?.value }
        #expect(value("USD") == "0.7088")
        #expect(value("JPY") == "112.27")
        #expect(value("IDR") == "12039")
        #expect(value("PGK") == "3.0565")
        #expect(value("XDR") == "0.5217")
        #expect(ProviderFixture.quote("EUR", on: "2026-02-09", in: publications)?.value == "0.5940")
        for absent in ["AED", "ZAR", "SDR"] { #expect(value(absent) == nil) }
    }

    @Test("a value that is not a decimal rejects the answer")
    func garbageRate() throws {
        let body = try ProviderFixture.edited(file, replacing: "20-Mar-2026,0.7088,", with: "20-Mar-2026,0.70 88x,")
        #expect(ProviderFixture.error(body, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-20")!, text: "0.70 88x"))
    }

    @Test("two columns of one currency are a duplicate currency")
    func duplicateCurrency() throws {
        let titles = try ProviderFixture.edited(file, replacing: "A$1=CNY,A$1=JPY", with: "A$1=CNY,A$1=CNY")
        let body = Array(String(decoding: titles, as: UTF8.self).replacingOccurrences(of: "Index,CNY,JPY", with: "Index,CNY,CNY").utf8)
        #expect(ProviderFixture.error(body, provider) == .duplicateCurrency(CurrencyCode("CNY")!, day: Day("2026-02-09")!))
    }

    @Test("a column not quoted per 1 AUD is a layout error")
    func otherConvention() throws {
        let body = try ProviderFixture.edited(file, replacing: "A$1=JPY", with: "JPY100=A$")
        #expect(ProviderFixture.error(body, provider)?.isLayout(of: "RBA") == true)
    }

    @Test("a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        #expect(ProviderFixture.error(try ProviderFixture.truncated(file, fraction: 0.8), provider)?.isLayout(of: "RBA") == true)
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "RBA") == true)
        #expect(ProviderFixture.error([], provider) == .empty)
    }

    @Test("latest and a range both ask for the one F11.1 file")
    func requests() {
        let url = "https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv"
        #expect(provider.requests(for: .latest).map(\.url) == [url])
        #expect(provider.requests(for: .range(Day("2026-03-02")!, Day("2026-03-20")!)).map(\.url) == [url])
    }
}
