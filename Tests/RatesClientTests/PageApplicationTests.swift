import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDB
import RatesCore
import Testing
@testable import RatesClient

@Suite("Applying sync pages to the cache")
struct PageApplicationTests {
    let now = SyncPage.instant("2026-11-02T18:00:00Z")!

    @Test("a one-page snapshot fills an empty cache and stores its cursor")
    func firstSnapshot() throws {
        let temporary = TemporaryCache()
        let cache = try RatesCache(url: temporary.url)
        let applied = try cache.apply(snapshot(threeDays), sentCursor: false, window: nil, etag: "\"e1-3\"", now: now)
        #expect(applied == .init(upserted: 10, deleted: 0, startedSnapshot: true, completedSnapshot: true, dataChanged: true))
        #expect(try cache.latestPublication()?.day == day("2026-11-02"))
        #expect(try cache.dayRange() == day("2026-10-29")...day("2026-11-02"))
        let state = try cache.state()
        #expect(state.cursor == "c1")
        #expect(state.epoch == "e1")
        #expect(state.etag == "\"e1-3\"")
        #expect(state.snapshotInProgress == false)
        #expect(state.lastSuccessfulSync == now)
        #expect(state.nextUpdateAfter == SyncPage.instant("2026-11-03T15:00:00Z"))
    }

    @Test("a snapshot over several pages is atomic: the old data stays readable until the last page")
    func multiPageSnapshot() throws {
        let temporary = TemporaryCache()
        let cache = try RatesCache(url: temporary.url)
        try cache.apply(snapshot([day("2026-10-01"): rates(["USD": "1.0900", "XYZ": "2.5"])], cursor: "old"), sentCursor: false, window: nil, etag: nil, now: now)

        // The server's database was rebuilt: reset, then three pages.
        let first = page(epoch: "e2", cursor: "s1", more: true, reset: true, upserts: [day("2026-10-29"): threeDays[day("2026-10-29")]!])
        let applied = try cache.apply(first, sentCursor: true, window: nil, etag: "\"ignored\"", now: now)
        #expect(applied.startedSnapshot && !applied.completedSnapshot && !applied.dataChanged)
        #expect(try cache.latestPublication()?.day == day("2026-10-01"))
        #expect(try cache.state().snapshotInProgress)
        #expect(try cache.state().etag == nil)

        let second = page(epoch: "e2", cursor: "s2", more: true, upserts: [day("2026-10-30"): threeDays[day("2026-10-30")]!])
        #expect(try !cache.apply(second, sentCursor: true, window: nil, etag: nil, now: now).startedSnapshot)
        #expect(try cache.latestPublication()?.rates.published[CurrencyCode("XYZ")!] == "2.5")
        #expect(try cache.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM stagedRate") } == 7)

        let last = page(epoch: "e2", cursor: "c2", upserts: [day("2026-11-02"): threeDays[day("2026-11-02")]!])
        let done = try cache.apply(last, sentCursor: true, window: nil, etag: "\"e2-1\"", now: now)
        #expect(done.completedSnapshot && done.dataChanged)
        #expect(try cache.dayRange() == day("2026-10-29")...day("2026-11-02"))
        #expect(try cache.currencies() == [.usd, .jpy, .gbp, .bgn])   // XYZ and 2026-10-01 are gone
        #expect(try cache.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM stagedRate") } == 0)
        let state = try cache.state()
        #expect(state.cursor == "c2" && state.epoch == "e2" && state.etag == "\"e2-1\"" && !state.snapshotInProgress)
    }

