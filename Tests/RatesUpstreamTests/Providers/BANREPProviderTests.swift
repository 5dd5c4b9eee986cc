import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BANREP adapter")
struct BANREPProviderTests {
    let provider = BANREPProvider(today: { Day("2026-03-30")! })
    let file = "banrep-colombia/00_026-03-16T00_00_00.000_27_20AND_20vigenciadesde_3C=_272026-03-24T00_00_00.000_27.json"

    func parse(_ body: [UInt8]? = nil) throws -> [ProviderPublication] {
        try provider.parse(try body ?? ProviderFixture.bytes(file), of: provider.requests(for: .latest)[0])
    }

    func error(_ body: [UInt8]) -> UpstreamDataError? { ProviderFixture.error(body, provider) }

    @Test("reads 17–21 Mar 2026: five TRMs, COP per 1 USD as written, Friday's dated Saturday")
    func readsTheWeek() throws {
        let publications = try parse()
        #expect(publications.map(\.day.description) == ["2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20", "2026-03-21"])
        #expect(publications.allSatisfy { $0.codes == ["USD"] })
        #expect(publications[0]["USD"] == quote("USD", "3691.9"))
        #expect(publications[1]["USD"] == quote("USD", "3689.97"))
        #expect(publications[4]["USD"] == quote("USD", "3704.87"))
    }

    @Test("one Socrata query for any range; latest is the seven days before tomorrow through tomorrow")
    func requests() {
        let root = "https://www.datos.gov.co/resource/32sa-8pi3.json?$limit=50000&$order=vigenciadesde%20ASC&$where="
        let range = provider.requests(for: .range(Day("2026-03-16")!, Day("2026-03-24")!))
        #expect(range == [ProviderRequest(url: root + "vigenciadesde%3E=%272026-03-16T00:00:00.000%27%20AND%20vigenciadesde%3C=%272026-03-24T00:00:00.000%27")])
        #expect(provider.requests(for: .latest).map(\.url) == [root + "vigenciadesde%3E=%272026-03-24T00:00:00.000%27%20AND%20vigenciadesde%3C=%272026-03-31T00:00:00.000%27"])
    }

    @Test("a TRM that is not a plain decimal, in another unit, twice, or on a bad day rejects the answer")
    func badRecords() throws {
        let day = Day("2026-03-17")!
        let comma = try ProviderFixture.edited(file, replacing: "\"valor\":\"3691.9\"", with: "\"valor\":\"3691,9\"")
        #expect(error(comma) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "3691,9"))
        let zero = try ProviderFixture.edited(file, replacing: "\"valor\":\"3691.9\"", with: "\"valor\":\"0\"")
        #expect(error(zero) == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "0"))
        let number = try ProviderFixture.edited(file, replacing: "\"valor\":\"3691.9\"", with: "\"valor\":3691.9")
        #expect(error(number)?.isLayout(of: "BANREP") == true)
        let unit = try ProviderFixture.edited(file, replacing: "\"unidad\":\"COP\"", with: "\"unidad\":\"USD\"")
        #expect(error(unit)?.isLayout(of: "BANREP") == true)
        let twice = try ProviderFixture.edited(file, replacing: "\"vigenciadesde\":\"2026-03-18T00:00:00.000\"", with: "\"vigenciadesde\":\"2026-03-17T00:00:00.000\"")
        #expect(error(twice) == .duplicateDay(day))
        let badDay = try ProviderFixture.edited(file, replacing: "\"vigenciadesde\":\"2026-03-17T00:00:00.000\"", with: "\"vigenciadesde\":\"2026-02-29T00:00:00.000\"")
        #expect(error(badDay) == .invalidDay("2026-02-29T00:00:00.000"))
        let backwards = try ProviderFixture.edited(file, replacing: "\"vigenciahasta\":\"2026-03-17T00:00:00.000\"", with: "\"vigenciahasta\":\"2026-03-16T00:00:00.000\"")
        #expect(error(backwards)?.isLayout(of: "BANREP") == true)
    }

    @Test("an empty array, no TRM starting in the range, is no publication")
    func noRecords() throws {
        // The recording with its records taken out: Socrata's answer for a query nothing matches.
        let bytes = try ProviderFixture.bytes(file)
        let empty = [bytes.first!, bytes[bytes.lastIndex(of: UInt8(ascii: "]"))!]]
        #expect(empty == Array("[]".utf8))
        #expect(try parse(empty).isEmpty)
    }

    @Test("a truncated body, an HTML error page, an empty body and an error object are rejected")
    func brokenBodies() throws {
        #expect(error(try ProviderFixture.truncated(file))?.isLayout(of: "BANREP") == true)
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 37) {
            #expect(error(cut) != nil, "a cut at \(cut.count) bytes parsed")
        }
        #expect(error(ProviderFixture.htmlErrorPage)?.isLayout(of: "BANREP") == true)
        #expect(error([]) == .empty)
        #expect(error(Array(#"{"error":true,"message":"query.soql.no-such-column"}"#.utf8))?.isLayout(of: "BANREP") == true)
    }
}
