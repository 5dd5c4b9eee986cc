import RatesCore
import RatesUpstream
import Testing

@Suite("BCRP adapter")
struct BCRPProviderTests {
    let provider = BCRPProvider(today: { Day("2026-09-08")! })
    let file = "bcrp-peru/bcrp_01_ing.html"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads 2026-09-01 to 2026-09-07: the exact midpoint of buying and selling, soles per dollar; n.d. is no publication")
    func days() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-09-01", "2026-09-02", "2026-09-03", "2026-09-04", "2026-09-07"])
        #expect(ProviderFixture.quote("USD", on: "2026-09-01", in: publications) == quote("USD", "3.364"))
        #expect(ProviderFixture.quote("USD", on: "2026-09-02", in: publications) == quote("USD", "3.3565"))
        #expect(ProviderFixture.quote("USD", on: "2026-09-07", in: publications) == quote("USD", "3.3615"))
    }

    @Test("asks for both series over the window at once; the newest publication as the last seven days")
    func requests() {
        let base = "https://estadisticas.bcrp.gob.pe/estadisticas/series/api/PD04639PD-PD04640PD/json/"
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: base + "2026-09-01/2026-09-08/ing")])
        #expect(provider.requests(for: .range(Day("1997-01-02")!, Day("2026-09-08")!)) == [ProviderRequest(url: base + "1997-01-02/2026-09-08/ing")])
    }

    @Test("rejects a value that is not a decimal, one side missing, a day twice, a bad day, other series")
    func alteredValues() throws {
        let day = Day("2026-09-01")!
        let value = try ProviderFixture.edited(file, replacing: #"["3.36","3.368"]"#, with: #"["3.36","3,368x"]"#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "3.36 / 3,368x"))
        let side = try ProviderFixture.edited(file, replacing: #"["3.36","3.368"]"#, with: #"["3.36","n.d."]"#)
        #expect(ProviderFixture.error { try parse(side) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "3.36 / n.d."))
        let twice = try ProviderFixture.edited(file, replacing: #""02.Set.26""#, with: #""01.Set.26""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateDay(day))
        let date = try ProviderFixture.edited(file, replacing: #""01.Set.26""#, with: #""31.Set.26""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("31.Set.26"))
        let series = try ProviderFixture.edited(file, replacing: "(S/ por US$) - Venta", with: "(S/ por Euro) - Venta")
        #expect(ProviderFixture.error { try parse(series) }?.isLayout(of: "BCRP") == true)
    }

    @Test("reads days back to the series' first, 1997-01-02; a day before it rejects the answer")
    func history() throws {
        // The recording's first period renamed to the series' first day, as an answer reaching back to 1997 names it.
        let first = try ProviderFixture.edited(file, replacing: #""01.Set.26""#, with: #""02.Jan.97""#)
        let publications = try parse(first)
        #expect(publications.first?.day == Day("1997-01-02"))
        #expect(ProviderFixture.quote("USD", on: "1997-01-02", in: publications) == quote("USD", "3.364"))
        #expect(provider.historyStart == Day("1997-01-02"))
        let before = try ProviderFixture.edited(file, replacing: #""01.Set.26""#, with: #""31.Dec.96""#)
        #expect(ProviderFixture.error { try parse(before) } == .dayOutOfRange(Day("1996-12-31")!))
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notTheAnswer() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 7) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as a file of the source's, read as the answer to one of its requests")
    func imports() throws {
        let counts = try [file]
            .map { try ProviderFile.read([ProviderFixture.bytes($0)], provider: BCRPProvider()).count }
        #expect(counts == [5])
    }
}
