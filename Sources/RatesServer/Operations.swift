import AsyncHTTPClient
import Foundation
import Logging
import RatesCore
import RatesIngest
import RatesStore
import RatesUpstream

/// One-shot operator tasks behind the `fetch`, `import` and `status` commands.
public enum Operations {
    /// Fetches every source the configuration enables once, as the schedulers would (all at once;
    /// their ingests take turns), and returns the recorded runs, the ECB's first, then by provider key.
    ///
    /// - Throws: When the database cannot be opened. Upstream failures are recorded and returned, not thrown.
    public static func fetch(_ configuration: ServerConfiguration, logger: Logger) async throws -> [FetchRun] {
        let store = try configuration.openStore(logger: logger)
        let ingestor = Ingestor(store: store, state: try ServerState(loadingFrom: store), logger: logger)
        let httpClient = ECBClient.makeHTTPClient()
        let fetches = UpstreamFetches(configuration, ingestor: ingestor, httpClient: httpClient, calendar: PublicationCalendar(), logger: logger)
        let all: [any UpstreamFetch] = [fetches.ecb] + fetches.providers.map(\.fetch)
        let runs = await withTaskGroup(of: FetchRun.self, returning: [FetchRun].self) { group in
            for fetch in all { group.addTask { await fetch.run().run } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        try await httpClient.shutdown()
        let order = { (run: FetchRun) in run.provider == ProviderKey.ecb ? "" : run.provider }
        return runs.sorted { order($0) < order($1) }
    }

    /// Loads an ECB history file (`.xml`, `.csv`, or the ECB's `.zip`) into the database in one transaction,
    /// through the same validation and ingest as a fetch.
    ///
    /// - Parameter progress: Called with a short message at each stage.
    /// - Throws: `UpstreamDataError` when the file is invalid (nothing is stored), or database errors.
    public static func importHistory(from file: URL, database: String, passwordFile: String? = nil, progress: (String) -> Void) throws -> FetchRun {
        let started = Date()
        progress("reading \(file.lastPathComponent)")
        let batch = try ECBHistoryFile.read(contentsOf: file)
        progress("read \(batch.days.count) days, \(batch.valueCount) rates (\(batch.days.first?.day.description ?? "-") to \(batch.latestDay?.description ?? "-"))")
        let store = try RatesStore(location: database, passwordFile: passwordFile)
        // The in-memory side starts empty at the store's version: only this import's changes are applied to it.
        let state = ServerState(snapshot: RatesSnapshot(epoch: store.epoch, version: try store.version(), days: [DayTable]()))
        progress("validating and writing to \(RatesStore.redacted(database))")
        let run = try Ingestor(store: store, state: state, logger: Logger(label: "rates-relay.import")).ingest(
            batch, run: FetchRun(startedAt: started, source: .import, file: file.lastPathComponent, outcome: .updated),
            notAfter: Day(containing: started).adding(days: 1), checkContinuity: false)
        progress("stored \(run.rowsChanged) changed rates in one transaction")
        return run
    }

    /// Loads files `provider` published (answers of its endpoint, as `Tests/Fixtures/<bank>/`
    /// records them) into the database in one transaction, through the adapter's parser
    /// (``ProviderFile``), the validation and the ingest of a fetch, recorded as an import run.
    /// Several files are combined as a fetch's answers are (the NBP's tables A and B); the ECB's
    /// history files go through ``importHistory(from:database:passwordFile:progress:)``.
    ///
    /// - Parameters:
    ///   - provider: The provider's key, in any letter case.
    ///   - subjects: What each file answers, in order, for providers with one request per currency
    ///     or series (`USD` for a BCB file, `DEXUSEU` for a FRED file); empty to let every file say.
    ///   - progress: Called with a short message at each stage.
    /// - Throws: `ProviderConfigurationError` for an unknown key, `ProviderFileError` or
    ///   `UpstreamDataError` when the files are not valid answers of the provider's (nothing is
    ///   stored then), the file system's error when one cannot be read, or database errors.
    public static func importPublications(
        of provider: String, subjects: [String?] = [], from files: [URL], database: String, passwordFile: String? = nil, progress: (String) -> Void
    ) throws -> FetchRun {
        let started = Date()
        // Reading answers needs no API key: only the requests carry it.
        guard let adapter = ProviderRegistry.entry(provider)?.identity else { throw ProviderConfigurationError.unknownProvider(provider) }
        let names = files.map(\.lastPathComponent).joined(separator: ", ")
        progress("reading \(names) as \(adapter.key)'s answers (\(adapter.name))")
        let bytes = try files.map { Array(try Data(contentsOf: $0)) }
        let publications = try ProviderFile.read(bytes, provider: adapter, subjects: subjects, today: Day(containing: started))
        progress("read \(publications.count) days, \(publications.reduce(0) { $0 + $1.quotes.count }) figures "
            + "(\(publications.first?.day.description ?? "-") to \(publications.last?.day.description ?? "-"))")
        let store = try RatesStore(location: database, passwordFile: passwordFile)
        // As for an ECB file: the in-memory side starts empty at the store's version.
        let state = ServerState(snapshot: RatesSnapshot(epoch: store.epoch, version: try store.version(), days: [DayTable]()))
        progress("validating and writing to \(RatesStore.redacted(database))")
        let run = try Ingestor(store: store, state: state, logger: Logger(label: "rates-relay.import")).ingest(
            publications, of: (adapter.key, adapter.pivot),
            run: FetchRun(startedAt: started, source: .import, provider: adapter.key, file: names, outcome: .updated),
            notAfter: Day(containing: started).adding(days: 1))
        progress("stored \(adapter.key)'s figures; \(run.rowsChanged) merged rates changed, in one transaction")
        return run
    }

    /// Removes every rate before `day` (retention); each removal reaches sync clients as a tombstone.
    ///
    /// - Throws: When the database cannot be opened or written; nothing is removed then.
    public static func prune(database: String, passwordFile: String? = nil, before day: Day) throws -> FetchRun {
        try RatesStore(location: database, passwordFile: passwordFile).prune(before: day)
    }

    /// Rebuilds the SQLite database file under a new epoch: every sync client resets. Every
    /// figure as published and every fetch record stay; the merged table and its change log are
    /// written anew (``RatesStore/rebuiltCopy(ofSQLiteFile:at:)``), so the log holds one change per value.
    ///
    /// The new database is written beside the old one and renamed over it, so the file is
    /// never half-written. Stop the server first: it keeps the old file open.
    /// - Returns: The old and the new epoch.
    /// - Throws: When either database cannot be opened or written; the old file is untouched then.
    public static func rebuild(databasePath: String) throws -> (old: String, new: String) {
        guard try PostgresLocation(databasePath) == nil else {
            throw PostgresStoreError.invalidLocation("rebuild rewrites an SQLite file; a PostgreSQL database keeps its epoch (drop and re-import it for a new one)")
        }
        let files = FileManager.default
        let temporary = databasePath + ".rebuild"
        for suffix in ["", "-wal", "-shm"] { try? files.removeItem(atPath: temporary + suffix) }
        let epochs = try RatesStore.rebuiltCopy(ofSQLiteFile: databasePath, at: temporary)
        // Both pools are closed here; the rebuilt file checkpointed its WAL on close.
        for suffix in ["-wal", "-shm"] { try? files.removeItem(atPath: databasePath + suffix) }
        if rename(temporary, databasePath) != 0 { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: databasePath]) }
        for suffix in ["-wal", "-shm"] { try? files.removeItem(atPath: temporary + suffix) }
        return epochs
    }

