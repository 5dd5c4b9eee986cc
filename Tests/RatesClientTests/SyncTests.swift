import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RatesCore
import RatesTestSupport
import Synchronization
import Testing
@testable import RatesClient

@Suite("Syncing with the server")
struct SyncTests {
    let temporary = TemporaryCache()

    @Test("the first sync asks for the window without a cursor and pulls every page")
    func firstSync() async throws {
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "s1", more: true, upserts: ["2026-10-30": ["USD": "1.1172", "JPY": "175.68"]]), etag: "\"e1-7\"")
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-11-02": ["USD": "1.1200", "JPY": "176.00"]]), etag: "\"e1-7\"")
        let client = try temporary.client(server: server, window: day("2026-10-01"))
        let report = try await client.sync()
        #expect(report == SyncReport(outcome: .updated, pagesApplied: 2, upserted: 4, deleted: 0, reset: true, latestDate: day("2026-11-02")))
        let requests = server.requests
        #expect(requests.map { $0.url?.path } == ["/v1/sync", "/v1/sync"])
        #expect(requests[0].query("from") == "2026-10-01" && requests[0].query("cursor") == nil)
        #expect(requests[1].query("cursor") == "s1" && requests[1].query("from") == nil)
        #expect(requests.allSatisfy { $0.value(forHTTPHeaderField: "X-API-Key") == "secret" })
        #expect(try client.cache.state().etag == "\"e1-7\"")
        #expect(try client.status().window == day("2026-10-01"))
    }

    @Test("an up-to-date client sends its cursor and ETag, and a 304 only records the sync time")
    func notModified() async throws {
        let clock = TestClock("2026-11-02T18:00:00Z")
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-1\"")
        server.then(status: 304, headers: ["ETag": "\"e1-1\""])
        let client = try temporary.client(server: server, clock: clock)
        try await client.sync()
        clock.set("2026-11-02T19:00:00Z")
        let report = try await client.sync()
        #expect(report == SyncReport(outcome: .upToDate, latestDate: day("2026-11-02")))
        #expect(server.requests[1].query("cursor") == "c1")
        #expect(server.requests[1].value(forHTTPHeaderField: "If-None-Match") == "\"e1-1\"")
        #expect(try client.status().lastSuccessfulSync == SyncPage.instant("2026-11-02T19:00:00Z"))
        #expect(try client.cache.state().cursor == "c1")
    }

    @Test("a delta applies upserts and tombstones")
    func delta() async throws {
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-10-30": ["USD": "1.1172", "XYZ": "3.1"]]), etag: "\"e1-1\"")
        server.thenJSON(pageJSON(cursor: "c2", upserts: ["2026-11-02": ["USD": "1.1200"]], deletes: ["2026-10-30": ["XYZ"]]), etag: "\"e1-2\"")
        let client = try temporary.client(server: server)
        try await client.sync()
        let report = try await client.sync()
        #expect(report == SyncReport(outcome: .updated, pagesApplied: 1, upserted: 1, deleted: 1, reset: false, latestDate: day("2026-11-02")))
        #expect(try client.rates(on: day("2026-10-30"))?.rates == [.usd: .published("1.1172")])
    }

    @Test("a server that cannot be reached is reported offline after the retries, and the cache still answers")
    func offline() async throws {
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-1\"")
        for _ in 0..<3 { server.thenUnreachable() }
        let client = try temporary.client(server: server)
        try await client.sync()
        let report = try await client.sync()
        #expect(report.outcome == .offline(.unreachable(detail: "could not connect to rates.test")))
        #expect(report.latestDate == day("2026-11-02"))
        #expect(server.remaining == 0)
        #expect(try client.convert(2, from: .euro, to: .usd).result == Decimal(string: "2.24")!)
    }

    @Test("a 5xx is retried, and the sync completes when the server recovers")
    func retriesThenSucceeds() async throws {
        let server = ScriptedServer()
        server.then(status: 500)
        server.then(status: 502)
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-1\"")
        let client = try temporary.client(server: server)
        #expect(try await client.sync().outcome == .updated)
        #expect(server.requests.count == 3)
    }

    @Test("a 503 with a Retry-After longer than the backoff cap ends the attempts at once")
    func retryAfterTooLong() async throws {
        let server = ScriptedServer()
        server.then(status: 503, headers: ["Retry-After": "30", "Content-Type": "application/problem+json"])
        let client = try temporary.client(server: server)
        let report = try await client.sync()
        #expect(report.outcome == .offline(.serviceUnavailable(retryAfter: .seconds(30))))
        #expect(server.requests.count == 1)
    }

    @Test("a 503 with a short Retry-After is waited out and retried")
    func retryAfterHonoured() async throws {
        let server = ScriptedServer()
        server.then(status: 503, headers: ["Retry-After": "0"])
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-1\"")
        let client = try temporary.client(server: server)
        #expect(try await client.sync().outcome == .updated)
    }

    @Test("a connection dropped mid-snapshot keeps the pages applied; the next sync resumes from the stored cursor")
    func droppedMidSnapshot() async throws {
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-10-01": ["USD": "1.0900"]]), etag: "\"e1-1\"")
        server.thenJSON(pageJSON(epoch: "e2", cursor: "s1", more: true, reset: true, upserts: ["2026-10-30": ["USD": "1.1172"]]))
        server.thenUnreachable()
        let client = try temporary.client(server: server, maxAttempts: 1)
        try await client.sync()
        let interrupted = try await client.sync()
        #expect(interrupted.pagesApplied == 1 && interrupted.reset)
        #expect(interrupted.outcome == .offline(.unreachable(detail: "could not connect to rates.test")))
        #expect(try client.latest()?.date == day("2026-10-01"))   // old data until the snapshot completes

        server.thenJSON(pageJSON(epoch: "e2", cursor: "c2", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e2-1\"")
        let resumed = try await client.sync()
        #expect(server.requests.last?.query("cursor") == "s1")
        #expect(resumed.outcome == .updated)
        #expect(try client.timeseries(from: day("2026-10-01"), through: day("2026-11-02")).keys.sorted() == [day("2026-10-30"), day("2026-11-02")])
    }

    @Test("a 400 for the cursor drops it and restarts as a fresh snapshot, once")
    func badCursorRestartsOnce() async throws {
        let problem = Data(#"{"type":"urn:rates-relay:problem:invalid-parameter","title":"Invalid parameter","status":400,"detail":"'cursor' is not a cursor this server issued; sync without one to start over.","parameter":"cursor"}"#.utf8)
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-10-01": ["USD": "1.0900"]]), etag: "\"e1-1\"")
        server.then(status: 400, headers: ["Content-Type": "application/problem+json"], body: problem)
        server.thenJSON(pageJSON(cursor: "c2", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-2\"")
        let client = try temporary.client(server: server)
        try await client.sync()
        let report = try await client.sync()
        #expect(report.reset && report.outcome == .updated)
        #expect(server.requests[2].query("cursor") == nil)
        #expect(try client.timeseries(from: day("2026-10-01"), through: day("2026-11-02")).keys.sorted() == [day("2026-11-02")])

        // Twice in a row is a bug to report, not a loop.
        server.then(status: 400, headers: ["Content-Type": "application/problem+json"], body: problem)
        server.then(status: 400, headers: ["Content-Type": "application/problem+json"], body: problem)
        await #expect(throws: RatesClientError.rejected(
            status: 400, detail: "'cursor' is not a cursor this server issued; sync without one to start over. (parameter 'cursor')")
        ) { try await client.sync() }
    }

    @Test("errors the app must fix are thrown: credentials, wrong server, unreadable answers")
    func thrownErrors() async throws {
        let server = ScriptedServer()
        server.then(status: 401)
        server.then(status: 404)
        server.then(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8))
        let client = try temporary.client(server: server)
        await #expect(throws: RatesClientError.unauthorized(status: 401)) { try await client.sync() }
        await #expect(throws: RatesClientError.notARatesServer(URL(string: "http://rates.test/")!)) { try await client.sync() }
        await #expect(throws: RatesClientError.invalidResponse("sync page: not JSON")) { try await client.sync() }
        #expect(try client.latest() == nil)
    }

    @Test("changing the window starts a new snapshot for it")
    func windowChange() async throws {
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-10-01": ["USD": "1.0900"], "2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-1\"")
        server.thenJSON(pageJSON(cursor: "c2", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-1\"")
        try await temporary.client(server: server).sync()
        let narrowed = try temporary.client(server: server, window: day("2026-11-01"))
        let report = try await narrowed.sync()
        #expect(report.reset)
        #expect(server.requests[1].query("cursor") == nil && server.requests[1].query("from") == "2026-11-01")
        #expect(server.requests[1].value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(try narrowed.status().firstDate == day("2026-11-02"))
    }

    @Test("concurrent syncs share one run")
    func concurrentSyncs() async throws {
        let server = ScriptedServer()
        // The answer waits until both callers are inside the sync, so the second one certainly arrives while the first runs.
        final class Gate: Sendable { let open = Mutex(false) }
        let answer = Gate()
        server.then { _ in
            let deadline = ContinuousClock.now + patience
            while !answer.open.withLock({ $0 }) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
            return HTTPExchange(status: 200, headers: ["ETag": "\"e1-1\""], body: pageJSON(cursor: "c1", upserts: ["2026-11-02": ["USD": "1.1200"]]))
        }
        let client = try temporary.client(server: server)
        async let first = client.sync()
        async let second = client.sync()
        try await waitUntil("both syncs are under way") { await client.engine.callers == 2 }
        answer.open.withLock { $0 = true }
        let reports = try await [first, second]
        #expect(reports[0] == reports[1])
        #expect(server.requests.count == 1)
    }

    @Test("endpoints keep the server's path prefix")
    func endpoints() {
        #expect(RatesClient.endpoint("v1/sync", on: URL(string: "https://example.com/rates/")!).absoluteString == "https://example.com/rates/v1/sync")
        #expect(RatesClient.endpoint("v1/events", on: URL(string: "http://127.0.0.1:8080")!).absoluteString == "http://127.0.0.1:8080/v1/events")
        let url = RatesClient.endpoint("v1/sync", on: URL(string: "http://h")!, query: [URLQueryItem(name: "cursor", value: "a-b_c")])
        #expect(url.absoluteString == "http://h/v1/sync?cursor=a-b_c")
    }
}
