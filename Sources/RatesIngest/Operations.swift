import AsyncHTTPClient
import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream

/// One-shot operator tasks behind the `fetch`, `import` and `status` commands.
public enum Operations {
    /// Fetches every source `settings` enable once, as the schedulers would (all at once; their
    /// ingests take turns), and returns the recorded runs in the order of ``UpstreamFetches/all``.
    ///
    /// Upstream failures are recorded and returned, not thrown.
    public static func fetch(into store: RatesStore, settings: FetchSettings, logger: Logger) async throws -> [FetchRun] {
        let ingestor = Ingestor(store: store, state: try ServerState(loadingFrom: store), logger: logger)
        let httpClient = ProviderClient.makeHTTPClient()
        let fetches = UpstreamFetches(settings, ingestor: ingestor, httpClient: httpClient, logger: logger)
        let runs = await withTaskGroup(of: (Int, FetchRun).self, returning: [FetchRun].self) { group in
            for (index, fetch) in fetches.all.map(\.fetch).enumerated() { group.addTask { (index, await fetch.run(expedited: false).run) } }
            return await group.reduce(into: []) { $0.append($1) }.sorted { $0.0 < $1.0 }.map(\.1)
        }
        try await httpClient.shutdown()
        return runs
    }

    /// Loads files `provider` published into the database in one transaction: the ECB's history
    /// files (`eurofxref-hist.zip`, `.csv`, any eurofxref XML file), or another source's answers of
    /// its endpoint as `Tests/Fixtures/<bank>/` records them. Each is read by the adapter
    /// (``RatesUpstream/RatesProvider/publications(inFiles:subjects:today:)``), checked by the
    /// validation and stored by the ingest of a fetch, recorded as an import run. Several files are
    /// combined as a fetch's answers are (the NBP's tables A and B).
    ///
    /// - Parameters:
    ///   - provider: The provider's key, in any letter case.
    ///   - subjects: What each file answers, in order, for providers with one request per currency
    ///     or series (`USD` for a BCB file, `DEXUSEU` for a FRED file); empty to let every file say.
    ///   - progress: Called with a short message at each stage.
    /// - Throws: `ProviderConfigurationError` for an unknown key, `ProviderFileError` or
    ///   `UpstreamDataError` when the files are not valid files of the provider's (nothing is
    ///   stored then), the file system's error when one cannot be read, or database errors.
    public static func importPublications(
        of provider: String, subjects: [String?] = [], from files: [URL], database: String, passwordFile: String? = nil, progress: (String) -> Void
    ) throws -> FetchRun {
        let started = Date()
        // Reading answers needs no API key: only the requests carry it.
        guard let adapter = ProviderRegistry.entry(provider)?.adapter else { throw ProviderConfigurationError.unknownProvider(provider) }
        let names = files.map(\.lastPathComponent).joined(separator: ", ")
        progress("reading \(names) as \(adapter.key)'s files (\(adapter.name))")
        let publications = try adapter.publications(inFiles: files, subjects: subjects, today: Day(containing: started))
        progress("read \(publications.count) days, \(publications.reduce(0) { $0 + $1.quotes.count }) figures "
            + "(\(publications.first?.day.description ?? "-") to \(publications.last?.day.description ?? "-"))")
        let ingestor = try importIngestor(database: database, passwordFile: passwordFile)
        progress("validating and writing to \(RatesStore.redacted(database))")
        let run = try ingestor.ingest(
            publications, of: (adapter.key, adapter.pivot),
            run: FetchRun(startedAt: started, source: .import, provider: adapter.key, file: names, outcome: .updated),
            notAfter: Day(containing: started).adding(days: 1))
        progress("stored \(adapter.key)'s figures; \(run.rowsChanged) merged rates changed, in one transaction")
        return run
    }

    /// The ingest of an import into `database`. It holds no dataset in memory: the import stores
    /// and exits, and a server reads what it stored (or catches up with it, when running).
    static func importIngestor(database: String, passwordFile: String?) throws -> Ingestor {
        let store = try RatesStore(location: database, passwordFile: passwordFile)
        let state = ServerState(snapshot: RatesSnapshot(epoch: store.epoch, version: try store.version(), days: [DayTable]()))
        return Ingestor(store: store, state: state, followsIngests: false, logger: Logger(label: "rates-relay.import"))
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
        let expected = ProviderRegistry.referenceSchedule.latestPublication(asOf: Date())
        var lines = [
            "database:       \(RatesStore.redacted(database))",
            "epoch:          \(snapshot.epoch)",
            "version:        \(snapshot.version)",
            "days:           \(snapshot.days.count) (\(snapshot.days.first?.day.description ?? "-") to \(snapshot.days.last?.day.description ?? "-"))",
            "rates:          \(snapshot.days.reduce(0) { $0 + $1.count })",
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
