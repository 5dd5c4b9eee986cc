import RatesCore
import RatesUpstream
import Testing

@Suite("MMA adapter")
struct MMAProviderTests {
    let provider = MMAProvider(today: { Day("2026-05-21")! })
    let file = "mma-maldives/00_JSON_referencerates.json_v=20260521.json"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the whole history: 3552 days from 2011-04-21, rufiyaa per US dollar, a repeated day read once")
    func history() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 3552)
        #expect(publications.first?.day == Day("2011-04-21"))
        #expect(publications.last?.day == Day("2026-05-21"))
        #expect(publications.allSatisfy { $0.codes == ["USD"] })
        #expect(ProviderFixture.quote("USD", on: "2026-05-21", in: publications) == quote("USD", "15.42"))
        // Trailing zero kept.
        #expect(ProviderFixture.quote("USD", on: "2011-04-24", in: publications) == quote("USD", "14.90"))
        #expect(ProviderFixture.quote("USD", on: "2021-02-08", in: publications) == quote("USD", "15.37"))
    }

    @Test("asks for the one file, today's date as its cache key, whatever the window")
    func requests() {
        let url = "https://www.mma.gov.mv/JSON/referencerates.json?v=20260521"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: url)])
        #expect(provider.requests(for: .range(Day("2026-05-01")!, Day("2026-05-10")!)) == [ProviderRequest(url: url)])
        #expect(MMAProvider(baseURL: "http://127.0.0.1:8080/mma", today: { Day("2026-05-21")! }).requests(for: .latest)[0].url
            == "http://127.0.0.1:8080/mma/JSON/referencerates.json?v=20260521")
    }

    @Test("rejects a value that is not a decimal, a day twice with two rates, a day that does not exist")
    func alteredValues() throws {
        let value = try ProviderFixture.edited(
            file, replacing: #"{"Date": "21 May 2026", "Rate": "15.42"}"#, with: #"{"Date": "21 May 2026", "Rate": "15.4x"}"#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-05-21")!, text: "15.4x"))
        let twice = try ProviderFixture.edited(
            file, replacing: #"{"Date": "20 May 2026", "Rate": "15.42"}"#, with: #"{"Date": "21 May 2026", "Rate": "15.43"}"#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateDay(Day("2026-05-21")!))
        let date = try ProviderFixture.edited(file, replacing: #""21 May 2026""#, with: #""31 April 2026""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("31 April 2026"))
        let month = try ProviderFixture.edited(file, replacing: #""21 May 2026""#, with: #""21 Mai 2026""#)
        #expect(ProviderFixture.error { try parse(month) } == .invalidDay("21 Mai 2026"))
        let missing = try ProviderFixture.edited(file, replacing: #", "Rate": "15.42"}"#, with: "}")
        #expect(ProviderFixture.error { try parse(missing) }?.isLayout(of: "MMA") == true)
    }

    @Test("rejects truncations, an HTML error page, an empty body and an empty list")
    func notTheFile() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 4999) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(ProviderFixture.error { try parse(Array("[]".utf8)) } == .empty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try ["mma-maldives/00_JSON_referencerates.json_v=20260521.json"]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: MMAProvider()).count }
        #expect(counts == [3552])
    }
}
