import Foundation
import RatesCore
import Testing
@testable import RatesClient

@Suite("Cache freshness")
struct StatusTests {
    @Test("a cache never synced is stale, behind, and has no dates")
    func neverSynced() throws {
        let temporary = TemporaryCache()
        let status = try temporary.client().status()
        #expect(status.isStale && status.isBehind)
        #expect(status.serverReportedStale == nil)
        #expect(status.lastSuccessfulSync == nil && status.latestDate == nil && status.nextUpdateAfter == nil && status.epoch == nil)
    }

    @Test("after a sync the cache is fresh until the next publication is due")
    func freshUntilDue() async throws {
        let temporary = TemporaryCache()
        let clock = TestClock("2026-11-02T18:00:00Z")
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", next: "2026-11-03T15:00:00Z", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-1\"")
        let client = try temporary.client(server: server, clock: clock)
        try await client.sync()
        let fresh = try client.status()
        #expect(!fresh.isStale)
        #expect(fresh.lastSuccessfulSync == SyncPage.instant("2026-11-02T18:00:00Z"))
        #expect(fresh.latestDate == day("2026-11-02"))
        #expect(fresh.nextUpdateAfter == SyncPage.instant("2026-11-03T15:00:00Z"))
        #expect(fresh.epoch == "e1")
        #expect(try await client.refreshIfStale() == nil)
        #expect(server.requests.count == 1)

        clock.set("2026-11-03T15:00:00Z")
        #expect(try client.status().isStale)
        server.then(status: 304, headers: ["ETag": "\"e1-1\""])
        let report = try #require(try await client.refreshIfStale())
        #expect(report.outcome == .upToDate)
        #expect(try client.status().lastSuccessfulSync == SyncPage.instant("2026-11-03T15:00:00Z"))
    }

    @Test("an interrupted snapshot makes the cache stale")
    func interruptedSnapshot() throws {
        let temporary = TemporaryCache()
        let client = try temporary.client()
        try client.cache.apply(snapshot(threeDays), sentCursor: false, window: nil, etag: nil, now: Date())
        #expect(try !client.status().isStale)
        try client.cache.apply(page(cursor: "s1", more: true, reset: true, upserts: threeDays), sentCursor: true, window: nil, etag: nil, now: Date())
        #expect(try client.status().isStale)
        #expect(try client.status().snapshotInProgress)
    }

    @Test("changing the window makes the cache stale")
    func windowChange() throws {
        let temporary = TemporaryCache()
        let client = try temporary.client()
        try client.cache.apply(snapshot(threeDays), sentCursor: false, window: nil, etag: nil, now: Date())
        #expect(try !client.status().isStale)
        #expect(try temporary.client(window: day("2026-10-30")).status().isStale)
    }
}
