import Foundation
import Logging
import NIOCore
import PostgresNIO
import RatesCore

/// The PostgreSQL database of published rates, shared by several replicas.
///
/// The same tables as SQLite's (``SQLiteRatesDatabase``), in PostgreSQL's spelling (`fetch_run`,
/// `provider_day`, …), with the same rules: values are the published decimal text, every change
/// appends a `change` row with the next sequence number, and the epoch is created once with the
/// database. Because epoch and sequence live in the shared database, a cursor or `ETag` from one
/// replica is valid on every other.
///
/// Every write transaction first takes one transaction-scoped advisory lock (``writerLock``), so
/// writes from all replicas are serialized: sequence numbers are handed out in commit order, and a
/// reader that has seen sequence N never later finds a change below N committed after it read.
final class PostgresRatesDatabase: RatesDatabase {
    let session: PostgresSession
    let epoch: String

    /// The advisory lock every write transaction holds: one writer at a time across all replicas.
    static let writerLock: Int64 = 0x5241_5445_5357  // "RATESW"

    /// Connects to `location` and applies pending migrations (under the writer lock, so replicas
    /// starting together migrate once).
    init(_ location: PostgresLocation, logger: Logger) throws {
        session = try PostgresSession(location, logger: logger)
        try Self.migrate(session)
        epoch = try session.withConnection { try $0.value("SELECT value FROM meta WHERE key = 'epoch'", as: String.self) } ?? ""
    }

    /// PostgreSQL's caches are in its own processes.
    func releaseMemory() {}

    // MARK: - Schema

    /// The migrations, in order, by name; applied once each and never edited once shipped.
    static let migrations: [(name: String, sql: String)] = [
        (
            "v1",
            """
            CREATE TABLE meta (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            );
            INSERT INTO meta (key, value) VALUES ('epoch', substr(md5(random()::text || clock_timestamp()::text), 1, 16));

            CREATE TABLE fetch_run (
                id BIGSERIAL PRIMARY KEY,
                started_at TIMESTAMPTZ NOT NULL,
                finished_at TIMESTAMPTZ NOT NULL,
                source TEXT NOT NULL CHECK (source IN ('seed', 'import', 'upstream', 'maintenance')),
                provider TEXT NOT NULL DEFAULT 'ECB',
                file TEXT NOT NULL,
                http_status BIGINT,
                outcome TEXT NOT NULL CHECK (outcome IN ('updated', 'unchanged', 'notModified', 'failed', 'rejected')),
                detail TEXT,
                rows_changed BIGINT NOT NULL DEFAULT 0,
                etag TEXT,
                last_modified TEXT,
                latest_day TEXT
            );

            -- Append-only; sequence numbers are handed out under the writer lock, in commit order.
            CREATE TABLE change (
                seq BIGINT PRIMARY KEY,
                day TEXT NOT NULL,
                currency TEXT NOT NULL,
                value TEXT,
                provider TEXT,
                provider_day TEXT,
                fetch_run_id BIGINT NOT NULL REFERENCES fetch_run (id)
            );
            CREATE INDEX change_by_key ON change (day, currency, seq);

            CREATE TABLE rate (
                day TEXT NOT NULL,
                currency TEXT NOT NULL CHECK (length(currency) = 3),
                value TEXT NOT NULL,
                provider TEXT NOT NULL DEFAULT 'ECB',
                provider_day TEXT,
                seq BIGINT NOT NULL REFERENCES change (seq),
                PRIMARY KEY (day, currency)
            );

            CREATE TABLE quote (
                provider TEXT NOT NULL,
                day TEXT NOT NULL,
                currency TEXT NOT NULL CHECK (length(currency) = 3),
                value TEXT NOT NULL,
                unit INTEGER NOT NULL DEFAULT 1 CHECK (unit >= 1),
                direction TEXT NOT NULL CHECK (direction IN ('pivot-per-units', 'units-per-pivot')),
                PRIMARY KEY (provider, day, currency)
            );
            CREATE INDEX quote_by_day ON quote (day);
            """
        ),
        (
            // Each merged day also as one table (``DayTable/encoded``), written with its rows, so a
            // start reads a few thousand tables instead of every row. A database with rows gets them
            // once, on its next open (``storeMissingDayTables(_:)``).
            "v2-day-tables",
            """
            CREATE TABLE day_table (
                day TEXT PRIMARY KEY,
                rates BYTEA NOT NULL
            );
            INSERT INTO meta (key, value) SELECT 'dayTables', 'missing' WHERE EXISTS (SELECT 1 FROM rate);
            """
        ),
        (
            // The day tables hold each day as served, its pegs derived: tables written without them
            // are written again on the next open.
            "v3-day-tables-as-served",
            """
            INSERT INTO meta (key, value) SELECT 'dayTables', 'missing' WHERE EXISTS (SELECT 1 FROM rate)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value;
            """
        ),
    ]

