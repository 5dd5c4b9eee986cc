import Foundation
import GRDB
import RatesCore

/// The SQLite database of published rates (``RatesStore``'s embedded default).
///
/// The database runs in WAL mode through a `DatabasePool`, so readers never wait for the
/// ingest writer. Every ingest is one transaction holding the rate rows, one append-only
/// `change` row per changed (day, currency) with a monotonically increasing sequence
/// number, and the `fetchRun` record: a crash leaves all of it or none of it.
final class SQLiteRatesDatabase: RatesDatabase {
    /// The database: a `DatabasePool` (WAL) in production, any GRDB writer in tests.
    let database: any DatabaseWriter
    /// The database's epoch, created at random with the database.
    let epoch: String

    /// Opens (creating if needed) the database at `path` in WAL mode and applies pending migrations.
    ///
    /// - Throws: `DatabaseError` when the file cannot be opened, is not a database, or a migration fails.
    convenience init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // WAL with synchronous=NORMAL keeps every committed transaction atomic and consistent;
            // a power cut may lose the last commit, which the next fetch repeats.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        configuration.busyMode = .timeout(10)
        try self.init(try DatabasePool(path: path, configuration: configuration))
    }

    /// A store on `database` (as GRDB's `AppDatabase.init(_:)`): applies pending migrations.
    ///
    /// - Throws: `DatabaseError` when a migration fails.
    init(_ database: any DatabaseWriter) throws {
        self.database = database
        try Self.migrator.migrate(database)
        try database.write(Self.storeMissingDayTables)
        epoch = try database.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'epoch'") } ?? ""
    }

    func releaseMemory() {
        // Waits for the reads under way; the in-memory databases of tests are queues, which keep theirs.
        (database as? DatabasePool)?.releaseMemory()
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

                    -- Append-only: rows are never deleted from the top, so plain INTEGER PRIMARY KEY
                    -- (max + 1) never reuses a sequence number, without AUTOINCREMENT's bookkeeping.
                    CREATE TABLE change (
                        seq INTEGER PRIMARY KEY,
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
        // Reads pinned to a dataset version look up each value's last change at or below it.
        migrator.registerMigration("v2-change-by-key") { db in
            try db.execute(sql: "CREATE INDEX changeByKey ON change (day, currency, seq)")
        }
        // Many providers: every figure as its provider published it (`quote`), and the merged
        // table (`rate`) naming each value's provider and that provider's own day. The rates
        // stored so far are the ECB's: they become its quotes, and the merged rows keep their
        // values, so no client sees a change and no epoch changes.
        migrator.registerMigration("v3-providers") { db in
            try db.execute(
                sql: """
                    CREATE TABLE quote (
                        provider TEXT NOT NULL,
                        day TEXT NOT NULL,
                        currency TEXT NOT NULL CHECK (length(currency) = 3),
                        value TEXT NOT NULL,
                        unit INTEGER NOT NULL DEFAULT 1 CHECK (unit >= 1),
                        direction TEXT NOT NULL CHECK (direction IN ('pivot-per-units', 'units-per-pivot')),
                        PRIMARY KEY (provider, day, currency)
                    ) WITHOUT ROWID;
                    CREATE INDEX quoteByDay ON quote (day);
                    INSERT INTO quote (provider, day, currency, value, unit, direction)
                        SELECT 'ECB', day, currency, value, 1, 'units-per-pivot' FROM rate;
                    ALTER TABLE rate ADD COLUMN provider TEXT NOT NULL DEFAULT 'ECB';
                    ALTER TABLE rate ADD COLUMN providerDay TEXT;
                    ALTER TABLE change ADD COLUMN provider TEXT;
                    ALTER TABLE change ADD COLUMN providerDay TEXT;
                    ALTER TABLE fetchRun ADD COLUMN provider TEXT NOT NULL DEFAULT 'ECB';
                    """)
        }
        // Each merged day also as one table (``DayTable/encoded``), written with its rows, so a
        // start reads a few thousand tables instead of every row. A database with rows gets them
        // once, on its next open (``storeMissingDayTables(_:)``).
        migrator.registerMigration("v4-day-tables") { db in
            try db.execute(
                sql: """
                    CREATE TABLE dayTable (
                        day TEXT PRIMARY KEY NOT NULL,
                        rates BLOB NOT NULL
                    );
                    INSERT INTO meta (key, value) SELECT 'dayTables', 'missing' WHERE EXISTS (SELECT 1 FROM rate);
                    """)
        }
        // The day tables hold each day as served, its pegs derived: tables written without them
        // are written again on the next open.
        migrator.registerMigration("v5-day-tables-as-served") { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) SELECT 'dayTables', 'missing' WHERE EXISTS (SELECT 1 FROM rate)")
        }
        return migrator
    }

    /// Writes the day tables of a database whose rows were stored before it kept them.
    static func storeMissingDayTables(_ db: Database) throws {
        guard try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'dayTables'") != nil else { return }
        try storeDayTables(try dayTablesFromRows(db), db)
        try db.execute(sql: "DELETE FROM meta WHERE key = 'dayTables'")
    }
}

