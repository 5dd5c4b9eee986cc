import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RatesCore
import RatesTestSupport
import Synchronization
import Testing
@testable import RatesClient

@Suite("Keeping the cache fresh")
struct AutoRefreshTests {
    let temporary = TemporaryCache()

    /// Collects `run`'s results.
    final class Results: Sendable {
        let reports = Mutex<[SyncReport]>([])
        let failures = Mutex<[String]>([])
        var count: Int { reports.withLock { $0.count } }

        func record(_ result: Result<SyncReport, any Error>) {
            switch result {
            case .success(let report): reports.withLock { $0.append(report) }
            case .failure(let error): failures.withLock { $0.append(String(describing: error)) }
            }
        }

        /// Waits until `count` syncs succeeded; none may fail here, so a failed one ends the wait at once.
        func wait(for count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
            await waitUntil { self.count >= count || !failures.withLock(\.isEmpty) }
            #expect(failures.withLock { $0 } == [], sourceLocation: sourceLocation)
        }
    }

    @Test("syncs on launch and on each publication event, and stops when cancelled")
    func launchAndEvents() async throws {
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-10-30": ["USD": "1.1172"]]), etag: "\"e1-1\"")
        server.thenJSON(pageJSON(cursor: "c2", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-2\"")
        let client = try temporary.client(server: server)
        let results = Results()
        let refresher = client.startAutoRefresh { result in results.record(result) }
        await results.wait(for: 1)
        #expect(try client.latest()?.date == day("2026-10-30"))

        await server.waitForEventConnections(1)
        server.send(.opened)
        server.send(.retry(.seconds(10)))
        server.send(.event(ServerSentEvent(type: "message", data: "not for us")))
        server.send(.event(ServerSentEvent(type: "publication", data: #"{"epoch":"e1","cursor":"c2","latestDate":"2026-11-02"}"#)))
        await results.wait(for: 2)
        #expect(results.reports.withLock { $0.map(\.outcome) } == [.updated, .updated])
        #expect(server.requests.last?.query("cursor") == "c1")
        #expect(try client.latest()?.date == day("2026-11-02"))

        refresher.cancel()
        await refresher.task.value   // run() returns once cancelled
        #expect(server.remaining == 0)
    }

    @Test("with autoRefresh, observing runs the refresh loop until the last observation ends")
    func observationLease() async throws {
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-1\"")
        let client = try temporary.client(server: server, autoRefresh: true)
        let first = Collected(client.observe(symbols: [.usd]))
        let second = Collected(client.observe(base: .usd, symbols: [.euro]))
        #expect(client.refreshLeases.isRunning)
        let values = await first.wait(for: 2)   // nil, then the launch sync's table
        #expect(values.last??[.usd] == .published("1.1200"))
        #expect(server.requests.count == 1)

        first.cancel()
        await waitUntil { first.isFinished }
        #expect(first.isFinished)
        #expect(client.refreshLeases.isRunning, "one observation still runs")
        second.cancel()
        await waitUntil { !client.refreshLeases.isRunning }
        #expect(!client.refreshLeases.isRunning)
    }

    @Test("after a sync the loop sleeps until the next publication is due, capped")
    func refreshDelay() throws {
        let clock = TestClock("2026-11-03T14:00:00Z")
        let client = try temporary.client(clock: clock)
        try client.cache.apply(page(cursor: "c1", next: "2026-11-03T15:00:00Z", upserts: threeDays), sentCursor: false, window: nil, etag: nil, now: Date())
        var failures = 0
        let delay = client.refreshDelay(after: SyncReport(outcome: .updated), failures: &failures)
        #expect(delay == .seconds(3600))   // an hour away plus jitter, capped at maxRefreshInterval (1 h)
        clock.set("2026-11-03T14:59:00Z")
        let soon = client.refreshDelay(after: SyncReport(outcome: .upToDate), failures: &failures)
        #expect(soon >= .seconds(60) && soon <= .seconds(120))   // due in a minute, plus up to a minute of jitter
        clock.set("2026-11-03T16:00:00Z")
        #expect(client.refreshDelay(after: SyncReport(outcome: .upToDate), failures: &failures) == .seconds(60))   // overdue
    }

    @Test("offline, the loop backs off with jitter and never comes back before Retry-After")
    func offlineDelay() throws {
        let client = try temporary.client()
        var failures = 0
        var delays: [Duration] = []
        for _ in 0..<8 { delays.append(client.refreshDelay(after: SyncReport(outcome: .offline(.unreachable(detail: "down"))), failures: &failures)) }
        #expect(failures == 8)
        #expect(delays[0] >= .seconds(15) && delays[0] <= .seconds(30))
        #expect(delays[2] >= .seconds(60) && delays[2] <= .seconds(120))
        #expect(delays[7] >= .seconds(450) && delays[7] <= .seconds(900))
        let asked = client.refreshDelay(after: SyncReport(outcome: .offline(.serviceUnavailable(retryAfter: .seconds(3000)))), failures: &failures)
        #expect(asked == .seconds(3000))
        _ = client.refreshDelay(after: SyncReport(outcome: .upToDate), failures: &failures)
        #expect(failures == 0)
    }
}
