import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BANXICO adapter")
struct BANXICOProviderTests {
    let provider = BANXICOProvider(apiKey: "TOKEN")
    let file = "banxico-mexico/SIE_series_SF43718_SF46410_SF46407_SF46406_SF60632_2026-03-01_2026-03-15.json"

    var request: ProviderRequest { provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-15")!))[0] }

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] { try provider.parse(body, of: request) }
    func error(_ body: [UInt8]) -> UpstreamDataError? { ProviderFixture.error(body, provider, request: request) }

    @Test("reads the SIE series of 1–15 Mar 2026: 10 days of 5 currencies, MXN per 1 unit, series mapped to codes")
    func readsRange() throws {
        let publications = try parse(try ProviderFixture.bytes(file))
        #expect(publications.count == 10)
        #expect(publications.first?.day == Day("2026-03-02"))
        #expect(publications.last?.day == Day("2026-03-13"))
        #expect(publications.allSatisfy { Set($0.quotes.map(\.currency.rawValue)) == ["USD", "EUR", "GBP", "JPY", "CAD"] })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits } })
        func quote(_ code: String, _ day: String) -> PublishedQuote? { ProviderFixture.quote(code, on: day, in: publications) }
        #expect(quote("USD", "2026-03-02") == PublishedQuote(currency: CurrencyCode("USD")!, value: "17.3485", unit: 1, direction: .pivotPerUnits))
        // Trailing zero kept as written.
        #expect(quote("USD", "2026-03-05")?.value == "17.6770")
        #expect(quote("EUR", "2026-03-13")?.value == "20.5536")
        #expect(quote("GBP", "2026-03-03")?.value == "23.5580")
        #expect(quote("JPY", "2026-03-02")?.value == "0.1105")
        #expect(quote("CAD", "2026-03-13")?.value == "13.0259")
    }

    @Test("\"N/E\" is a day without a figure and is left out")
    func notExisting() throws {
        let body = try ProviderFixture.edited(file, replacing: "{\"fecha\":\"02/03/2026\",\"dato\":\"0.1105\"}", with: "{\"fecha\":\"02/03/2026\",\"dato\":\"N/E\"}")
        let publications = try parse(body)
        #expect(publications.count == 10)
        #expect(publications[0].quotes.count == 4)
        #expect(ProviderFixture.quote("JPY", on: "2026-03-02", in: publications) == nil)
    }

    /// The recording with the `datos` of `series` taken out: how the SIE answers for a series with no
    /// figure in the span asked for.
    func withoutDatos(_ series: [String], in bytes: [UInt8]) throws -> [UInt8] {
        var text = try #require(String(validating: bytes, as: UTF8.self))
        for id in series {
            let start = try #require(text.range(of: "\"idSerie\":\"\(id)\""))
            let datos = try #require(text.range(of: ",\"datos\":[", range: start.upperBound..<text.endIndex))
            let end = try #require(text.range(of: "]", range: datos.upperBound..<text.endIndex))
            text.removeSubrange(datos.lowerBound..<end.upperBound)
        }
        return Array(text.utf8)
    }

    @Test("a series without datos has no figure in the span: the others are read; no figure at all is no publication")
    func seriesWithoutFigures() throws {
        let bytes = try ProviderFixture.bytes(file)
        let noCAD = try parse(try withoutDatos(["SF60632"], in: bytes))
        #expect(noCAD.count == 10)
        #expect(noCAD.allSatisfy { Set($0.quotes.map(\.currency.rawValue)) == ["USD", "EUR", "GBP", "JPY"] })
        #expect(ProviderFixture.quote("USD", on: "2026-03-02", in: noCAD)?.value == "17.3485")
        let none = try withoutDatos(BANXICOProvider.series.map(\.key), in: bytes)
        #expect(try parse(none).isEmpty)
        // datos that is there but not an array is no answer of the SIE's.
        let notArray = try ProviderFixture.edited(file, replacing: "\"datos\":[{\"fecha\":\"02/03/2026\",\"dato\":\"17.3485\"}", with: "\"datos\":{},\"x\":[{\"fecha\":\"02/03/2026\",\"dato\":\"17.3485\"}")
        #expect(error(notArray)?.isLayout(of: "BANXICO") == true)
    }

