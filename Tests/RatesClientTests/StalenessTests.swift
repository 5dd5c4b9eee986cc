import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDB
import Hummingbird
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesTestSupport
import Testing
@testable import RatesClient

/// Whether the cached rates are behind: by the server's own verdict at the last sync, or by the
/// publication calendar and this device's clock.
@Suite("Rates behind the calendar")
struct StalenessTests {
    // MARK: - The wire

    @Test("a sync page carries the server's expected latest date and stale verdict; a page without them decodes as 'not said'")
    func decoding() throws {
        let body = Data("""
            {"epoch":"e1","cursor":"c1","more":false,"reset":false,"base":"EUR","latestDate":"2026-10-30",\
            "expectedLatestDate":"2026-11-20","stale":true,"nextUpdateAfter":"2026-11-23T15:00:00Z",\
            "upserts":{"2026-10-30":{"USD":"1.1172"}},"deletes":{}}
            """.utf8)
        let page = try SyncPage(json: body)
        #expect(page.latestDate == day("2026-10-30"))
        #expect(page.expectedLatestDate == day("2026-11-20"))
        #expect(page.stale == true)
        #expect(try SyncPage(json: pageJSON(cursor: "c1", expected: "2026-11-02", stale: false)).stale == false)

        let older = try SyncPage(json: pageJSON(cursor: "c1"))
        #expect(older.expectedLatestDate == nil && older.stale == nil)

        #expect(throws: RatesClientError.invalidResponse("sync page: expectedLatestDate '2026-11-31' is not a day")) {
            try SyncPage(json: pageJSON(cursor: "c1", expected: "2026-11-31"))
        }
        let wrongType = Data(#"{"epoch":"e1","cursor":"c1","more":false,"reset":false,"base":"EUR","stale":"yes"}"#.utf8)
        #expect(throws: RatesClientError.invalidResponse("sync page: wrong type at 'stale'")) { try SyncPage(json: wrongType) }
    }

    // MARK: - The server's verdict

    @Test("the server's stale verdict makes the rates behind even when the calendar says they are current, and a 304 keeps it")
    func serverVerdict() async throws {
        let temporary = TemporaryCache()
        let clock = TestClock("2026-11-02T18:00:00Z")
        let server = ScriptedServer()
        // The server holds Monday's publication but has not confirmed it with its source.
        server.thenJSON(
            pageJSON(cursor: "c1", latest: "2026-11-02", expected: "2026-11-02", stale: true, upserts: ["2026-11-02": ["USD": "1.1200"]]),
            etag: "\"e1-1\"")
        let client = try temporary.client(server: server, clock: clock)
        try await client.sync()
        let behind = try client.status()
        #expect(behind.isBehind)
        #expect(behind.serverReportedStale == true)
        #expect(behind.latestDate == day("2026-11-02") && behind.expectedLatestDate == day("2026-11-02"))
        #expect(!behind.isStale, "syncing again cannot help before the server catches up")

        server.then(status: 304, headers: ["ETag": "\"e1-1\""])
        #expect(try await client.sync().outcome == .upToDate)
        #expect(try client.status().serverReportedStale == true, "a 304 says the last page, verdict included, still stands")

        clock.set("2026-11-03T18:00:00Z")
        server.thenJSON(
            pageJSON(
                cursor: "c2", latest: "2026-11-03", expected: "2026-11-03", stale: false, next: "2026-11-04T15:00:00Z",
                upserts: ["2026-11-03": ["USD": "1.1300"]]),
            etag: "\"e1-2\"")
        try await client.sync()
        let current = try client.status()
        #expect(!current.isBehind && !current.isStale)
        #expect(current.serverReportedStale == false)
    }

    @Test("the server's expected latest date counts when this device's clock is behind the server's")
    func serverExpectationAhead() async throws {
        let temporary = TemporaryCache()
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", latest: "2026-11-02", expected: "2026-11-04", stale: true, upserts: ["2026-11-02": ["USD": "1.1200"]]))
        let client = try temporary.client(server: server, clock: TestClock("2026-11-02T18:00:00Z"))
        try await client.sync()
        let status = try client.status()
        #expect(status.expectedLatestDate == day("2026-11-04"))
        #expect(status.isBehind)
    }

    // MARK: - The calendar

    @Test("from a server that does not say, the rates are behind once the calendar has a newer publication out")
    func calendar() async throws {
        let temporary = TemporaryCache()
        let clock = TestClock("2026-11-02T18:00:00Z")
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", latest: "2026-11-02", upserts: ["2026-11-02": ["USD": "1.1200"]]))
        let client = try temporary.client(server: server, clock: clock)
        try await client.sync()
        let current = try client.status()
        #expect(current.serverReportedStale == nil)
        #expect(!current.isBehind && !current.isStale)
        #expect(current.expectedLatestDate == day("2026-11-02"))

        clock.set("2026-11-03T14:59:00Z")   // Tuesday's publication is due at 16:00 in Frankfurt, 15:00 UTC
        #expect(try !client.status().isBehind)

        clock.set("2026-11-03T15:00:00Z")
        let due = try client.status()
        #expect(due.isBehind && due.isStale)
        #expect(due.expectedLatestDate == day("2026-11-03"))

        clock.set("2026-11-08T12:00:00Z")   // a Sunday: Friday's publication is the newest due
        #expect(try client.status().expectedLatestDate == day("2026-11-06"))
    }