    /// A human summary of what the database holds.
    ///
    /// - Throws: When the database cannot be opened or read.
    public static func describe(database: String, passwordFile: String? = nil) throws -> String {
        let store = try RatesStore(location: database, passwordFile: passwordFile)
        let snapshot = try store.snapshot()
        let calendar = PublicationCalendar()
        let expected = calendar.latestPublication(asOf: Date())
        var lines = [
            "database:       \(RatesStore.redacted(database))",
            "epoch:          \(snapshot.epoch)",
            "version:        \(snapshot.version)",
            "days:           \(snapshot.days.count) (\(snapshot.days.first?.day.description ?? "-") to \(snapshot.days.last?.day.description ?? "-"))",
            "rates:          \(snapshot.days.reduce(0) { $0 + $1.rates.count })",
            "expected latest: \(expected)" + ((snapshot.days.last?.day).map { $0 < expected ? " (behind)" : " (current)" } ?? " (empty)"),
            "data origin:    \(try store.dataOrigin()?.rawValue ?? "empty")",
        ]
        if let run = try store.lastRun() {
            lines.append("last run:       \(run.startedAt.formatted(.iso8601)) \(run.source.rawValue) \(run.file) → \(run.outcome.rawValue)"
                + (run.httpStatus.map { " HTTP \($0)" } ?? "") + " (\(run.rowsChanged) changed)" + (run.detail.map { ": \($0)" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }
}
