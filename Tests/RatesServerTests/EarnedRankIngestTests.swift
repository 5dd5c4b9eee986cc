import Foundation
import RatesCore
import RatesIngest
import RatesStore
import RatesTestSupport
import RatesUpstream
import Testing

/// The rank a source earns, as an ingest measures it: from the stored quotes of the days before the
/// ones it merges, in a database on disk.
@Suite("The rank a source earns, measured on ingest")
struct EarnedRankIngestTests {
    /// `provider`'s publication of `date`: each figure units per 1 EUR.
    func publication(_ date: String, _ figures: [String: String]) -> ProviderPublication {
        ProviderPublication(day: Day(date)!, quotes: figures.map { PublishedQuote(currency: CurrencyCode($0.key)!, value: $0.value, direction: .unitsPerPivot) })
    }

    func batch(_ provider: String, _ publications: [ProviderPublication]) -> QuoteBatch {
        QuoteBatch(provider: provider, publications: publications, run: FetchRun(startedAt: Date(), source: .import, provider: provider, file: "test", outcome: .updated))
    }

    @Test("a source whose figures sat 2% from three others' for days loses a currency to the next source on a day no consensus can judge; where it agreed it keeps it")
    func rankMeasuredFromStoredDays() async throws {
        try await TestServer.withEmptyDatabase { database in
            let store = try RatesStore(location: database)
            let ingestor = Ingestor(store: store, state: try ServerState(loadingFrom: store), logger: TestServer.logger)
            // AAA, BBB, CCC and DDD are keys the registry does not name: they rank by key, AAA first.
            let days = ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"]
            let figures = ["AAA": ("153.0", "3700"), "BBB": ("150.0", "3701"), "CCC": ("150.1", "3699"), "DDD": ("149.9", "3700")]
            try ingestor.ingest(
                figures.map { key, values in batch(key, days.map { publication($0, ["KES": values.0, "UGX": values.1]) }) }, notAfter: Day("2026-03-11")!)

            // Four days later only AAA and BBB publish (the others are too old to take part), in an ingest of its own, as a fetch would.
            try ingestor.ingest(
                [batch("AAA", [publication("2026-03-10", ["KES": "153.0", "UGX": "3700"])]), batch("BBB", [publication("2026-03-10", ["KES": "150.0", "UGX": "3701"])])],
                notAfter: Day("2026-03-11")!)
            let tuesday = try #require(ingestor.state.snapshot.publication(onOrBefore: Day("2026-03-10")!))
            #expect(tuesday.day == Day("2026-03-10")!)
            let kes = try #require(tuesday.index(of: CurrencyCode("KES")!))
            #expect(tuesday.source(at: kes).provider == "BBB", "AAA's KES sat 2% from the others on five days: it ranks below BBB")
            let ugx = try #require(tuesday.index(of: CurrencyCode("UGX")!))
            #expect(tuesday.source(at: ugx).provider == "AAA", "AAA's UGX agreed with the others: it keeps its place")

            let standing = try ProviderQuotes(store: store).standing(on: Day("2026-03-10")!)
            let measure = try #require(standing.measure(of: "AAA", for: CurrencyCode("KES")!, on: Day("2026-03-10")!))
            #expect(measure.samples == 5 && abs(measure.deviation - 3.0 / 150.0) < 1e-9, "153 against the others' median of 150, five days")
        }
    }
}