    // MARK: - The cache file

    @Test("a cache file written before the staleness columns opens with its data, its cursor and no verdict")
    func cacheFromBeforeTheVerdict() throws {
        let temporary = TemporaryCache()
        try FileManager.default.createDirectory(at: temporary.folder, withIntermediateDirectories: true)
        do {
            let old = try DatabaseQueue(path: temporary.url.path)
            try RatesCache.migrator.migrate(old, upTo: "v1")
            try old.write { db in
                try db.execute(sql: "INSERT INTO rate (day, currency, value) VALUES ('2026-11-02', 'USD', '1.1200')")
                try db.execute(
                    sql: "UPDATE syncState SET cursor = 'c1', epoch = 'e1', latestDate = '2026-11-02', nextUpdateAfter = ?, lastSuccessfulSync = ?",
                    arguments: [SyncPage.instant("2026-11-03T15:00:00Z"), SyncPage.instant("2026-11-02T17:00:00Z")])
            }
        }
        let client = try temporary.client(clock: TestClock("2026-11-02T18:00:00Z"))
        let state = try client.cache.state()
        #expect(state.cursor == "c1" && state.expectedLatestDate == nil && state.serverStale == nil)
        let status = try client.status()
        #expect(status.latestDate == day("2026-11-02") && status.epoch == "e1")
        #expect(status.serverReportedStale == nil && !status.isBehind && !status.isStale)
    }

    // MARK: - Against the real server

    static let firstDay = Day("2026-10-01")!
    static let dayBefore = Day("2026-10-29")!
    static let lastDay = Day("2026-10-30")!

    @Test("against the real server: rates a publication behind the calendar are behind until the sync that brings it")
    func behindByCalendarEndToEnd() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.dayBefore, firstDay: Self.firstDay)
        let cache = TemporaryCache()
        try await withRealServer(fedBy: upstream, now: TestServer.afterLastPublication) { url, server in
            let client = try Self.client(of: url, cache: cache, clock: TestClock("2026-10-30T18:00:00Z"))
            try await client.sync()
            let behind = try client.status()
            #expect(behind.latestDate == Self.dayBefore)
            #expect(behind.expectedLatestDate == Self.lastDay)
            #expect(behind.isBehind)
            #expect(!behind.isStale, "by the server's clock its next publication is Monday's: syncing again cannot help")
            #expect(behind.serverReportedStale != false, "the server is behind too (servers that say nothing give nil)")

            upstream.publish(through: Self.lastDay)
            try await server.refresh()
            try await client.sync()
            let current = try client.status()
            #expect(current.latestDate == Self.lastDay)
            #expect(!current.isBehind && !current.isStale)
            #expect(current.serverReportedStale != true)
        }
    }

    @Test("against the real server: a server three weeks behind its calendar says so, and the client and `rates status` report it")
    func serverStaleVerdictReachesClient() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay, firstDay: Self.firstDay)
        let cache = TemporaryCache()
        let threeWeeksOn = SyncPage.instant("2026-11-20T18:00:00Z")!
        try await withRealServer(fedBy: upstream, now: threeWeeksOn) { url, _ in
            // By its own clock the client finds the rates current: only the server's verdict can say otherwise.
            let client = try Self.client(of: url, cache: cache, clock: TestClock("2026-10-30T18:00:00Z"))
            try await client.sync()
            let status = try client.status()
            #expect(status.latestDate == Self.lastDay)
            #expect(status.serverReportedStale == true)
            #expect(status.expectedLatestDate == Day("2026-11-20")!)
            #expect(status.isBehind)

            let sync = try await RatesCommandRun.run(["sync", "--server", url, "--cache", cache.url.path])
            #expect(sync.status == 0, "\(sync.standardError)")
            let command = try await RatesCommandRun.run(["status", "--server", url, "--cache", cache.url.path])
            #expect(command.outputLines.contains { $0.hasPrefix("state:       behind: the server reported its data stale at the last sync") },
                    "\(command.standardOutput)")
        }
    }

    // MARK: - Helpers

    /// A client of the server at `url` on `cache`, on `clock` (a new URLSession, so no connection outlives a server).
    static func client(of url: String, cache: TemporaryCache, clock: TestClock) throws -> RatesClient {
        let configuration = RatesClient.Configuration(
            server: URL(string: url)!, cacheURL: cache.url, session: URLSession(configuration: .ephemeral),
            retry: RetryPolicy(maxAttempts: 1))
        return try RatesClient(configuration: configuration, transport: .urlSession(configuration.session), now: clock.now)
    }
}
