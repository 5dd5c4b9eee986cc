import Foundation
import GRDB

extension RatesCache {
    /// The cache schema. Migrations are never edited once shipped and never use app types.
    ///
    /// - `rate`: the visible data, the server's rate text per (day, currency), and where it came
    ///   from (`v3`: `provider` and `providerDay`, both `NULL` for the ECB's figure of that very day,
    ///   as on the wire, so the ECB's history costs nothing more).
    /// - `stagedRate`: pages of a snapshot in progress; its last page renames the table to `rate`
    ///   and makes an empty one (``createStagedRate``).
    /// - `syncState`: one row — where the cache stands in the server's feed, and what the server
    ///   said about its data at the last page (`v2`: `expectedLatestDate`, `serverStale`;
    ///   `v3`: `sourcesKnown`; `v4`: `bundled`).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE rate (
                    day TEXT NOT NULL CHECK (length(day) = 10),
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    value TEXT NOT NULL,
                    PRIMARY KEY (day, currency)
                ) WITHOUT ROWID;
                CREATE TABLE stagedRate (
                    day TEXT NOT NULL CHECK (length(day) = 10),
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    value TEXT NOT NULL,
                    PRIMARY KEY (day, currency)
                ) WITHOUT ROWID;
                CREATE TABLE syncState (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    cursor TEXT,
                    epoch TEXT,
                    etag TEXT,
                    snapshotInProgress BOOLEAN NOT NULL DEFAULT 0,
                    base TEXT NOT NULL DEFAULT 'EUR',
                    latestDate TEXT,
                    nextUpdateAfter DATETIME,
                    lastSuccessfulSync DATETIME,
                    "window" TEXT,
                    generation INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO syncState (id) VALUES (1);
                """)
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                ALTER TABLE syncState ADD COLUMN expectedLatestDate TEXT;
                ALTER TABLE syncState ADD COLUMN serverStale BOOLEAN;
                """)
        }
        // Rows cached before `v3` do not say where they came from (from a server with several
        // providers they may be anyone's): they keep being read, their sources unknown, until the
        // next sync, which is a snapshot for that reason (`SyncEngine`) and brings every source.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: """
                ALTER TABLE rate ADD COLUMN provider TEXT;
                ALTER TABLE rate ADD COLUMN providerDay TEXT CHECK (providerDay IS NULL OR length(providerDay) = 10);
                ALTER TABLE stagedRate ADD COLUMN provider TEXT;
                ALTER TABLE stagedRate ADD COLUMN providerDay TEXT CHECK (providerDay IS NULL OR length(providerDay) = 10);
                ALTER TABLE syncState ADD COLUMN sourcesKnown BOOLEAN NOT NULL DEFAULT 1;
                UPDATE syncState SET sourcesKnown = 0 WHERE EXISTS (SELECT 1 FROM rate);
                """)
        }
        migrator.registerMigration("v4") { db in
            try db.execute(sql: "ALTER TABLE syncState ADD COLUMN bundled BOOLEAN NOT NULL DEFAULT 0")
        }
        return migrator
    }

    /// `stagedRate` as the migrations leave it (and `rate`, which has the same columns and checks),
    /// made anew each time a completed snapshot's staged table is renamed to `rate`.
    static let createStagedRate = """
        CREATE TABLE stagedRate (
            day TEXT NOT NULL CHECK (length(day) = 10),
            currency TEXT NOT NULL CHECK (length(currency) = 3),
            value TEXT NOT NULL,
            provider TEXT,
            providerDay TEXT CHECK (providerDay IS NULL OR length(providerDay) = 10),
            PRIMARY KEY (day, currency)
        ) WITHOUT ROWID
        """
}

/// The `syncState` row: the cursor and everything stored with it.
struct SyncState: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "syncState"

    var id: Int64 = 1
    /// The cursor to send next; `nil` before the first page.
    var cursor: String?
    /// The server epoch the cursor belongs to.
    var epoch: String?
    /// The tail page's ETag (`nil` while pages are pending), sent as `If-None-Match`.
    var etag: String?
    /// Whether `stagedRate` holds the first pages of a snapshot not yet swapped in.
    var snapshotInProgress = false
    /// The provider base the visible rates are relative to.
    var base = "EUR"
    /// The server's newest day as of the last page.
    var latestDate: String?
    /// The newest publication the server's calendar expected as of the last page; `nil` when the server did not say.
    var expectedLatestDate: String?
    /// The server's `stale` verdict on its own data as of the last page (a publication missing, or
    /// the data never confirmed by the upstream); `nil` when the server did not say.
    var serverStale: Bool?
    /// When the server expects its next publication.
    var nextUpdateAfter: Date?
    /// When a sync last completed.
    var lastSuccessfulSync: Date?
    /// The `from` the cursor was issued for (`nil`: all history).
    var window: String?
    /// Bumped by every transaction that changes `rate`; lets in-memory caches (of any process) notice.
    var generation: Int64 = 0
    /// Whether `rate` says where each value came from: `false` for rows cached before sources
    /// were (migration `v3`), until the snapshot that replaces them (the next sync sends no cursor).
    var sourcesKnown = true
    /// Whether `rate` holds the bundled snapshot (``RatesClient/Configuration/bundledRates``), put
    /// into a cache that never synced; the first sync's snapshot replaces it.
    var bundled = false

    /// Whether the cache may take the bundled snapshot: it never synced (no cursor, no sync completed,
    /// no snapshot under way) and holds none yet.
    var takesBundledSnapshot: Bool { cursor == nil && lastSuccessfulSync == nil && !snapshotInProgress && !bundled }
}
