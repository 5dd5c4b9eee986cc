import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream

extension Operations {
    /// What ``importArchive(at:database:passwordFile:progress:)`` did.
    public struct ArchiveImport: Sendable {
        /// One run per provider imported, in key order, as recorded.
        public var runs: [FetchRun]
        /// How many files were imported.
        public var importedFiles: Int
        /// The files left out, each with the reason its provider's adapter gave.
        public var refused: [(file: URL, reason: String)]
    }

    /// Loads an archive of many providers' files into the database in one transaction: every
    /// provider's figures stored as published, then each merged day they touch recomputed once.
    /// Importing each provider's files in turn (``importPublications(of:subjects:from:database:passwordFile:progress:)``)
    /// recomputes a day once per provider that touches it; for long histories that is most of the work.
    ///
    /// `directory` holds one folder per provider, named by its key in any letter case (`ECB/`,
    /// `nbp/`), each holding that provider's files as its endpoint answers them; hidden files are
    /// skipped. A file that does not say what it answers is taken to answer the one currency or
    /// series its name names, as in a single import. A provider's files are read together (several
    /// answers of one day combine); when they cannot be, each file is read alone and the files that
    /// do not read, or hold no valid publication, are left out and reported, the rest read together.
    ///
    /// - Throws: `ProviderConfigurationError.unknownProvider` for a folder that names no provider,
    ///   ``ArchiveLayoutError`` for a file beside the folders, the file system's error when the
    ///   directory cannot be read, `UpstreamDataError` or database errors when storing fails (nothing
    ///   is stored in any of these cases).
    public static func importArchive(
        at directory: URL, database: String, passwordFile: String? = nil, progress: (String) -> Void
    ) throws -> ArchiveImport {
        let started = Date()
        let today = Day(containing: started)
        let notAfter = today.adding(days: 1)
        var batches: [QuoteBatch] = []
        var importedFiles = 0
        var refused: [(file: URL, reason: String)] = []
        for (entry, files) in try archiveFolders(in: directory) {
            let adapter = entry.identity
            var accepted = files
            if (try? readValid(files, of: adapter, today: today, notAfter: notAfter)) == nil {
                accepted = []
                for file in files {
                    do {
                        _ = try readValid([file], of: adapter, today: today, notAfter: notAfter)
                        accepted.append(file)
                    } catch {
                        refused.append((file, "\(error)"))
                    }
                }
            }
            guard !accepted.isEmpty else { continue }
            let publications: [ProviderPublication]
            do {
                publications = try readValid(accepted, of: adapter, today: today, notAfter: notAfter)
            } catch {
                // Each file reads alone, but together they conflict: the provider is left out whole.
                refused += accepted.map { ($0, "\(error)") }
                continue
            }
            importedFiles += accepted.count
            let names = accepted.map(\.lastPathComponent).joined(separator: ", ")
            progress("\(adapter.key): \(accepted.count) of \(files.count) files, \(publications.count) days, "
                + "\(publications.reduce(0) { $0 + $1.quotes.count }) figures (\(publications[0].day) to \(publications[publications.count - 1].day))")
            batches.append(QuoteBatch(
                provider: adapter.key, publications: publications,
                run: FetchRun(startedAt: started, source: .import, provider: adapter.key, file: names, outcome: .updated)))
        }
        for (file, reason) in refused { progress("refused \(file.lastPathComponent): \(reason)") }
        let store = try RatesStore(location: database, passwordFile: passwordFile)
        // The in-memory side starts empty at the store's version: only this import's changes are applied to it.
        let state = ServerState(snapshot: RatesSnapshot(epoch: store.epoch, version: try store.version(), days: [DayTable]()))
        progress("validating and writing \(batches.count) providers' figures to \(RatesStore.redacted(database))")
        let runs = try Ingestor(store: store, state: state, logger: Logger(label: "rates-relay.import")).ingest(batches, notAfter: notAfter)
        return ArchiveImport(runs: runs, importedFiles: importedFiles, refused: refused)
    }

    /// The provider folders of `directory`, in key order, each with its files in name order.
    private static func archiveFolders(in directory: URL) throws -> [(ProviderRegistry.Entry, [URL])] {
        let files = FileManager.default
        var folders: [(ProviderRegistry.Entry, [URL])] = []
        for folder in try files.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil, options: .skipsHiddenFiles) {
            guard folder.hasDirectoryPath || (try? folder.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true else {
                throw ArchiveLayoutError(name: folder.lastPathComponent)
            }
            guard let entry = ProviderRegistry.entry(folder.lastPathComponent) else {
                throw ProviderConfigurationError.unknownProvider(folder.lastPathComponent)
            }
            let contents = try files.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil, options: .skipsHiddenFiles)
            folders.append((entry, contents.sorted { $0.lastPathComponent < $1.lastPathComponent }))
        }
        return folders.sorted { $0.0.key < $1.0.key }
    }

    /// `files` read by `adapter` and validated as an ingest validates them.
    private static func readValid(_ files: [URL], of adapter: any RatesProvider, today: Day, notAfter: Day) throws -> [ProviderPublication] {
        try ProviderValidation.validate(
            try adapter.publications(inFiles: files, subjects: [], today: today), notAfter: notAfter,
            notBefore: adapter.historyStart)
    }
}

/// An archive to import holds something other than provider folders at its top.
public struct ArchiveLayoutError: Error, CustomStringConvertible {
    /// The name of the file that is not a folder.
    public var name: String

    public var description: String { "\(name) is not a folder: an archive holds one folder per provider, named by its key" }
}
