import RatesCore
@testable import RatesUpstream
import Testing

@Suite("BCBO adapter")
struct BCBOProviderTests {
    let provider = BCBOProvider(today: { Day("2026-07-15")! })
    let year = "bcbo-bolivia/00_tiposDeCambioHistorico_xls.php_anio=2007.xls"
    let monday = "bcbo-bolivia/01_librerias_indicadores_otras_otras_imprimir2XLS.php_qaa=2026_qdd=13_qmm=7.xls"
    let tuesday = "bcbo-bolivia/02_librerias_indicadores_otras_otras_imprimir2XLS.php_qaa=2026_qdd=14_qmm=7.xls"
    static let daily = "https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    /// The index of `text` among the shared strings of the recorded workbook `name`.
    func sharedString(_ text: String, in name: String) throws -> Int {
        try #require(try BIFFWorkbook(ProviderFixture.bytes(name)).sharedStrings.firstIndex(of: text))
    }

    @Test("reads a day's table: the official dollar rate and 22 currencies in bolivianos per unit, the offshore yuan (CNH) among them; the blocks after the currencies left out")
    func readsDailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(monday))
        #expect(publications.map(\.day) == [Day("2026-07-13")!])
        let day = try #require(publications.first)
        #expect(day.codes == [
            "AED", "ARS", "AUD", "BRL", "CAD", "CHF", "CLP", "CNH", "CNY", "COP", "EUR", "GBP", "HKD", "INR", "JPY", "KRW", "MXN", "NOK", "PEN",
            "PYG", "SEK", "USD", "UYU",
        ])
        #expect(day.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits })
        #expect(day["USD"] == quote("USD", "10.4"))
        #expect(day["ARS"] == quote("ARS", "0.00699"))
        #expect(day["COP"]?.value == "0.0032")
        #expect(day["EUR"]?.value == "11.8716")
        #expect(day["JPY"]?.value == "0.06432")
        #expect(day["GBP"]?.value == "13.9328")
        #expect(day["CHF"]?.value == "12.86174")

        let next = try #require(try parse(ProviderFixture.bytes(tuesday)).first)
        #expect(next.day == Day("2026-07-14"))
        #expect(next.quotes.count == 23)
        #expect(next["USD"]?.value == "10.5")
        #expect(next["EUR"]?.value == "11.95314")
        #expect(next["PYG"]?.value == "0.00173")
    }

    @Test("reads a year's file: each working day's exact midpoint of the dollar's selling and buying rates")
    func readsYear() throws {
        let publications = try parse(ProviderFixture.bytes(year))
        #expect(publications.count == 251)
        #expect(publications.first?.day == Day("2007-01-02"))
        #expect(publications.last?.day == Day("2007-12-31"))
        #expect(publications.allSatisfy { $0.codes == ["USD"] })
        #expect(ProviderFixture.quote("USD", on: "2007-01-02", in: publications) == quote("USD", "7.98"))
        #expect(ProviderFixture.quote("USD", on: "2007-02-01", in: publications)?.value == "7.96")
        #expect(ProviderFixture.quote("USD", on: "2007-07-02", in: publications)?.value == "7.90")
        #expect(ProviderFixture.quote("USD", on: "2007-10-15", in: publications)?.value == "7.76")
        #expect(ProviderFixture.quote("USD", on: "2007-12-31", in: publications)?.value == "7.62")
    }

    @Test("asks for the tables of today and the working days among the three before; a range by day from 2008 on and by year before")
    func requests() {
        func table(_ year: Int, _ month: Int, _ day: Int) -> ProviderRequest {
            ProviderRequest(url: "\(Self.daily)?qaa=\(year)&qdd=\(day)&qmm=\(month)")
        }
        #expect(provider.requests(for: .latest) == [table(2026, 7, 13), table(2026, 7, 14), table(2026, 7, 15)])
        #expect(provider.requests(for: .range(Day("2026-07-10")!, Day("2026-07-13")!)) == [table(2026, 7, 10), table(2026, 7, 13)])
        #expect(provider.requests(for: .range(Day("2006-12-30")!, Day("2008-01-02")!)) == [
            ProviderRequest(url: "https://www.bcb.gob.bo/tiposDeCambioHistorico/xls.php?anio=2006"),
            ProviderRequest(url: "https://www.bcb.gob.bo/tiposDeCambioHistorico/xls.php?anio=2007"),
            table(2008, 1, 1), table(2008, 1, 2),
        ])
        #expect(provider.requests(for: .range(Day("1998-01-01")!, Day("1999-12-31")!)).isEmpty)
        #expect(provider.requests(for: .range(Day("2026-07-14")!, Day("2026-07-13")!)).isEmpty)
        #expect(BCBOProvider(baseURL: "http://127.0.0.1:9/bcbo", today: { Day("2026-07-13")! }).requests(for: .latest).map(\.url)
            == ["http://127.0.0.1:9/bcbo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=2026&qdd=10&qmm=7",
                "http://127.0.0.1:9/bcbo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=2026&qdd=13&qmm=7"])
    }

    @Test("altered input is rejected whole: a currency twice, a bad code or figure, no title, a month with one rate of two, a day out of order")
    func alteredInput() throws {
        let day = Day("2026-07-13")!
        // ARS's code cell (C17) naming EUR, whose row comes later with other figures.
        let twice = try XLSFixture.edited(monday, sheet: 0, "C17", .sharedString(sharedString("EUR", in: monday)))
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("EUR")!, day: day))
        let code = try XLSFixture.edited(monday, sheet: 0, "C18", .sharedString(sharedString("DOLAR", in: monday)))
        #expect(ProviderFixture.error(code, provider) == .invalidCurrencyCode("DOLAR", day: day))
        let negative = try XLSFixture.edited(monday, sheet: 0, "D17", .number(-1))
        #expect(ProviderFixture.error(negative, provider) == .invalidRate(currency: CurrencyCode("ARS")!, day: day, text: "-1"))
        let zero = try XLSFixture.edited(monday, sheet: 0, "D13", .number(0))
        #expect(ProviderFixture.error(zero, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "0"))
        let untitled = try XLSFixture.edited(monday, sheet: 0, "A9", .sharedString(sharedString("BANCO CENTRAL DE BOLIVIA", in: monday)))
        #expect(ProviderFixture.error(untitled, provider)?.isLayout(of: "BCBO") == true)

        let oneRate = try XLSFixture.edited(year, sheet: 0, "C8", .number(-7.93))
        #expect(ProviderFixture.error(oneRate, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2007-01-02")!, text: "8.03 / -7.93"))
        let outOfOrder = try XLSFixture.edited(year, sheet: 0, "A9", .number(2))
        #expect(ProviderFixture.error(outOfOrder, provider)?.isLayout(of: "BCBO") == true)
    }

    @Test("every truncation of the files, an HTML error page, another bank's workbook and an empty body are rejected")
    func brokenBodies() throws {
        for name in [year, monday] {
            let bytes = try ProviderFixture.bytes(name)
            for end in stride(from: 1, to: bytes.count, by: 97) {
                guard case .unreadableArchive = ProviderFixture.error(Array(bytes[..<end]), provider) else {
                    Issue.record("\(name) cut to \(end) bytes was not rejected as unreadable")
                    return
                }
            }
        }
        guard case .unreadableArchive = ProviderFixture.error(ProviderFixture.htmlErrorPage, provider) else {
            Issue.record("an HTML page was not rejected as unreadable")
            return
        }
        let lebanese = try ProviderFixture.bytes("bdl-lebanon/00_BDL_DailyExchangeRates.xls")
        #expect(ProviderFixture.error(lebanese, provider)?.isLayout(of: "BCBO") == true)
        #expect(ProviderFixture.error([], provider) == .empty)
    }
}
