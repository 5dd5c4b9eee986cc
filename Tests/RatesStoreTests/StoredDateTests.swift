import Foundation
import GRDB
import RatesCore
@testable import RatesStore
import Testing

@Suite("A fetch record's dates are stored as GRDB stores dates, without its formatter")
struct StoredDateTests {
    /// Instants from 1970 to 2100 (before 1970 too, and each at some millisecond), 20,000 of them.
    var instants: [Date] {
        var generator = SystemRandomNumberGenerator()
        return (0..<20_000).map { _ in Date(timeIntervalSince1970: Double.random(in: -86_400 * 400...4_102_444_800, using: &generator)) }
            + [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0005), Date(timeIntervalSince1970: 1_795_982_399.9999)]
    }

    @Test("Written as GRDB's formatter writes them, and read back as GRDB reads them")
    func sameTextAsGRDB() throws {
        for instant in instants {
            let grdb = try #require(String.fromDatabaseValue(instant.databaseValue))
            // An instant a hair below a millisecond (…13.7709996) may come out a millisecond apart: ICU rounds it up.
            let written = try #require(Date(storedText: instant.storedText))
            #expect(abs(written.timeIntervalSince1970 - Date.fromDatabaseValue(grdb.databaseValue)!.timeIntervalSince1970) <= 0.001_01, "\(grdb)")
            let read = try #require(Date(storedText: grdb))
            #expect(abs(read.timeIntervalSince1970 - Date.fromDatabaseValue(grdb.databaseValue)!.timeIntervalSince1970) < 0.000_001)
            // At a whole millisecond, the text is GRDB's exactly.
            let whole = Date(timeIntervalSince1970: (instant.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
            #expect(whole.storedText == String.fromDatabaseValue(whole.databaseValue), "\(grdb)")
        }
    }

    @Test("A fetch record written and read keeps its instants to the millisecond, and reads any date GRDB reads")
    func roundTrip() throws {
        let queue = try DatabaseQueue()
        try SQLiteRatesDatabase.migrator.migrate(queue)
        let started = Date(timeIntervalSince1970: 1_795_981_376.123_4)
        try queue.write { db in
            var run = FetchRun(startedAt: started, finishedAt: started + 1.5, source: .import, provider: "ECB", file: "x", outcome: .updated)
            try run.insert(db)
        }
        let stored = try queue.read { db in try Row.fetchOne(db, sql: "SELECT startedAt, finishedAt FROM fetchRun")! }
        #expect(stored["startedAt"] as String == "2026-11-29 19:42:56.123" && stored["finishedAt"] as String == "2026-11-29 19:42:57.623")
        for (text, expected) in [
            ("2026-11-29 19:42:56.123", 1_795_981_376.123), ("2026-11-29 19:42:56", 1_795_981_376), ("2026-11-29T19:42:56Z", 1_795_981_376),
            ("2026-11-29", 1_795_910_400),
        ] {
            try queue.write { db in try db.execute(sql: "UPDATE fetchRun SET startedAt = ?", arguments: [text]) }
            let run = try queue.read { db in try FetchRun.fetchOne(db)! }
            #expect(abs(run.startedAt.timeIntervalSince1970 - expected) < 0.000_001, "\(text)")
        }
        for text in ["2026-11-29 24:00:00", "2026-02-30 10:00:00", "2026-11-29 1:00:00.000", "2026-11-29 10:00:00.12"] {
            #expect(Date(storedText: text) == nil, "\(text)")
        }
    }
}