// MARK: - Ingest

extension SQLiteRatesDatabase {
    /// The batch travels into SQLite as one JSON document and is compared and applied with set
    /// operations there: a full-history import is a handful of statements, not 400,000.
    @discardableResult
    func ingest(_ batch: RatesBatch, run: FetchRun) throws -> FetchRun {
        try database.write { db in
            var run = run
            try run.insert(db)
            try Self.apply(batch, run: &run, db)
            return run
        }
    }

    func ingest(
        _ batches: [QuoteBatch], validity: [String: Int], merge: @escaping @Sendable (QuoteReader, MergedRuns) throws -> Void
    ) throws -> [FetchRun] {
        try database.write { db in
            // What the merge reads: the quotes stored around the batches' days, with the batches
            // applied. It merges while the quotes are stored, and its runs of days are written as they come.
            let merged = try QuoteBatch.span(of: batches, validity: validity).map { span in
                let reader = try QuoteReader(db, span, applying: batches)
                return MergedRuns.start { try merge(reader, $0) }
            }
            var runs: [FetchRun] = []
            for batch in batches {
                var run = batch.run
                run.provider = batch.provider
                try run.insert(db)
                try Self.storeQuotes(provider: batch.provider, publications: batch.publications, inParts: batch.inParts, db)
                runs.append(run)
            }
            guard let merged else { return runs }
            try Self.apply(run: &runs[runs.count - 1], db, runs: merged.next)
            runs = QuoteBatch.sharingOutcome(runs, of: batches)
            for run in runs.dropLast() { try run.update(db) }
            return runs
        }
    }

