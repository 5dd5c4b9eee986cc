import Foundation
import GRDB
import Logging
import NIOPosix
import RatesCore
import Synchronization

/// The database of published rates: the one type the rest of the server reads and writes it through.
///
/// Two databases stand behind it with the same schema concepts, migrations, change log, epoch and
/// exact decimal text: SQLite, the embedded default (one file, ``init(path:)``), and PostgreSQL,
/// shared by several replicas (``init(location:)`` with a `postgres://` URL). Every ingest is one
/// transaction holding the provider's quotes, the merged rows they change, one append-only
/// `change` row per changed (day, currency) with a monotonically increasing sequence number, and
/// the `fetchRun` record: a crash leaves all of it or none of it.
///
/// Calls are synchronous, as GRDB's are: the calling thread waits for the database, whichever it is.
public final class RatesStore: Sendable {
    let database: any RatesDatabase
    /// ``providerHoldings()`` as of the newest run recorded: every write of quotes records one.
    private let holdingsCache = Mutex<(run: Int64, holdings: [String: ProviderHoldings])?>(nil)

    /// The database's epoch, created at random with the database; cursors of another epoch are reset.
    public var epoch: String { database.epoch }

    /// Whether the database is PostgreSQL, shared by every replica that names it.
    public var isShared: Bool { database is PostgresRatesDatabase }

