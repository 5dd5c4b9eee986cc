import Foundation
import GRDB
import RatesCore

/// The SQLite database of published rates: the one type that owns database access.
///
/// The database runs in WAL mode through a `DatabasePool`, so readers never wait for the
/// ingest writer. Every ingest is one transaction holding the rate rows, one append-only
/// `change` row per changed (day, currency) with a monotonically increasing sequence
/// number, and the `fetchRun` record: a crash leaves all of it or none of it.
public final class RatesStore: Sendable {
    let pool: DatabasePool
    /// The database's epoch, created at random with the database.
    public let epoch: String

    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    ///
    /// - Throws: `DatabaseError` when the file cannot be opened, is not a database, or a migration fails.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // WAL with synchronous=NORMAL keeps every committed transaction atomic and consistent;
            // a power cut may lose the last commit, which the next fetch repeats.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        configuration.busyMode = .timeout(10)
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
        epoch = try pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'epoch'") } ?? ""
    }

    // MARK: - Schema

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE meta (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    ) WITHOUT ROWID;
                    INSERT INTO meta (key, value) VALUES ('epoch', lower(hex(randomblob(8))));

                    CREATE TABLE fetchRun (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        startedAt DATETIME NOT NULL,
                        finishedAt DATETIME NOT NULL,
                        source TEXT NOT NULL CHECK (source IN ('seed', 'import', 'upstream', 'maintenance')),
                        file TEXT NOT NULL,
                        httpStatus INTEGER,
                        outcome TEXT NOT NULL CHECK (outcome IN ('updated', 'unchanged', 'notModified', 'failed', 'rejected')),
                        detail TEXT,
                        rowsChanged INTEGER NOT NULL DEFAULT 0,
                        etag TEXT,
                        lastModified TEXT,
                        latestDay TEXT
                    );

                    CREATE TABLE change (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        day TEXT NOT NULL,
                        currency TEXT NOT NULL,
                        value TEXT,
                        fetchRunId INTEGER NOT NULL REFERENCES fetchRun(id)
                    );

                    CREATE TABLE rate (
                        day TEXT NOT NULL,
                        currency TEXT NOT NULL CHECK (length(currency) = 3),
                        value TEXT NOT NULL,
                        seq INTEGER NOT NULL REFERENCES change(seq),
                        PRIMARY KEY (day, currency)
                    ) WITHOUT ROWID;
                    """
            )
        }
        return migrator
    }
}

// MARK: - Ingest

extension RatesStore {
    /// Stores a validated batch in one transaction and records `run` with its outcome.
    ///
    /// Each day in the batch is taken as complete: values that differ are replaced, new ones
    /// added, and currencies stored for that day but missing from the batch are removed. Every
    /// such change appends a `change` row. Identical data changes nothing but the run record.
    ///
    /// - Parameter progress: Called every 1,000 days with (days done, days in batch), for long imports.
    /// - Returns: The recorded run, with `outcome` `.updated` or `.unchanged` and `rowsChanged` set.
    /// - Throws: `DatabaseError` when the transaction fails; nothing is stored then.
    @discardableResult
    public func ingest(_ batch: RatesBatch, run: FetchRun, progress: ((Int, Int) -> Void)? = nil) throws -> FetchRun {
        try pool.write { db in
            var run = run
            run.outcome = .unchanged
            run.latestDay = batch.latestDay?.description
            try run.insert(db)
            guard let runID = run.id, let first = batch.days.first?.day, let last = batch.latestDay else { return run }

            var stored: [String: [String: String]] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT day, currency, value FROM rate WHERE day BETWEEN ? AND ?",
                arguments: [first.description, last.description])
            while let row = try rows.next() {
                stored[row[0], default: [:]][row[1]] = row[2] as String
            }

            let insertChange = try db.cachedStatement(sql: "INSERT INTO change (day, currency, value, fetchRunId) VALUES (?, ?, ?, ?)")
            let upsertRate = try db.cachedStatement(
                sql: "INSERT INTO rate (day, currency, value, seq) VALUES (?, ?, ?, ?) ON CONFLICT (day, currency) DO UPDATE SET value = excluded.value, seq = excluded.seq"
            )
            let deleteRate = try db.cachedStatement(sql: "DELETE FROM rate WHERE day = ? AND currency = ?")
            var changed = 0
            for (index, daily) in batch.days.enumerated() {
                if index % 1000 == 999 { progress?(index + 1, batch.days.count) }
                let day = daily.day.description
                let before = stored[day] ?? [:]
                for (currency, value) in daily.rates where before[currency.rawValue] != value {
                    try insertChange.execute(arguments: [day, currency.rawValue, value, runID])
                    try upsertRate.execute(arguments: [day, currency.rawValue, value, db.lastInsertedRowID])
                    changed += 1
                }
                for currency in before.keys where CurrencyCode(currency).map({ daily.rates[$0] == nil }) ?? true {
                    try insertChange.execute(arguments: [day, currency, nil, runID])
                    try deleteRate.execute(arguments: [day, currency])
                    changed += 1
                }
            }
            if changed > 0 {
                run.outcome = .updated
                run.rowsChanged = changed
                try run.update(db)
            }
            return run
        }
    }

    /// Records a run that stored nothing (failed, rejected or not modified).
    ///
    /// - Throws: `DatabaseError` when the write fails.
    @discardableResult
    public func record(_ run: FetchRun) throws -> FetchRun {
        try pool.write { db in
            var run = run
            try run.insert(db)
            return run
        }
    }
}

// MARK: - Queries

extension RatesStore {
    /// Every stored rate with the dataset version, read in one transaction.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func snapshot() throws -> StoredRates {
        try pool.read { db in
            let version = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change") ?? 0
            var days: [DailyRates] = []
            var current: DailyRates?
            let rows = try Row.fetchCursor(db, sql: "SELECT day, currency, value FROM rate ORDER BY day")
            while let row = try rows.next() {
                let dayText: String = row[0]
                if current?.day.description != dayText {
                    if let finished = current { days.append(finished) }
                    guard let day = Day(dayText) else { continue }
                    current = DailyRates(day: day, rates: [:])
                }
                if let currency = CurrencyCode(row[1] as String) {
                    current?.rates[currency] = row[2] as String
                }
            }
            if let finished = current { days.append(finished) }
            return StoredRates(epoch: epoch, version: version, days: days)
        }
    }

    /// The dataset version: the newest change's sequence number, 0 when nothing was ever stored.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func version() throws -> Int64 {
        try pool.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change") ?? 0 }
    }

    /// The newest stored day, or `nil` when the database holds no rates.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func latestDay() throws -> Day? {
        try pool.read { db in try String.fetchOne(db, sql: "SELECT MAX(day) FROM rate").flatMap(Day.init) }
    }

    /// The most recent run, or `nil` before the first.
    ///
    /// - Parameter source: Only runs of this source, or any when `nil`.
    /// - Throws: `DatabaseError` when the read fails.
    public func lastRun(source: FetchRun.Source? = nil) throws -> FetchRun? {
        try pool.read { db in
            var request = FetchRun.all()
            if let source { request = request.filter(Column("source") == source.rawValue) }
            return try request.order(Column("id").desc).fetchOne(db)
        }
    }

    /// The most recent run that reached its source and got good data (updated, unchanged or not modified).
    ///
    /// - Parameter source: Only runs of this source, or any when `nil`.
    /// - Throws: `DatabaseError` when the read fails.
    public func lastSuccessfulRun(source: FetchRun.Source? = nil) throws -> FetchRun? {
        try pool.read { db in
            var request = FetchRun.filter([FetchRun.Outcome.updated, .unchanged, .notModified].map(\.rawValue).contains(Column("outcome")))
            if let source { request = request.filter(Column("source") == source.rawValue) }
            return try request.order(Column("id").desc).fetchOne(db)
        }
    }

    /// The source of the data now stored: that of the newest run that brought data in, `nil` when none did.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func dataOrigin() throws -> FetchRun.Source? {
        try pool.read { db in
            try FetchRun
                .filter(Column("outcome") == FetchRun.Outcome.updated.rawValue && Column("source") != FetchRun.Source.maintenance.rawValue)
                .order(Column("id").desc).fetchOne(db)?.source
        }
    }

    /// The `ETag` and `Last-Modified` the upstream gave with the last good answer for `file`.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func validators(forFile file: String) throws -> (etag: String?, lastModified: String?) {
        try pool.read { db in
            let run = try FetchRun
                .filter(Column("file") == file && Column("source") == FetchRun.Source.upstream.rawValue)
                .filter([FetchRun.Outcome.updated, .unchanged].map(\.rawValue).contains(Column("outcome")))
                .order(Column("id").desc).fetchOne(db)
            return (run?.etag, run?.lastModified)
        }
    }
}