    static func migrate(_ session: PostgresSession) throws {
        try session.transaction { statements in
            try takeWriterLock(statements)
            try statements.run("CREATE TABLE IF NOT EXISTS schema_migration (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            let applied = Set(try statements.rows("SELECT name FROM schema_migration").map { try $0.decode(String.self) })
            for migration in migrations where !applied.contains(migration.name) {
                try statements.script(migration.sql)
                try statements.run("INSERT INTO schema_migration (name) VALUES (\(migration.name))")
            }
            try storeMissingDayTables(statements)
        }
    }

    /// Takes the writer lock for the rest of the caller's transaction (released when it ends).
    static func takeWriterLock(_ statements: PostgresSession.Statements) throws {
        try statements.run("SELECT pg_advisory_xact_lock(\(writerLock))")
    }

    /// Runs `body` as one write transaction, the only writer across all replicas while it runs.
    func writeTransaction<Result: Sendable>(_ body: (PostgresSession.Statements) throws -> Result) throws -> Result {
        try session.transaction { statements in
            try Self.takeWriterLock(statements)
            return try body(statements)
        }
    }

    /// The newest change's sequence number, 0 when nothing was ever logged.
    static func lastSequence(_ statements: PostgresSession.Statements) throws -> Int64 {
        try statements.value("SELECT COALESCE(MAX(seq), 0) FROM change", as: Int64.self) ?? 0
    }
}

// MARK: - The merged dataset

extension PostgresRatesDatabase {
    func snapshot() throws -> StoredRates {
        try session.transaction(readOnly: true) { statements in
            let version = try Self.lastSequence(statements)
            let days = try Self.storedDayTables(statements) ?? Self.dayTablesFromRows(statements)
            return StoredRates(epoch: epoch, version: version, days: days)
        }
    }

    /// The stored day tables, in day order; `nil` when one of them does not read back (or they
    /// are still missing), so that the caller reads the rows instead.
    static func storedDayTables(_ statements: PostgresSession.Statements) throws -> [DayTable]? {
        guard try statements.value("SELECT value FROM meta WHERE key = 'dayTables'", as: String.self) == nil else { return nil }
        var days: [DayTable] = []
        days.reserveCapacity(8_192)
        for row in try statements.rows("SELECT day, rates FROM day_table ORDER BY day") {
            let (text, bytes) = try row.decode((String, ByteBuffer).self)
            guard let day = Day(text), let table = DayTable(day: day, encoded: Array(bytes.readableBytesView)) else { return nil }
            days.append(table)
        }
        return days
    }

    /// The merged days read from the `rate` rows, one line of text per day.
    static func dayTablesFromRows(_ statements: PostgresSession.Statements) throws -> [DayTable] {
        let lines = try statements.rows(
            PostgresQuery(
                unsafeSQL:
                    "SELECT day, string_agg(\(IngestDocuments.dayLineEntry(providerDay: "provider_day")), ',') FROM rate GROUP BY day ORDER BY day"))
        return try lines.compactMap { line in
            let (day, list) = try line.decode((String, String).self)
            return IngestDocuments.day(day, list: list)
        }
    }

    /// Writes the day tables of a database whose rows were stored before it kept them.
    static func storeMissingDayTables(_ statements: PostgresSession.Statements) throws {
        guard try statements.value("SELECT value FROM meta WHERE key = 'dayTables'", as: String.self) != nil else { return }
        try storeDayTables(try dayTablesFromRows(statements), statements)
        try statements.run("DELETE FROM meta WHERE key = 'dayTables'")
    }