    /// Runs `body`, which calls this store, so that waiting for the database blocks no thread of
    /// Swift's cooperative pool: on PostgreSQL on threads of the store's own (a database that no longer
    /// answers holds them until a statement's deadline, not the tasks that every request and
    /// service of the process share); on SQLite, whose calls are local and short, right here.
    /// Async code calls the store through this.
    public func offloaded<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        guard let postgres = database as? PostgresRatesDatabase else { return try body() }
        return try await postgres.session.waitingThreads.runIfActive(body)
    }

    /// Opens (creating if needed) the SQLite database at `path` in WAL mode and applies pending migrations.
    ///
    /// - Throws: `DatabaseError` when the file cannot be opened, is not a database, or a migration fails.
    public convenience init(path: String) throws {
        self.init(database: try SQLiteRatesDatabase(path: path))
    }

    /// Opens the database `location` names: a `postgres://` or `postgresql://` URL
    /// (``PostgresLocation``), else the path of an SQLite file. Applies pending migrations.
    ///
    /// - Parameters:
    ///   - passwordFile: For PostgreSQL, a file holding the password (a mounted secret), in place of one in the URL.
    ///   - logger: Where PostgreSQL's connections log (the fetcher role taken or lost, notifications failing).
    /// - Throws: `DatabaseError` or ``PostgresStoreError`` when the database cannot be opened or migrated.
    public convenience init(location: String, passwordFile: String? = nil, logger: Logger = Logger(label: "rates.store")) throws {
        if let postgres = try PostgresLocation(location, passwordFile: passwordFile) {
            self.init(database: try PostgresRatesDatabase(postgres, logger: logger))
        } else {
            try self.init(path: location)
        }
    }

    /// A store on an SQLite `database` (as GRDB's `AppDatabase.init(_:)`): applies pending migrations.
    ///
    /// - Throws: `DatabaseError` when a migration fails.
    public convenience init(_ database: any DatabaseWriter) throws {
        self.init(database: try SQLiteRatesDatabase(database))
    }

    init(database: any RatesDatabase) {
        self.database = database
    }

    /// `location` as it may be shown (logs, status): a PostgreSQL URL without its password.
    public static func redacted(_ location: String) -> String { PostgresLocation.redacted(location) }

    // MARK: - Ingest

    /// Stores a validated batch of merged days in one transaction and records `run` with its outcome.
    ///
    /// Each day in the batch is taken as complete: values that differ are replaced, new ones
    /// added, and currencies stored for that day but missing from the batch are removed. Every
    /// such change appends a `change` row. Identical data changes nothing but the run record.
    ///
    /// - Returns: The recorded run, with `outcome` `.updated` or `.unchanged` and `rowsChanged` set.
    /// - Throws: When the transaction fails; nothing is stored then.
    @discardableResult
    public func ingest(_ batch: RatesBatch, run: FetchRun) throws -> FetchRun {
        try database.ingest(batch, run: run)
    }

    /// Writes a copy of the SQLite store at `path` to the new file `copy`, under a new epoch (for
    /// `rates-relay rebuild`): the quotes and fetch records as they are, the merged table anew,
    /// with a change log of one upsert per value. The data keeps its origin (seed, import or
    /// upstream) for `/v1/status`; it was validated when it came in, so it is written as it is.
    ///
    /// - Returns: The old and the new epoch.
    /// - Throws: When either database cannot be opened or written.
    public static func rebuiltCopy(ofSQLiteFile path: String, at copy: String) throws -> (old: String, new: String) {
        let old = try RatesStore(path: path)
        let new = try SQLiteRatesDatabase(path: copy)
        try new.copyQuotesAndRuns(fromFile: path)
        let origin = try old.dataOrigin() ?? .maintenance
        let days = try old.snapshot().days.map(\.dailyRates)
        try new.ingest(RatesBatch(base: .euro, days: days), run: FetchRun(startedAt: Date(), source: origin, provider: ProviderKey.ecb, file: "rebuild", outcome: .updated))
        return (old.epoch, new.epoch)
    }

    /// One provider's publications stored as published, and the merged days they touch
    /// recomputed, in one transaction, with `run` recorded: ``ingest(_:validity:merge:)`` of one batch.
    @discardableResult
    public func ingest(
        provider: String, publications: [ProviderPublication], inParts: Bool = false, run: FetchRun, validity: [String: Int] = [:],
        merge: @escaping @Sendable (QuoteReader) throws -> RatesBatch
    ) throws -> FetchRun {
        try ingest([QuoteBatch(provider: provider, publications: publications, inParts: inParts, run: run)], validity: validity) { reader, runs in
            runs.send(try merge(reader))
        }[0]
    }

    /// Providers' publications stored as published, and the merged days they touch recomputed
    /// once, in one transaction, with each batch's run recorded.
    ///
    /// A publication replaces what the provider's quotes of its day were (a currency it no longer
    /// has was withdrawn), unless its batch is `inParts`: then the provider publishes a day in
    /// several parts (tables on their own cadences) and a publication adds to its day's quotes.
    ///
    /// `merge` runs inside the transaction, on another thread while the batches' quotes are
    /// stored: it reads the quotes (the new ones included) through the ``QuoteReader`` it is
    /// given, which holds them in memory, and sends the merged days to store, each complete (as
    /// ``ingest(_:run:)`` takes them), in runs of ascending days (``MergedRuns``): each run is
    /// written while the merge computes the next. The runs' outcome counts the merged changes only (quotes
    /// that change no merged value change nothing a client sees); the runs of one transaction
    /// share its outcome and count, and its change log names the last run.
    ///
    /// The reader holds every provider's quotes from ``QuoteReader/lookBackDays`` before the first
    /// day of the batches' publications to as many after the last, and those of the providers of
    /// `validity` (figures that hold longer: monthly, quarterly) as far as they hold (``QuoteReader/Span``).
    ///
    /// - Returns: The recorded runs, in the batches' order, with `outcome` `.updated` or `.unchanged` and `rowsChanged` set.
    /// - Throws: When the transaction fails, or what `merge` throws; nothing is stored then.
    @discardableResult
    public func ingest(
        _ batches: [QuoteBatch], validity: [String: Int] = [:], merge: @escaping @Sendable (QuoteReader, MergedRuns) throws -> Void
    ) throws -> [FetchRun] {
        guard !batches.isEmpty else { return [] }
        return try database.ingest(batches, validity: validity, merge: merge)
    }

    /// Records a run that stored nothing (failed, rejected or not modified).
    @discardableResult
    public func record(_ run: FetchRun) throws -> FetchRun {
        try database.record(run)
    }

    /// Deletes every rate for days before `day`, logging each deletion as a tombstone, in one transaction.
    ///
    /// - Returns: The recorded run (`rowsChanged` is the number of values removed).
    @discardableResult
    public func prune(before day: Day, now: Date = Date()) throws -> FetchRun {
        try database.prune(before: day, now: now)
    }

    // MARK: - The merged dataset and its change log

    /// Every stored rate with the dataset version, read in one transaction.
    public func snapshot() throws -> StoredRates { try database.snapshot() }

    /// The dataset version: the newest change's sequence number, 0 when nothing was ever stored.
    public func version() throws -> Int64 { try database.version() }

    /// Gives back the memory the database keeps only for speed, after work that filled it (a
    /// start's first read, an ingest): SQLite's page caches, with its idle readers closed (the
    /// next read opens one). PostgreSQL keeps its caches in its own processes: nothing to give back.
    public func releaseMemory() { database.releaseMemory() }

    /// Every change logged after `sequence`, oldest first: what an in-memory copy at `sequence` lacks.
    public func changeLog(after sequence: Int64) throws -> [ChangeLogEntry] { try database.changeLog(after: sequence) }

    /// Changes with a sequence number above `sequence` and at most `version`, for days on or after
    /// `from`, oldest first, at most `limit` change rows per page, coalesced so each (day, currency)
    /// appears once.
    ///
    /// Pinned to `version` (the dataset version the caller answers for), a page is the same
    /// whenever it is read, and its cursor (``ChangePage/throughSequence``) never runs ahead of
    /// or behind its rows, even while an ingest commits newer changes. Nothing lies after
    /// `version` up to `version`: that empty page is made without reading the database, so a
    /// client that holds every change is answered while the database is unreachable too.
    public func changes(after sequence: Int64, through version: Int64, from: Day?, limit: Int) throws -> ChangePage {
        guard sequence < version else { return ChangePage([], limit: limit, through: version) }
        return try database.changes(after: sequence, through: version, from: from, limit: limit)
    }

    /// Complete days after `afterDay` (and on or after `from`) as they stood at dataset `version`,
    /// ascending, about `limit` values per page.
    ///
    /// Values changed after `version` are read back from the change log, so every page of a
    /// snapshot shows the same moment, the one its cursor names, however long the client takes
    /// to page through it and whatever is ingested meanwhile. A page always ends at a day
    /// boundary, so it may hold up to one day more than `limit` values.
    public func state(asOf version: Int64, after afterDay: Day?, from: Day?, limit: Int) throws -> StatePage {
        let lowerBound = max(afterDay.map { $0.adding(days: 1) } ?? Day(dayNumber: .min / 2), from ?? Day(dayNumber: .min / 2))
        return try database.state(asOf: version, from: afterDay == nil && from == nil ? "" : lowerBound.description, limit: limit)
    }

    /// The lowest sequence number a cursor may hold: changes at or below it may have been compacted away.
    public func retentionFloor() throws -> Int64 { try database.retentionFloor() }

    // MARK: - Fetch runs

    /// The most recent run, of `source` and `provider` only when given, or `nil` before the first.
    public func lastRun(source: FetchRun.Source? = nil, provider: String? = nil) throws -> FetchRun? {
        try database.lastRun(source: source, provider: provider, successful: false)
    }

    /// The most recent run that reached its source and got good data (updated, unchanged or not
    /// modified), of `source` and `provider` only when given.
    public func lastSuccessfulRun(source: FetchRun.Source? = nil, provider: String? = nil) throws -> FetchRun? {
        try database.lastRun(source: source, provider: provider, successful: true)
    }

    /// Each provider's most recent run of `source`, and its most recent successful one: two queries
    /// for every provider, where a start read two per provider.
    public func lastRunsByProvider(source: FetchRun.Source) throws -> (last: [String: FetchRun], successful: [String: FetchRun]) {
        (try database.lastRuns(source: source, successful: false), try database.lastRuns(source: source, successful: true))
    }

    /// The newest recorded run's id, 0 before the first: runs recorded later have higher ids, whichever process records them.
    public func lastRunID() throws -> Int64 { try database.latestRunID() }

    /// The source of the data now stored: that of the newest run that brought data in, `nil` when none did.
    public func dataOrigin() throws -> FetchRun.Source? { try database.dataOrigin() }

    // MARK: - Quotes as published

    /// The quotes of the days of `span`, of `providers` only when given.
    public func quotes(_ span: QuoteReader.Span, providers: Set<String>? = nil) throws -> QuoteReader {
        try database.quotes(span, providers: providers)
    }

    /// The newest day on or before `day` that one of `providers` published, or `nil` when none did.
    public func latestPublicationDay(of providers: Set<String>, onOrBefore day: Day) throws -> Day? {
        guard !providers.isEmpty else { return nil }
        return try database.latestPublicationDay(of: providers, onOrBefore: day)
    }

    /// `provider`'s publication of `day`, or `nil` when it has none stored for that day.
    public func publication(of provider: String, on day: Day) throws -> ProviderPublication? {
        try database.publication(of: provider, on: day)
    }

    /// The day of `provider`'s newest stored publication, or `nil` when it has none.
    public func latestPublicationDay(of provider: String) throws -> Day? {
        try database.latestPublicationDay(of: [provider], onOrBefore: nil)
    }

    /// `provider`'s newest stored publication, or `nil` when it has none.
    public func latestPublication(of provider: String) throws -> ProviderPublication? {
        try latestPublicationDay(of: provider).flatMap { try database.publication(of: provider, on: $0) }
    }

    /// What the store holds of each provider with quotes, by key.
    ///
    /// Counting reads every quote, so the answer is kept until the next recorded run: every ingest,
    /// import and prune records one in the transaction that writes its quotes, whichever process writes.
    public func providerHoldings() throws -> [String: ProviderHoldings] {
        // The run is read first: a run recorded while the holdings are read makes the next call read them again.
        let run = try lastRunID()
        if let cached = holdingsCache.withLock({ $0 }), cached.run == run { return cached.holdings }
        let holdings = try database.providerHoldings()
        holdingsCache.withLock { $0 = (run, holdings) }
        return holdings
    }
}