    @Test("a completed snapshot leaves both tables as the migrations made them: same columns, key and checks, the staged one empty")
    func snapshotKeepsSchema() throws {
        let temporary = TemporaryCache()
        let cache = try RatesCache(url: temporary.url)
        func columns(_ table: String) throws -> [String] {
            try cache.read { db in
                try Row.fetchAll(db, sql: "PRAGMA table_xinfo(\(table))").map { "\($0["name"] as String) \($0["type"] as String) \($0["notnull"] as Int) \($0["pk"] as Int)" }
            }
        }
        let migrated = try columns("rate")
        #expect(try columns("stagedRate") == migrated)
        for round in 1...2 {
            try cache.apply(snapshot(threeDays, cursor: "c\(round)"), sentCursor: false, window: nil, etag: nil, now: now)
            #expect(try columns("rate") == migrated && columns("stagedRate") == migrated, "after snapshot \(round)")
            #expect(try cache.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM stagedRate") } == 0)
            #expect(try cache.currencies() == [.usd, .jpy, .gbp, .bgn])
            for table in ["rate", "stagedRate"] {
                for row in ["'2026-1-1', 'USD'", "'2026-11-02', 'US'"] {
                    #expect(throws: DatabaseError.self, "\(table) checks \(row)") {
                        try cache.pool.write { db in try db.execute(sql: "INSERT INTO \(table) (day, currency, value) VALUES (\(row), '1')") }
                    }
                }
            }
        }
    }

    @Test("a crash after page 1 of 2 leaves the old data and the cursor; the next run resumes with page 2")
    func crashAndResume() async throws {
        let temporary = TemporaryCache()
        do {
            let cache = try RatesCache(url: temporary.url)
            try cache.apply(snapshot([day("2026-10-01"): rates(["USD": "1.0900"])], cursor: "old"), sentCursor: false, window: nil, etag: nil, now: now)
            let first = page(epoch: "e2", cursor: "s1", more: true, reset: true, upserts: [day("2026-10-29"): threeDays[day("2026-10-29")]!])
            try cache.apply(first, sentCursor: true, window: nil, etag: nil, now: now)
            // The process dies here: the cache is closed without the second page.
        }
        let server = ScriptedServer()
        server.thenJSON(pageJSON(epoch: "e2", cursor: "c2", upserts: ["2026-10-30": ["USD": "1.1172"]]), etag: "\"e2-1\"")
        let client = try temporary.client(server: server)
        // Until the sync, the old data answers.
        #expect(try client.latest()?.date == day("2026-10-01"))
        #expect(try client.status().snapshotInProgress)
        #expect(try client.status().isStale)

        let report = try await client.sync()
        #expect(server.requests.first?.query("cursor") == "s1")
        #expect(server.requests.first?.value(forHTTPHeaderField: "If-None-Match") == nil)   // mid-snapshot: no 304 shortcut
        #expect(report.outcome == .updated)
        #expect(report.reset == false)   // the reset began in the earlier run
        #expect(try client.timeseries(from: day("2026-10-01"), through: day("2026-10-30"), symbols: [.usd]).keys.sorted()
            == [day("2026-10-29"), day("2026-10-30")])
    }

    @Test("a delta upserts and deletes in place, and keeps other days")
    func deltaWithDeletes() throws {
        let temporary = TemporaryCache()
        let cache = try RatesCache(url: temporary.url)
        try cache.apply(snapshot(threeDays), sentCursor: false, window: nil, etag: nil, now: now)
        let delta = page(
            cursor: "c2", upserts: [day("2026-11-02"): rates(["USD": "1.1210", "CHF": "0.9301"])],
            deletes: [day("2026-10-29"): [.bgn], day("2026-10-30"): [CurrencyCode("XYZ")!]])
        let applied = try cache.apply(delta, sentCursor: true, window: nil, etag: "\"e1-4\"", now: now)
        #expect(applied == .init(upserted: 2, deleted: 1, startedSnapshot: false, completedSnapshot: false, dataChanged: true))
        let latest = try #require(try cache.latestPublication())
        #expect(latest.rates.published == rates(["USD": "1.1210", "JPY": "176.00", "GBP": "0.87100", "CHF": "0.9301"]))
        #expect(try cache.publication(onOrBefore: day("2026-10-29"))?.rates.published[.bgn] == nil)
        #expect(try cache.publication(onOrBefore: day("2026-10-30"))?.rates.published.count == 3)
        #expect(try cache.state().cursor == "c2")
    }

    @Test("an empty delta changes nothing but the cursor")
    func emptyDelta() throws {
        let temporary = TemporaryCache()
        let cache = try RatesCache(url: temporary.url)
        try cache.apply(snapshot(threeDays), sentCursor: false, window: nil, etag: nil, now: now)
        let before = try cache.state().generation
        let applied = try cache.apply(page(cursor: "c9"), sentCursor: true, window: nil, etag: nil, now: now)
        #expect(!applied.dataChanged)
        #expect(try cache.state().generation == before)
        #expect(try cache.state().cursor == "c9")
    }

    @Test("rates are stored exactly as published, trailing zeros included")
    func exactText() throws {
        let temporary = TemporaryCache()
        let cache = try RatesCache(url: temporary.url)
        try cache.apply(snapshot([day("2026-10-30"): rates(["GBP": "0.83380", "JPY": "175.680"])]), sentCursor: false, window: nil, etag: nil, now: now)
        #expect(try cache.latestPublication()?.rates.published == rates(["GBP": "0.83380", "JPY": "175.680"]))
    }

    @Test("a page body is decoded with rates kept as text, and malformed pages are rejected")
    func decoding() throws {
        let page = try SyncPage(json: Data(#"""
            {"epoch":"a1b2c3d4e5f60718","cursor":"djEuYy4x","more":false,"reset":false,"base":"EUR",
             "latestDate":"2026-10-30","nextUpdateAfter":"2026-11-02T15:00:00Z",
             "upserts":{"2026-10-30":{"USD":"1.1172","JPY":"175.680"}},"deletes":{"2026-10-29":["XYZ"]}}
            """#.utf8))
        #expect(page.upserts == [day("2026-10-30"): rates(["USD": "1.1172", "JPY": "175.680"])])
        #expect(page.deletes == [day("2026-10-29"): [CurrencyCode("XYZ")!]])
        #expect(page.latestDate == day("2026-10-30"))
        #expect(page.nextUpdateAfter == Date(timeIntervalSince1970: 1_793_631_600))
        let empty = try SyncPage(json: Data(#"{"epoch":"a","cursor":"c","more":false,"reset":false,"base":"EUR","latestDate":null,"nextUpdateAfter":"2026-11-02T15:00:00Z","upserts":{},"deletes":{}}"#.utf8))
        #expect(empty.latestDate == nil && empty.upserts.isEmpty)

        for bad in [
            #"{"cursor":"c"}"#,
            #"<html>"#,
            #"{"epoch":"a","cursor":"c","more":false,"reset":false,"base":"EUR","upserts":{"2026-02-30":{"USD":"1"}}}"#,
            #"{"epoch":"a","cursor":"c","more":false,"reset":false,"base":"EUR","upserts":{"2026-10-30":{"usd":"1"}}}"#,
            #"{"epoch":"a","cursor":"c","more":false,"reset":false,"base":"EUR","upserts":{"2026-10-30":{"USD":"1e5"}}}"#,
            #"{"epoch":"a","cursor":"c","more":false,"reset":false,"base":"EUR","upserts":{"2026-10-30":{"USD":1.1}}}"#,
            #"{"epoch":"a","cursor":"c","more":false,"reset":false,"base":"EUR","nextUpdateAfter":"tomorrow"}"#,
        ] {
            #expect(throws: RatesClientError.self, "\(bad)") { try SyncPage(json: Data(bad.utf8)) }
        }
    }
}
