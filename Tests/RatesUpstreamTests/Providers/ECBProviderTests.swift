import RatesCore
import RatesUpstream
import Testing

@Suite("ECB as a provider")
struct ECBProviderTests {
    @Test("latest reads the daily file; a range starting within 90 days of its end the 90-day file, a longer one the full history")
    func files() {
        let provider = ECBProvider(baseURL: "http://127.0.0.1:1/ecb")
        #expect(provider.requests(for: .latest).map(\.url) == ["http://127.0.0.1:1/ecb/eurofxref-daily.xml"])
        #expect(provider.requests(for: .range(Day("2026-08-26")!, Day("2026-11-23")!)).map(\.url) == ["http://127.0.0.1:1/ecb/eurofxref-hist-90d.xml"])
        #expect(provider.requests(for: .range(Day("2026-08-25")!, Day("2026-11-23")!)).map(\.url) == ["http://127.0.0.1:1/ecb/eurofxref-hist.xml"])
        #expect(provider.requests(for: .range(Day("2026-11-23")!, Day("2026-11-22")!)).isEmpty)
        #expect(ECBProvider().requests(for: .latest).map(\.url) == ["https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"])
    }

    @Test("a catch-up asks for a whole file: the history with nothing stored or after 90 days, the 90-day file within them")
    func catchUp() {
        let provider = ECBProvider()
        let today = Day("2026-11-23")!
        #expect(provider.catchUp(after: nil, backfillDays: 0, today: today) == .range(ProviderValidation.firstDay, today))
        #expect(provider.catchUp(after: Day("2026-08-25")!, backfillDays: 30, today: today) == .range(ProviderValidation.firstDay, today))
        #expect(provider.catchUp(after: Day("2026-11-18")!, backfillDays: 30, today: today) == .range(Day("2026-08-26")!, today))
        #expect(provider.file(for: provider.catchUp(after: Day("2026-11-18")!, backfillDays: 30, today: today)) == .ninetyDays)
    }

    @Test("reads the real 90-day file: 65 days of EUR quotes, units per 1 EUR as published")
    func ninetyDays() throws {
        let provider = ECBProvider()
        let publications = try provider.parse(ProviderFixture.bytes("eurofxref-hist-90d.xml"), of: provider.requests(for: .latest)[0])
        #expect(publications.count == 65)
        #expect(publications.first?.day == Day("2025-01-06"))
        let usd = try #require(publications.last?["USD"])
        #expect(usd.direction == .unitsPerPivot && usd.unit == 1)
        #expect(publications.last?.day == Day("2025-04-04"))
    }
}
