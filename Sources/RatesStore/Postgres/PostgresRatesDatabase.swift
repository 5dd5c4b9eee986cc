import Foundation
import Logging
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

    // MARK: - Ingest

    func ingest(_ batch: RatesBatch, run: FetchRun) throws -> FetchRun {
        try writeTransaction { statements in
            var run = run
            try Self.insert(&run, statements)
            try Self.apply(batch, run: &run, statements)
            return run
        }
    }

    func ingest(
        provider: String, publications: [ProviderPublication], inParts: Bool, run: FetchRun, merge: (QuoteReader) throws -> RatesBatch
    ) throws -> FetchRun {
        try writeTransaction { statements in
            var run = run
            run.provider = provider
            try Self.insert(&run, statements)
            if !inParts {
                try statements.run(
                    "DELETE FROM quote WHERE provider = \(provider) AND day IN (SELECT jsonb_array_elements_text(\(IngestDocuments.days(publications))::jsonb))")
            }
            // A quote given twice in one publication: the last one stands, as SQLite's INSERT OR REPLACE has it.
            try statements.run(
                """
                INSERT INTO quote (provider, day, currency, value, unit, direction)
                SELECT DISTINCT ON (e ->> 0, e ->> 1) \(provider), e ->> 0, e ->> 1, e ->> 2, (e ->> 3)::integer, e ->> 4
                FROM jsonb_array_elements(\(IngestDocuments.quotes(publications))::jsonb) WITH ORDINALITY AS q (e, n)
                ORDER BY e ->> 0, e ->> 1, n DESC
                ON CONFLICT (provider, day, currency) DO UPDATE SET value = excluded.value, unit = excluded.unit, direction = excluded.direction
                """)
            let touched = publications.map(\.day)
            guard let first = touched.min(), let last = touched.max() else { return run }
            // Publications in parts add to the quotes stored for their days: those are read back whole.
            let reader = try Self.quotes(
                from: first.adding(days: -QuoteReader.lookBackDays), through: last.adding(days: QuoteReader.lookBackDays), providers: nil,
                ingested: inParts ? nil : (provider, publications), statements)
            try Self.apply(try merge(reader), run: &run, statements)
            return run
        }
    }

    /// Applies merged days to the `rate` table and the change log, inside the caller's transaction.
    static func apply(_ batch: RatesBatch, run: inout FetchRun, _ statements: PostgresSession.Statements) throws {
        guard let id = run.id else { return }
        run.outcome = .unchanged
        run.latestDay = batch.latestDay?.description
        try statements.run("UPDATE fetch_run SET outcome = \(run.outcome.rawValue), latest_day = \(run.latestDay) WHERE id = \(id)")
        let before = try Self.lastSequence(statements)
        try statements.run(
            """
            CREATE TEMP TABLE IF NOT EXISTS incoming (day TEXT NOT NULL, currency TEXT NOT NULL, value TEXT NOT NULL,
                                                      provider TEXT NOT NULL, provider_day TEXT,
                                                      PRIMARY KEY (day, currency)) ON COMMIT DELETE ROWS
            """)
        try statements.run("DELETE FROM incoming")
        try statements.run(
            """
            INSERT INTO incoming (day, currency, value, provider, provider_day)
            SELECT e ->> 0, e ->> 1, e ->> 2, e ->> 3, e ->> 4 FROM jsonb_array_elements(\(IngestDocuments.mergedRows(batch))::jsonb) AS e
            """)
        // New and changed values, and values that now come from another provider or day.
        try statements.run(
            """
            INSERT INTO change (seq, day, currency, value, provider, provider_day, fetch_run_id)
            SELECT \(before) + row_number() OVER (ORDER BY i.day, i.currency), i.day, i.currency, i.value, i.provider, i.provider_day, \(id)
            FROM incoming i LEFT JOIN rate r ON r.day = i.day AND r.currency = i.currency
            WHERE r.value IS DISTINCT FROM i.value OR r.provider IS DISTINCT FROM i.provider OR r.provider_day IS DISTINCT FROM i.provider_day
            """)
        // Withdrawn values: stored for a day the batch holds, absent from it.
        let upserted = try Self.lastSequence(statements)
        try statements.run(
            """
            INSERT INTO change (seq, day, currency, value, fetch_run_id)
            SELECT \(upserted) + row_number() OVER (ORDER BY r.day, r.currency), r.day, r.currency, NULL, \(id) FROM rate r
            WHERE r.day IN (SELECT DISTINCT day FROM incoming)
              AND NOT EXISTS (SELECT 1 FROM incoming i WHERE i.day = r.day AND i.currency = r.currency)
            """)
        try statements.run(
            """
            INSERT INTO rate (day, currency, value, provider, provider_day, seq)
            SELECT day, currency, value, provider, provider_day, seq FROM change WHERE seq > \(before) AND value IS NOT NULL
            ON CONFLICT (day, currency) DO UPDATE
                SET value = excluded.value, provider = excluded.provider, provider_day = excluded.provider_day, seq = excluded.seq
            """)
        try statements.run(
            "DELETE FROM rate r USING change c WHERE c.seq > \(before) AND c.value IS NULL AND r.day = c.day AND r.currency = c.currency")
        try statements.run("DELETE FROM incoming")
        let changed = try statements.value("SELECT COUNT(*) FROM change WHERE seq > \(before)", as: Int64.self) ?? 0
        if changed > 0 {
            run.outcome = .updated
            run.rowsChanged = Int(changed)
            try statements.run("UPDATE fetch_run SET outcome = \(run.outcome.rawValue), rows_changed = \(changed) WHERE id = \(id)")
            try Self.notifyChanges(statements)
        }
    }

    /// Tells every replica listening that changes were logged; PostgreSQL delivers it when the transaction commits.
    static func notifyChanges(_ statements: PostgresSession.Statements) throws {
        try statements.run("SELECT pg_notify(\(ReplicaCoordination.Channel.changes.rawValue), (SELECT MAX(seq) FROM change)::text)")
    }

    func record(_ run: FetchRun) throws -> FetchRun {
        try session.withConnection { statements in
            var run = run
            try Self.insert(&run, statements)
            return run
        }
    }

    func prune(before day: Day, now: Date) throws -> FetchRun {
        try writeTransaction { statements in
            var run = FetchRun(startedAt: now, source: .maintenance, file: "prune --before \(day)", outcome: .unchanged)
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
            if removed > 0 {
                run.outcome = .updated
                try statements.run("UPDATE fetch_run SET outcome = \(run.outcome.rawValue), rows_changed = \(removed) WHERE id = \(run.id)")
                try Self.notifyChanges(statements)
            }
            return run
        }
    }

    /// Inserts `run` and sets its id.
    static func insert(_ run: inout FetchRun, _ statements: PostgresSession.Statements) throws {
        run.id = try statements.value(
            """
            INSERT INTO fetch_run (started_at, finished_at, source, provider, file, http_status, outcome, detail, rows_changed, etag,
                                   last_modified, latest_day)
            VALUES (\(run.startedAt), \(run.finishedAt), \(run.source.rawValue), \(run.provider), \(run.file), \(run.httpStatus.map(Int64.init)),
                    \(run.outcome.rawValue), \(run.detail), \(Int64(run.rowsChanged)), \(run.etag), \(run.lastModified), \(run.latestDay))
            RETURNING id
            """, as: Int64.self)
    }

    // MARK: - The merged dataset and its change log

    func snapshot() throws -> StoredRates {
        try session.transaction(readOnly: true) { statements in
            let version = try Self.lastSequence(statements)
            var days: [DailyRates] = []
            days.reserveCapacity(8_192)
            let lines = try statements.rows(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT day, string_agg(\(IngestDocuments.dayLineEntry(providerDay: "provider_day")), ',') FROM rate GROUP BY day ORDER BY day"))
            for line in lines {
                let (day, list) = try line.decode((String, String).self)
                if let daily = IngestDocuments.day(day, list: list) { days.append(daily) }
            }
            return StoredRates(epoch: epoch, version: version, days: days)
        }
    }

    func version() throws -> Int64 {
        try session.withConnection(Self.lastSequence)
    }

    func latestDay() throws -> Day? {
        try session.withConnection { try $0.value("SELECT MAX(day) FROM rate", as: String.self) }.flatMap(Day.init)
    }

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

    func state(asOf version: Int64, after afterDay: Day?, from: Day?, limit: Int) throws -> StatePage {
        try session.transaction(readOnly: true) { statements in
            let lowerBound = max(afterDay.map { $0.adding(days: 1) } ?? Day(dayNumber: .min / 2), from ?? Day(dayNumber: .min / 2))
            let lower = afterDay == nil && from == nil ? "" : lowerBound.description
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

    // MARK: - Fetch runs

    func lastRun(source: FetchRun.Source?, provider: String?, successful: Bool) throws -> FetchRun? {
        let outcomes = successful ? [FetchRun.Outcome.updated, .unchanged, .notModified].map(\.rawValue) : FetchRun.Outcome.allCases.map(\.rawValue)
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

    // MARK: - Quotes as published

    func quotes(from start: Day, through end: Day, providers: Set<String>?) throws -> QuoteReader {
        try session.transaction(readOnly: true) { statements in try Self.quotes(from: start, through: end, providers: providers, statements) }
    }

    /// Reads the quotes of the days from `start` through `end`, of `providers` only when given;
    /// `ingested`'s provider's quotes of its publications' days are taken from them, not read back.
    static func quotes(
        from start: Day, through end: Day, providers: Set<String>?, ingested: (provider: String, publications: [ProviderPublication])? = nil,
        _ statements: PostgresSession.Statements
    ) throws -> QuoteReader {
        var byProvider: [String: [Day: [PublishedQuote]]] = [:]
        let names = providers.map { Array($0).sorted() }
        let ingestedDays = ingested.map { $0.publications.map(\.day.description) }
        let rows = try statements.rows(
            """
            SELECT provider, day, currency, value, unit, direction FROM quote
            WHERE day BETWEEN \(start.description) AND \(end.description) AND (\(names)::text[] IS NULL OR provider = ANY(\(names)))
              AND (\(ingestedDays)::text[] IS NULL OR provider <> \(ingested?.provider) OR day <> ALL(\(ingestedDays)))
            """)
        for row in rows {
            let (provider, dayText, code, value, unit, directionText) = try row.decode((String, String, String, String, Int32, String).self)
            guard let day = Day(dayText), let currency = CurrencyCode(code), let direction = PublishedQuote.Direction(rawValue: directionText)
            else { continue }
            byProvider[provider, default: [:]][day, default: []].append(PublishedQuote(currency: currency, value: value, unit: Int(unit), direction: direction))
        }
        return QuoteReader(byProvider: byProvider, ingested: ingested)
    }

    func latestPublicationDay(of providers: Set<String>, onOrBefore day: Day?) throws -> Day? {
        try session.withConnection { statements in
            try statements.value(
                "SELECT MAX(day) FROM quote WHERE provider = ANY(\(Array(providers).sorted())) AND day <= \(day?.description ?? "9999-12-31")",
                as: String.self)
        }.flatMap(Day.init)
    }

    func publication(of provider: String, on day: Day) throws -> ProviderPublication? {
        try session.withConnection { statements in
            let quotes = try statements.rows(
                "SELECT currency, value, unit, direction FROM quote WHERE provider = \(provider) AND day = \(day.description) ORDER BY currency"
            ).compactMap { row -> PublishedQuote? in
                let (code, value, unit, directionText) = try row.decode((String, String, Int32, String).self)
                guard let currency = CurrencyCode(code), let direction = PublishedQuote.Direction(rawValue: directionText) else { return nil }
                return PublishedQuote(currency: currency, value: value, unit: Int(unit), direction: direction)
            }
            return quotes.isEmpty ? nil : ProviderPublication(day: day, quotes: quotes)
        }
    }

    func providerHoldings() throws -> [String: RatesStore.ProviderHoldings] {
        try session.transaction(readOnly: true) { statements in
            var holdings: [String: RatesStore.ProviderHoldings] = [:]
            for row in try statements.rows("SELECT provider, MIN(day), MAX(day), COUNT(DISTINCT day) FROM quote GROUP BY provider") {
                let (provider, firstText, latestText, count) = try row.decode((String, String, String, Int64).self)
                guard let first = Day(firstText), let latest = Day(latestText) else { continue }
                let currencies = try statements.rows(
                    "SELECT currency FROM quote WHERE provider = \(provider) AND day = \(latest.description) ORDER BY currency"
                ).compactMap { CurrencyCode(try $0.decode(String.self)) }
                holdings[provider] = RatesStore.ProviderHoldings(
                    firstDay: first, latestDay: latest, publicationCount: Int(count), latestCurrencies: currencies)
            }
            return holdings
        }
    }
}