    @Test("reads the FIX back to its first day, 1991-11-12; a day before it rejects the answer")
    func history() throws {
        // The recording's first FIX moved to the series' first day.
        let first = try ProviderFixture.edited(file, replacing: "{\"fecha\":\"02/03/2026\",\"dato\":\"17.3485\"}", with: "{\"fecha\":\"12/11/1991\",\"dato\":\"17.3485\"}")
        let publications = try parse(first)
        #expect(publications.first?.day == Day("1991-11-12"))
        #expect(publications.first?.quotes == [PublishedQuote(currency: CurrencyCode("USD")!, value: "17.3485", unit: 1, direction: .pivotPerUnits)])
        #expect(provider.historyStart == Day("1991-11-12"))
        let before = try ProviderFixture.edited(file, replacing: "{\"fecha\":\"02/03/2026\",\"dato\":\"17.3485\"}", with: "{\"fecha\":\"11/11/1991\",\"dato\":\"17.3485\"}")
        #expect(error(before) == .dayOutOfRange(Day("1991-11-11")!))
    }

    @Test("a figure that is not a decimal (also one with a comma) or a day that is not DD/MM/YYYY rejects the answer")
    func garbageRate() throws {
        let garbage = try ProviderFixture.edited(file, replacing: "\"dato\":\"17.3485\"", with: "\"dato\":\"17.34x5\"")
        #expect(error(garbage) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-02")!, text: "17.34x5"))
        let comma = try ProviderFixture.edited(file, replacing: "\"dato\":\"17.3485\"", with: "\"dato\":\"17,3485\"")
        #expect(error(comma) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-02")!, text: "17,3485"))
        let iso = try ProviderFixture.edited(file, replacing: "\"fecha\":\"02/03/2026\"", with: "\"fecha\":\"2026-03-02\"")
        #expect(error(iso) == .invalidDay("2026-03-02"))
        let number = try ProviderFixture.edited(file, replacing: "\"dato\":\"17.3485\"", with: "\"dato\":17.3485")
        #expect(error(number)?.isLayout(of: "BANXICO") == true)
    }

    @Test("a series twice is a duplicate currency; an unknown series is a layout error")
    func duplicateAndUnknownSeries() throws {
        let twice = try ProviderFixture.edited(file, replacing: "\"idSerie\":\"SF60632\"", with: "\"idSerie\":\"SF46410\"")
        #expect(error(twice) == .duplicateCurrency(.euro, day: Day("2026-03-02")!))
        let unknown = try ProviderFixture.edited(file, replacing: "\"idSerie\":\"SF60632\"", with: "\"idSerie\":\"SF60653\"")
        #expect(error(unknown)?.isLayout(of: "BANXICO") == true)
    }

    @Test("a truncated body, an HTML error page, the SIE's error answer and an empty body are rejected")
    func brokenBodies() throws {
        #expect(error(try ProviderFixture.truncated(file))?.isLayout(of: "BANXICO") == true)
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BANXICO") == true)
        #expect(error(Array(#"{"error":{"mensaje":"Token inválido","detalle":"El token no es válido"}}"#.utf8))?.isLayout(of: "BANXICO") == true)
        #expect(error([]) == .empty)
        #expect(error(Array(#"{"bmx":{"series":[]}}"#.utf8)) == .empty)
    }

    @Test("one request for all five series with the token in Bmx-Token: datos/oportuno for latest, the two days for a range")
    func requests() {
        let root = "https://www.banxico.org.mx/SieAPIRest/service/v1/series/SF43718,SF46410,SF46407,SF46406,SF60632/datos/"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: root + "oportuno", headers: ["Bmx-Token": "TOKEN", "Accept": "application/json"])])
        #expect(provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-15")!)).map(\.url) == [root + "2026-03-01/2026-03-15"])
        #expect(provider.needsAPIKey)
    }
}