    /// Replaces `provider`'s quotes of each publication's day with the publication's (or, `inParts`,
    /// adds them, replacing only the currencies it has), one prepared insert per quote.
    static func storeQuotes(provider: String, publications: [ProviderPublication], inParts: Bool, _ db: Database) throws {
        if !inParts {
            try db.execute(
                sql: "DELETE FROM quote WHERE provider = ? AND day IN (SELECT value FROM json_each(?))",
                arguments: [provider, IngestDocuments.days(publications)])
        }
        let insert = try SQLiteRowInsert(
            db, sql: "INSERT OR REPLACE INTO quote (provider, day, currency, value, unit, direction) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        insert.bind(provider, at: 1)
        for publication in publications {
            insert.bind(publication.day.description, at: 2)
            for quote in publication.quotes {
                insert.bind(quote.currency.rawValue, at: 3)
                insert.bind(quote.value, at: 4)
                insert.bind(Int64(quote.unit), at: 5)
                insert.bind(quote.direction.rawValue, at: 6)
                try insert.insertRow()
            }
        }
    }

    /// Applies merged days to the `rate` table and the change log, inside the caller's transaction.
    static func apply(_ batch: RatesBatch, run: inout FetchRun, _ db: Database) throws {
        var pending: MergedRuns.Run? = (batch, IngestDocuments.dayTables(batch))
        try apply(run: &run, db) {
            defer { pending = nil }
            return pending
        }
    }

    /// Applies merged days to the `rate` table and the change log, inside the caller's transaction,
    /// run by run as `next` gives them (until it gives `nil`). A run of days the merged table holds
    /// no value of (a new database, a new publication's day) is appended; otherwise it is compared
    /// with the stored rows.
    static func apply(run: inout FetchRun, _ db: Database, runs next: () throws -> MergedRuns.Run?) throws {
        func lastSequence() throws -> Int64 { try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change") ?? 0 }
        let before = try lastSequence()
        var latestDay: Day?
        while let (batch, tables) = try next() {
            let sequence = try lastSequence()
            if let first = batch.days.first?.day, let last = batch.latestDay,
               try Bool.fetchOne(
                   db, sql: "SELECT EXISTS (SELECT 1 FROM rate WHERE day BETWEEN ? AND ?)", arguments: [first.description, last.description]) == false
            {
                try append(batch, run: run.id, before: sequence, db)
            } else {
                try compareAndApply(batch, run: run.id, before: sequence, db)
            }
            try storeDayTables(tables, db)
            if let last = batch.latestDay { latestDay = max(latestDay ?? last, last) }
        }
        run.outcome = .unchanged
        run.latestDay = latestDay?.description
        let changed = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM change WHERE seq > ?", arguments: [before]) ?? 0
        if changed > 0 {
            run.outcome = .updated
            run.rowsChanged = changed
        }
        try run.update(db)
    }

    /// Days none of which the merged table holds a value of: every value is new, so each goes to
    /// the change log as it is, in (day, currency) order, one prepared insert each, and from there to the merged table.
    private static func append(_ batch: RatesBatch, run: Int64?, before: Int64, _ db: Database) throws {
        let change = try SQLiteRowInsert(
            db, sql: "INSERT INTO change (day, currency, value, provider, providerDay, fetchRunId) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        change.bind(run, at: 6)
        try insertValues(of: batch, with: change)
        try db.execute(
            sql: """
                INSERT INTO rate (day, currency, value, provider, providerDay, seq)
                    SELECT day, currency, value, provider, providerDay, seq FROM change WHERE seq > ?
                """,
            arguments: [before])
    }

    /// Inserts each value of `batch` through `insert`, whose parameters 1 to 5 are the day, currency,
    /// value, provider and provider's day: day by day, each day's currencies in code order.
    private static func insertValues(of batch: RatesBatch, with insert: SQLiteRowInsert) throws {
        for daily in batch.days {
            insert.bind(daily.day.description, at: 1)
            for (currency, value) in daily.rates.sorted(by: { $0.key < $1.key }) {
                let source = IngestDocuments.rowSource(of: currency, in: daily, batch: batch)
                insert.bind(currency.rawValue, at: 2)
                insert.bind(value, at: 3)
                insert.bind(source.provider, at: 4)
                insert.bind(source.providerDay, at: 5)
                try insert.insertRow()
            }
        }
    }

    /// The batch's rows put in a temporary table (one prepared insert each), which set operations
    /// compare with the stored rows: new and changed values, and the values of the batch's days it
    /// no longer holds (withdrawn), go to the change log, and from there to the merged table.
    private static func compareAndApply(_ batch: RatesBatch, run: Int64?, before: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS incoming (day TEXT NOT NULL, currency TEXT NOT NULL, value TEXT NOT NULL,
                                                          provider TEXT NOT NULL, providerDay TEXT,
                                                          PRIMARY KEY (day, currency)) WITHOUT ROWID;
                DELETE FROM temp.incoming;
                """)
        let incoming = try SQLiteRowInsert(
            db, sql: "INSERT INTO temp.incoming (day, currency, value, provider, providerDay) VALUES (?1, ?2, ?3, ?4, ?5)")
        try insertValues(of: batch, with: incoming)
        try db.execute(
            sql: """
                -- New and changed values, and values that now come from another provider or day.
                INSERT INTO change (day, currency, value, provider, providerDay, fetchRunId)
                    SELECT i.day, i.currency, i.value, i.provider, i.providerDay, :run FROM temp.incoming i
                    LEFT JOIN rate r ON r.day = i.day AND r.currency = i.currency
                    WHERE r.value IS NOT i.value OR r.provider IS NOT i.provider OR r.providerDay IS NOT i.providerDay
                    ORDER BY i.day, i.currency;
                -- Withdrawn values: stored for a day the batch holds, absent from it.
                INSERT INTO change (day, currency, value, fetchRunId)
                    SELECT r.day, r.currency, NULL, :run FROM rate r
                    WHERE r.day IN (SELECT DISTINCT day FROM temp.incoming)
                      AND NOT EXISTS (SELECT 1 FROM temp.incoming i WHERE i.day = r.day AND i.currency = r.currency)
                    ORDER BY r.day, r.currency;
                INSERT INTO rate (day, currency, value, provider, providerDay, seq)
                    SELECT day, currency, value, provider, providerDay, seq FROM change WHERE seq > :before AND value IS NOT NULL
                    ON CONFLICT (day, currency) DO UPDATE
                        SET value = excluded.value, provider = excluded.provider, providerDay = excluded.providerDay, seq = excluded.seq;
                DELETE FROM rate WHERE (day, currency) IN (SELECT day, currency FROM change WHERE seq > :before AND value IS NULL);
                DELETE FROM temp.incoming;
                """,
            arguments: ["run": run, "before": before])
    }

    /// Stores each table as its day's. An empty one changes nothing, as an empty day of a batch
    /// withdraws nothing (only ``prune(before:now:)`` empties days).
    static func storeDayTables(_ tables: [DayTable], _ db: Database) throws {
        let store = try db.cachedStatement(sql: "INSERT OR REPLACE INTO dayTable (day, rates) VALUES (?, ?)")
        for table in tables where table.count > 0 {
            try store.execute(arguments: [table.day.description, Data(table.encoded)])
        }
    }

    /// Copies the SQLite file at `path`'s quotes and fetch records into this new, empty database,
    /// so a rebuild keeps every figure as published and each provider's fetch history (its
    /// validators, last outcome) and writes only the merged table and change log anew. Both
    /// files have the schema of the same migrations (`path` was opened, so migrated, first).
    func copyQuotesAndRuns(fromFile path: String) throws {
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [path])
            defer { try? db.execute(sql: "DETACH DATABASE source") }
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO fetchRun SELECT * FROM source.fetchRun; INSERT INTO quote SELECT * FROM source.quote")
                return .commit
            }
        }
    }

    @discardableResult
    func record(_ run: FetchRun) throws -> FetchRun {
        try database.write { db in
            var run = run
            try run.insert(db)
            return run
        }
    }
}

// MARK: - Queries

extension SQLiteRatesDatabase {
    func snapshot() throws -> StoredRates {
        try database.read { db in
            let version = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change") ?? 0
            let days = try Self.storedDayTables(db) ?? Self.dayTablesFromRows(db)
            return StoredRates(epoch: epoch, version: version, days: days)
        }
    }

    /// The stored day tables, in day order; `nil` when one of them does not read back (or they
    /// are still missing), so that the caller reads the rows instead.
    static func storedDayTables(_ db: Database) throws -> [DayTable]? {
        guard try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'dayTables'") == nil else { return nil }
        var days: [DayTable] = []
        days.reserveCapacity(8_192)
        let rows = try Row.fetchCursor(db, sql: "SELECT day, rates FROM dayTable ORDER BY day")
        while let row = try rows.next() {
            guard let day = Day(row[0] as String), let table = try row.withUnsafeData(atIndex: 1, { $0.flatMap { DayTable(day: day, encoded: [UInt8]($0)) } })
            else { return nil }
            days.append(table)
        }
        return days
    }

    /// The merged days read from the `rate` rows, one line of text per day.
    static func dayTablesFromRows(_ db: Database) throws -> [DayTable] {
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT day, group_concat(\(IngestDocuments.dayLineEntry(providerDay: "providerDay")), ',') FROM rate GROUP BY day ORDER BY day")
        return try Array(rows.compactMap { IngestDocuments.day($0[0], list: $0[1]) }, minimumCapacity: 8_192)
    }

    func version() throws -> Int64 {
        try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change") ?? 0 }
    }

    func lastRun(source: FetchRun.Source?, provider: String?, successful: Bool) throws -> FetchRun? {
        try database.read { db in
            var request = FetchRun.all()
            if successful { request = request.filter(FetchRun.Outcome.stored(successful: true).contains(Column("outcome"))) }
            if let source { request = request.filter(Column("source") == source.rawValue) }
            if let provider { request = request.filter(Column("provider") == provider) }
            return try request.order(Column("id").desc).fetchOne(db)
        }
    }

    func lastRuns(source: FetchRun.Source, successful: Bool) throws -> [String: FetchRun] {
        let outcomes = FetchRun.Outcome.stored(successful: successful)
        let runs = try database.read { db in
            try FetchRun.fetchAll(
                db,
                sql: """
                    SELECT * FROM fetchRun WHERE id IN (
                        SELECT MAX(id) FROM fetchRun WHERE source = ? AND outcome IN (\(databaseQuestionMarks(count: outcomes.count))) GROUP BY provider)
                    """,
                arguments: StatementArguments([source.rawValue] + outcomes))
        }
        return Dictionary(runs.map { ($0.provider, $0) }, uniquingKeysWith: { $1 })
    }

    func dataOrigin() throws -> FetchRun.Source? {
        try database.read { db in
            try FetchRun
                .filter(Column("outcome") == FetchRun.Outcome.updated.rawValue && Column("source") != FetchRun.Source.maintenance.rawValue)
                .order(Column("id").desc).fetchOne(db)?.source
        }
    }
}
