import Foundation
import PostgresNIO
import RatesCore

// MARK: - The change log and sync pages

extension PostgresRatesDatabase {
    func changeLog(after sequence: Int64) throws -> [ChangeLogEntry] {
        try session.withConnection { statements in
            try Self.entries(statements.rows("SELECT seq, day, currency, value, provider, provider_day FROM change WHERE seq > \(sequence) ORDER BY seq"))
        }
    }

    func changes(after sequence: Int64, through version: Int64, from: Day?, limit: Int) throws -> ChangePage {
        try session.withConnection { statements in
            let entries = try Self.entries(
                statements.rows(
                    """
                    SELECT seq, day, currency, value, provider, provider_day FROM change
                    WHERE seq > \(sequence) AND seq <= \(version) AND day >= \(from?.description ?? "") ORDER BY seq LIMIT \(Int64(limit + 1))
                    """))
            return ChangePage(entries, limit: limit, through: version)
        }
    }

    private static func entries(_ rows: [PostgresRow]) throws -> [ChangeLogEntry] {
        try rows.compactMap { row in
            let (sequence, day, currency, value, provider, providerDay) = try row.decode((Int64, String, String, String?, String?, String?).self)
            return ChangeLogEntry(sequence: sequence, day: day, currency: currency, value: value, provider: provider, providerDay: providerDay)
        }
    }

    func state(asOf version: Int64, from lower: String, limit: Int) throws -> StatePage {
        try session.transaction(readOnly: true) { statements in
            // Nearly always nothing was logged after `version`, and the rate table is that state itself.
            let pinned = try statements.value("SELECT EXISTS (SELECT 1 FROM change WHERE seq > \(version))", as: Bool.self) ?? false
            // $1: version, $2: the lowest day, $3: the last day or the offset.
            let source =
                pinned
                ? """
                WITH later (day, currency) AS (SELECT DISTINCT day, currency FROM change WHERE seq > $1 AND day >= $2),
                as_of (day, currency, value, provider, provider_day) AS (
                    SELECT day, currency, value, provider, provider_day FROM rate WHERE day >= $2 AND seq <= $1
                    UNION ALL
                    SELECT c.day, c.currency, c.value, c.provider, c.provider_day FROM later l JOIN change c
                        ON c.seq = (SELECT MAX(p.seq) FROM change p WHERE p.day = l.day AND p.currency = l.currency AND p.seq <= $1)
                    WHERE c.value IS NOT NULL)
                SELECT day, currency, value, provider, provider_day FROM as_of
                """
                : "SELECT day, currency, value, provider, provider_day FROM rate WHERE $1::bigint IS NOT NULL"
            func query(_ tail: String, _ third: some PostgresDynamicTypeEncodable) throws -> [PostgresRow] {
                var binds = PostgresBindings()
                binds.append(version)
                binds.append(lower)
                binds.append(third)
                return try statements.rows(PostgresQuery(unsafeSQL: "SELECT * FROM (\(source)) AS s WHERE day >= $2 \(tail)", binds: binds))
            }
            // The day holding the limit-th value: the page runs through the end of that day.
            let lastDay = try query("ORDER BY day LIMIT 1 OFFSET $3", Int64(max(limit - 1, 0))).first.map { try $0.decode(String.self) }
            var days: [DailyRates] = []
            for row in try query("AND day <= $3 ORDER BY day, currency", lastDay ?? "9999-12-31") {
                let (day, currency, value, provider, providerDay) = try row.decode((String, String, String, String?, String?).self)
                StatePage.append(day: day, currency: currency, value: value, provider: provider, providerDay: providerDay, to: &days)
            }
            let more = try lastDay.map { last in try !query("AND day > $3 LIMIT 1", last).isEmpty } ?? false
            return StatePage(days: days, more: more)
        }
    }

    func retentionFloor() throws -> Int64 {
        try session.withConnection { try $0.value("SELECT value::bigint FROM meta WHERE key = 'retentionFloor'", as: Int64.self) } ?? 0
    }

    func prune(before day: Day, now: Date) throws -> FetchRun {
        try writeTransaction { statements in
            var run = FetchRun(startedAt: now, source: .maintenance, provider: ProviderKey.ecb, file: "prune --before \(day)", outcome: .unchanged)
            try Self.insert(&run, statements)
            let before = try Self.lastSequence(statements)
            try statements.run(
                """
                INSERT INTO change (seq, day, currency, value, fetch_run_id)
                SELECT \(before) + row_number() OVER (ORDER BY day, currency), day, currency, NULL, \(run.id) FROM rate WHERE day < \(day.description)
                """)
            let removed = try statements.value(
                "WITH removed AS (DELETE FROM rate WHERE day < \(day.description) RETURNING 1) SELECT COUNT(*) FROM removed", as: Int64.self) ?? 0
            run.rowsChanged = Int(removed)
            try statements.run("DELETE FROM day_table WHERE day < \(day.description)")
            if removed > 0 {
                run.outcome = .updated
                try statements.run("UPDATE fetch_run SET outcome = \(run.outcome.rawValue), rows_changed = \(removed) WHERE id = \(run.id)")
                try Self.notifyChanges(statements)
            }
            return run
        }
    }
}
