import Foundation
import GRDB
import RatesCore

extension SQLiteRatesDatabase {
    func changeLog(after sequence: Int64) throws -> [ChangeLogEntry] {
        try database.read { db in
            try Self.entries(db, sql: "SELECT seq, day, currency, value, provider, providerDay FROM change WHERE seq > ? ORDER BY seq", arguments: [sequence])
        }
    }

    func changes(after sequence: Int64, through version: Int64, from: Day?, limit: Int) throws -> ChangePage {
        try database.read { db in
            let entries = try Self.entries(
                db,
                sql: """
                    SELECT seq, day, currency, value, provider, providerDay FROM change
                    WHERE seq > ? AND seq <= ? AND day >= ? ORDER BY seq LIMIT ?
                    """,
                arguments: [sequence, version, from?.description ?? "", limit + 1])
            return ChangePage(entries, limit: limit, through: version)
        }
    }

    /// Change-log rows (`seq, day, currency, value, provider, providerDay`) as entries.
    private static func entries(_ db: Database, sql: String, arguments: StatementArguments) throws -> [ChangeLogEntry] {
        try Array(Row.fetchCursor(db, sql: sql, arguments: arguments).compactMap { row in
            ChangeLogEntry(sequence: row[0], day: row[1], currency: row[2], value: row[3], provider: row[4], providerDay: row[5])
        })
    }

    func state(asOf version: Int64, from lower: String, limit: Int) throws -> StatePage {
        try database.read { db in
            // Nearly always nothing was logged after `version`, and the rate table is that state itself.
            let pinned = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM change WHERE seq > ?)", arguments: [version]) ?? false
            let source =
                pinned
                ? """
                WITH later (day, currency) AS (SELECT DISTINCT day, currency FROM change WHERE seq > :version AND day >= :lower),
                asOf (day, currency, value, provider, providerDay) AS (
                    SELECT day, currency, value, provider, providerDay FROM rate WHERE day >= :lower AND seq <= :version
                    UNION ALL
                    SELECT c.day, c.currency, c.value, c.provider, c.providerDay FROM later l JOIN change c
                        ON c.seq = (SELECT MAX(p.seq) FROM change p WHERE p.day = l.day AND p.currency = l.currency AND p.seq <= :version)
                    WHERE c.value IS NOT NULL)
                SELECT day, currency, value, provider, providerDay FROM asOf
                """
                : "SELECT day, currency, value, provider, providerDay FROM rate"
            let arguments: StatementArguments = ["version": version, "lower": lower]
            // The day holding the limit-th value: the page runs through the end of that day.
            let lastDay = try String.fetchOne(
                db, sql: "\(source) WHERE day >= :lower ORDER BY day LIMIT 1 OFFSET :offset",
                arguments: arguments + ["offset": max(limit - 1, 0)])
            let rows = try Row.fetchCursor(
                db, sql: "\(source) WHERE day >= :lower AND day <= :last ORDER BY day", arguments: arguments + ["last": lastDay ?? "9999-12-31"])
            var days: [DailyRates] = []
            while let row = try rows.next() {
                StatePage.append(day: row[0], currency: row[1], value: row[2], provider: row[3], providerDay: row[4], to: &days)
            }
            let more = try lastDay.map { last in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (\(source) WHERE day > :last)", arguments: arguments + ["last": last]) ?? false
            } ?? false
            return StatePage(days: days, more: more)
        }
    }

    func retentionFloor() throws -> Int64 {
        try database.read { db in try Int64.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'retentionFloor'") ?? 0 }
    }

    @discardableResult
    func prune(before day: Day, now: Date) throws -> FetchRun {
        try database.write { db in
            var run = FetchRun(startedAt: now, source: .maintenance, provider: ProviderKey.ecb, file: "prune --before \(day)", outcome: .unchanged)
            try run.insert(db)
            try db.execute(
                sql: "INSERT INTO change (day, currency, value, fetchRunId) SELECT day, currency, NULL, ? FROM rate WHERE day < ? ORDER BY day, currency",
                arguments: [run.id, day.description])
            try db.execute(sql: "DELETE FROM rate WHERE day < ?", arguments: [day.description])
            run.rowsChanged = db.changesCount
            try db.execute(sql: "DELETE FROM dayTable WHERE day < ?", arguments: [day.description])
            if run.rowsChanged > 0 {
                run.outcome = .updated
                try run.update(db)
            }
            return run
        }
    }
}
