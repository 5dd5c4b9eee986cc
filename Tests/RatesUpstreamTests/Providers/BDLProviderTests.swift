import RatesCore
@testable import RatesUpstream
import Testing

@Suite("BDL adapter")
struct BDLProviderTests {
    let provider = BDLProvider()
    let file = "bdl-lebanon/00_BDL_DailyExchangeRates.xls"
    let url = "https://www.bdl.gov.lb/CB%20Com/Statistics%20And%20Research/Daily/BDL_DailyExchangeRates.xls"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the three yearly sheets: 11 days of 7 currencies in pounds per unit, the Mid as published, 2025-11-17's repeated rows once")
    func readsWorkbook() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == [
            "2024-01-02", "2024-03-27", "2024-03-28", "2025-11-17", "2025-11-18",
            "2026-08-31", "2026-09-01", "2026-09-02", "2026-09-03", "2026-09-04", "2026-09-07",
        ])
        #expect(publications.allSatisfy { $0.codes == ["AUD", "CAD", "CHF", "EUR", "GBP", "JPY", "USD"] })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits } })
        // The newest day: Bid, Ask and Mid one figure (stored as MULRK integers ×100, and 579.33 as a NUMBER).
        #expect(ProviderFixture.quote("USD", on: "2026-09-07", in: publications) == quote("USD", "89500"))
        #expect(ProviderFixture.quote("EUR", on: "2026-09-07", in: publications) == quote("EUR", "104016.9"))
        #expect(ProviderFixture.quote("JPY", on: "2026-09-07", in: publications) == quote("JPY", "579.33"))
        #expect(ProviderFixture.quote("CAD", on: "2026-08-31", in: publications)?.value == "64407.02")
        // Before the unification: the Mid between Bid 14935 and Ask 15065, not their computed midpoint.
        #expect(ProviderFixture.quote("USD", on: "2024-03-27", in: publications)?.value == "15000")
        #expect(ProviderFixture.quote("EUR", on: "2024-03-27", in: publications)?.value == "16245")
        #expect(ProviderFixture.quote("JPY", on: "2024-03-27", in: publications)?.value == "99.23")
        #expect(ProviderFixture.quote("GBP", on: "2024-03-27", in: publications)?.value == "18946.5")
        #expect(ProviderFixture.quote("USD", on: "2024-03-28", in: publications)?.value == "89500")
        #expect(ProviderFixture.quote("CHF", on: "2024-01-02", in: publications)?.value == "17699.12")
        #expect(ProviderFixture.quote("AUD", on: "2024-01-02", in: publications)?.value == "10221")
        #expect(ProviderFixture.quote("GBP", on: "2025-11-17", in: publications)?.value == "117826.75")
    }

    @Test("asks for the one workbook under the configured host, for the newest publication and for a range")
    func requests() {
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: url)])
        #expect(provider.requests(for: .range(Day("2025-01-01")!, Day("2026-09-07")!)) == [ProviderRequest(url: url)])
        #expect(provider.requests(for: .range(Day("2026-09-07")!, Day("2026-09-01")!)).isEmpty)
        #expect(BDLProvider(baseURL: "http://127.0.0.1:9/bdl").requests(for: .latest).map(\.url)
            == ["http://127.0.0.1:9/bdl/CB%20Com/Statistics%20And%20Research/Daily/BDL_DailyExchangeRates.xls"])
    }

    @Test("altered input is rejected whole: a repeat with other figures, a Mid outside Bid and Ask, a bad currency, figure or day")
    func alteredInput() throws {
        // The repeated 2025-11-17 block's USD row (B16 of the 2025 sheet) named EUR: two EUR rows with other figures.
        let conflict = try XLSFixture.edited(file, sheet: 1, "B16", .sharedString(6))
        #expect(ProviderFixture.error(conflict, provider) == .duplicateCurrency(CurrencyCode("EUR")!, day: Day("2025-11-17")!))
        // 2024-03-27's USD Mid (E9 of the 2024 sheet, a MULRK cell) set to 16000, above the Ask of 15065.
        let outside = try XLSFixture.edited(file, sheet: 2, "E9", .rk(16000 << 2 | 0x02))
        #expect(ProviderFixture.error(outside, provider)?.isLayout(of: "BDL") == true)
        let code = try XLSFixture.edited(file, sheet: 0, "B2", .sharedString(1))
        #expect(ProviderFixture.error(code, provider) == .invalidCurrencyCode("Currency", day: Day("2026-09-07")!))
        let negative = try XLSFixture.edited(file, sheet: 0, "C2", .rk(UInt32(bitPattern: Int32(-5) << 2) | 0x02))
        #expect(ProviderFixture.error(negative, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-09-07")!, text: "-5"))
        let fraction = try XLSFixture.edited(file, sheet: 0, "A2", .number(46272.5))
        #expect(ProviderFixture.error(fraction, provider) == .invalidDay("Excel serial 46272.5"))
        let otherYear = try XLSFixture.edited(file, sheet: 0, "A2", .number(45979))
        #expect(ProviderFixture.error(otherYear, provider)?.isLayout(of: "BDL") == true)
        let header = try XLSFixture.edited(file, sheet: 0, "E1", .sharedString(3))
        #expect(ProviderFixture.error(header, provider)?.isLayout(of: "BDL") == true)
    }

    @Test("every truncation of the workbook, an HTML error page, another bank's workbook and an empty body are rejected")
    func brokenBodies() throws {
        let bytes = try ProviderFixture.bytes(file)
        for end in stride(from: 1, to: bytes.count, by: 97) {
            guard case .unreadableArchive = ProviderFixture.error(Array(bytes[..<end]), provider) else {
                Issue.record("a truncation of \(end) bytes was not rejected as unreadable")
                return
            }
        }
        guard case .unreadableArchive = ProviderFixture.error(ProviderFixture.htmlErrorPage, provider) else {
            Issue.record("an HTML page was not rejected as unreadable")
            return
        }
        let bolivian = try ProviderFixture.bytes("bcbo-bolivia/00_tiposDeCambioHistorico_xls.php_anio=2007.xls")
        #expect(ProviderFixture.error(bolivian, provider)?.isLayout(of: "BDL") == true)
        #expect(ProviderFixture.error([], provider) == .empty)
    }
}