/// What a database behind ``RatesStore`` does; ``RatesStore`` documents each call.
protocol RatesDatabase: Sendable {
    var epoch: String { get }
    func ingest(_ batch: RatesBatch, run: FetchRun) throws -> FetchRun
    /// `batches` is never empty.
    func ingest(
        _ batches: [QuoteBatch], validity: [String: Int], merge: @escaping @Sendable (QuoteReader, MergedRuns) throws -> Void
    ) throws -> [FetchRun]
    func record(_ run: FetchRun) throws -> FetchRun
    func prune(before day: Day, now: Date) throws -> FetchRun
    func snapshot() throws -> StoredRates
    func version() throws -> Int64
    func changeLog(after sequence: Int64) throws -> [ChangeLogEntry]
    func changes(after sequence: Int64, through version: Int64, from: Day?, limit: Int) throws -> ChangePage
    /// `lower`: the first day of the page as text, or empty for none.
    func state(asOf version: Int64, from lower: String, limit: Int) throws -> StatePage
    func retentionFloor() throws -> Int64
    /// The newest run, of `source` and `provider` when given; `successful`: one that got good data.
    func lastRun(source: FetchRun.Source?, provider: String?, successful: Bool) throws -> FetchRun?
    /// Each provider's most recent run of `source` (a successful one only, when `successful`).
    func lastRuns(source: FetchRun.Source, successful: Bool) throws -> [String: FetchRun]
    func dataOrigin() throws -> FetchRun.Source?
    func quotes(_ span: QuoteReader.Span, providers: Set<String>?) throws -> QuoteReader
    /// `providers` is never empty; `day` `nil` for the newest of all.
    func latestPublicationDay(of providers: Set<String>, onOrBefore day: Day?) throws -> Day?
    func publication(of provider: String, on day: Day) throws -> ProviderPublication?
    /// The newest recorded run's id, 0 before the first.
    func latestRunID() throws -> Int64
    func providerHoldings() throws -> [String: RatesStore.ProviderHoldings]
    func releaseMemory()
}
