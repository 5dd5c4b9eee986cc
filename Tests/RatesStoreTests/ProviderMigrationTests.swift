import Foundation
import GRDB
import RatesCore
@testable import RatesStore
import Testing

@Suite("Migration to many providers")
struct ProviderMigrationTests {
    @Test("a database from before providers keeps its rates: they become the ECB's quotes, the merged values and the epoch stay, nothing is logged")
    func ratesBecomeTheECBsQuotes() throws {
        let database = try DatabaseQueue()
        try SQLiteRatesDatabase.migrator.migrate(database, upTo: "v2-change-by-key")
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO fetchRun (startedAt, finishedAt, source, file, outcome) VALUES (0, 0, 'upstream', 'eurofxref-daily.xml', 'updated');
                INSERT INTO change (seq, day, currency, value, fetchRunId) VALUES
                    (1, '2026-10-29', 'USD', '1.1650', 1), (2, '2026-10-29', 'JPY', '176.00', 1), (3, '2026-10-30', 'USD', '1.1172', 1);
                INSERT INTO rate (day, currency, value, seq) VALUES
                    ('2026-10-29', 'USD', '1.1650', 1), ('2026-10-29', 'JPY', '176.00', 2), ('2026-10-30', 'USD', '1.1172', 3);
                """)
        }
        let epoch = try database.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'epoch'") }

        let store = try RatesStore(database)   // applies v3-providers
        #expect(store.epoch == epoch)
        #expect(try store.version() == 3, "the migration logs no change")
        let stored = try store.snapshot()
        #expect(stored.days.map(\.day.description) == ["2026-10-29", "2026-10-30"])
        #expect(stored.days.first?.texts == [CurrencyCode("USD")!: "1.1650", CurrencyCode("JPY")!: "176.00"], "digits kept, trailing zeros too")
        let quotes = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT provider, day, currency, value, unit, direction FROM quote ORDER BY day, currency")
                .map { "\($0[0] as String) \($0[1] as String) \($0[2] as String) \($0[3] as String) \($0[4] as Int) \($0[5] as String)" }
        }
        #expect(quotes == [
            "ECB 2026-10-29 JPY 176.00 1 units-per-pivot", "ECB 2026-10-29 USD 1.1650 1 units-per-pivot",
            "ECB 2026-10-30 USD 1.1172 1 units-per-pivot",
        ])
        let providers = try database.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT provider FROM rate") }
        #expect(providers == ["ECB"])
        #expect(try store.latestPublication(of: "ECB")?.day == Day("2026-10-30"))
    }
}