    /// Stores each table as its day's (an empty one changes nothing, as an empty day of a batch
    /// withdraws nothing): the tables travel as one JSON document of `[day, base64 bytes]` rows, as
    /// quotes and merged rows do.
    static func storeDayTables(_ tables: [DayTable], _ statements: PostgresSession.Statements) throws {
        let rows = tables.filter { $0.count > 0 }.map { "[\"\($0.day)\",\"\(Data($0.encoded).base64EncodedString())\"]" }
        try statements.run(
            """
            INSERT INTO day_table (day, rates)
            SELECT e ->> 0, decode(e ->> 1, 'base64') FROM jsonb_array_elements(\("[" + rows.joined(separator: ",") + "]")::jsonb) AS e
            ON CONFLICT (day) DO UPDATE SET rates = excluded.rates
            """)
    }

    func version() throws -> Int64 {
        try session.withConnection(Self.lastSequence)
    }
}

// MARK: - Fetch runs

extension PostgresRatesDatabase {
    func lastRun(source: FetchRun.Source?, provider: String?, successful: Bool) throws -> FetchRun? {
        let outcomes = FetchRun.Outcome.stored(successful: successful)
        return try session.withConnection { statements in
            try statements.rows(
                """
                SELECT \(unescaped: Self.runColumns) FROM fetch_run
                WHERE outcome = ANY(\(outcomes)) AND (\(source?.rawValue)::text IS NULL OR source = \(source?.rawValue))
                  AND (\(provider)::text IS NULL OR provider = \(provider))
                ORDER BY id DESC LIMIT 1
                """
            ).first.map(Self.run)
        }
    }

    func lastRuns(source: FetchRun.Source, successful: Bool) throws -> [String: FetchRun] {
        let outcomes = FetchRun.Outcome.stored(successful: successful)
        let runs = try session.withConnection { statements in
            try statements.rows(
                """
                SELECT DISTINCT ON (provider) \(unescaped: Self.runColumns) FROM fetch_run
                WHERE outcome = ANY(\(outcomes)) AND source = \(source.rawValue)
                ORDER BY provider, id DESC
                """
            ).map(Self.run)
        }
        return Dictionary(runs.map { ($0.provider, $0) }, uniquingKeysWith: { $1 })
    }

    func dataOrigin() throws -> FetchRun.Source? {
        try session.withConnection { statements in
            try statements.value(
                "SELECT source FROM fetch_run WHERE outcome = 'updated' AND source <> 'maintenance' ORDER BY id DESC LIMIT 1", as: String.self)
        }.flatMap(FetchRun.Source.init)
    }

    func latestRunID() throws -> Int64 {
        try session.withConnection { try $0.value("SELECT COALESCE(MAX(id), 0) FROM fetch_run", as: Int64.self) } ?? 0
    }

    static let runColumns =
        "id, started_at, finished_at, source, provider, file, http_status, outcome, detail, rows_changed, etag, last_modified, latest_day"

    /// A `fetch_run` row (``runColumns``) as a run.
    static func run(_ row: PostgresRow) throws -> FetchRun {
        let cells = row.makeRandomAccess()
        var run = FetchRun(
            startedAt: try cells["started_at"].decode(Date.self), finishedAt: try cells["finished_at"].decode(Date.self),
            source: FetchRun.Source(rawValue: try cells["source"].decode(String.self)) ?? .upstream,
            provider: try cells["provider"].decode(String.self), file: try cells["file"].decode(String.self),
            httpStatus: try cells["http_status"].decode(Int64?.self).map(Int.init),
            outcome: FetchRun.Outcome(rawValue: try cells["outcome"].decode(String.self)) ?? .failed,
            detail: try cells["detail"].decode(String?.self), rowsChanged: Int(try cells["rows_changed"].decode(Int64.self)),
            etag: try cells["etag"].decode(String?.self), lastModified: try cells["last_modified"].decode(String?.self),
            latestDay: try cells["latest_day"].decode(String?.self))
        run.id = try cells["id"].decode(Int64.self)
        return run
    }
}
