import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HummingbirdTesting
import RatesClient
import RatesCore
import RatesTestSupport
import Synchronization
import Testing

/// From a publication upstream to an app's table: the server's scheduler polls the source, announces
/// the publication on `/v1/events`, and an SDK client observing with `autoRefresh` syncs and yields
/// the new table. Nothing is asked for by hand.
@Suite("A publication reaches an observing SDK client's table", .serialized)
struct PublicationToTableTests {
    let cache = TemporaryCache()

    @Test("a publication appearing upstream reaches an auto-refreshed observed table through one 200 and the scheduler's 304 polls")
    func publicationReachesTheTable() async throws {
        let upstream = FakeUpstream(publishedThrough: Day("2026-10-29")!, firstDay: Day("2026-06-01")!)
        // The figures through 2026-10-29, then the scheduler alone, on 2026-10-30 at 18:00 UTC: that day's
        // publication is due and not out yet.
        try await TestServer.withScheduledServer(fedBy: upstream) { server in
            let app = try RatesClient(configuration: .init(
                server: URL(string: "http://127.0.0.1:\(server.port!)/")!, cacheURL: cache.url,
                session: URLSession(configuration: .ephemeral), autoRefresh: true))
            let dates = Mutex<[Day?]>([])
            let observing = Task {
                for try await table in app.observe(symbols: [CurrencyCode("USD")!]) { dates.withLock { $0.append(table?.date) } }
            }
            defer { observing.cancel() }
            try await waitUntil("the observed table holds 2026-10-29") { dates.withLock { $0.last == Day("2026-10-29") } }
            try await waitUntil("two polls answered 304") { upstream.notModifiedCount >= 2 }

            let requestsAtPublication = upstream.requests.count
            upstream.publish(through: Day("2026-10-30")!)
            let publishedAt = ContinuousClock.now
            try await waitUntil("the observed table holds 2026-10-30") { dates.withLock { $0.last == Day("2026-10-30") } }
            let elapsed = ContinuousClock.now - publishedAt

            // One poll interval, a fetch, an announcement and a sync, on a machine that may be busy: well under a minute.
            #expect(elapsed < waitLimit, "\(elapsed) from the publication to the table")
            let polls = upstream.requests.count - requestsAtPublication
            #expect((1...3).contains(polls), "\(polls) upstream requests between the publication and the table")
            print("publication to an observed SDK table: \(elapsed); 304s before it: \(upstream.notModifiedCount)")
        }
    }
}
