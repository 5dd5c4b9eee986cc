import Dispatch
import Foundation
import RatesCore
import RatesStore
import RatesUpstream
import Synchronization

extension Operations {
    /// What ``importArchive(at:database:passwordFile:progress:)`` did.
    public struct ArchiveImport: Sendable {
        /// The recorded runs, in key order: one per provider, or one per file of a provider whose files disagree.
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
    /// series its name names, as in a single import. A provider's files are each read alone, those
    /// that do not read or hold no valid publication left out and reported, and the rest combined as
    /// a fetch combines its answers (several answers of one day are one publication); files that give
    /// one currency of one day different figures are imported in turn, in name order.
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
        let folders = try archiveFolders(in: directory)
        // Folders are read side by side: reading is about half of an archive's work.
        let readFolders = Mutex([ReadFolder?](repeating: nil, count: folders.count))
        DispatchQueue.concurrentPerform(iterations: folders.count) { index in
            let folder = readFolder(folders[index].files, of: folders[index].entry.adapter, today: today)
            readFolders.withLock { $0[index] = folder }
        }
        var batches: [QuoteBatch] = []
        var importedFiles = 0
        var refused: [(file: URL, reason: String)] = []
        for (index, folder) in readFolders.withLock({ $0 }).enumerated() {
            guard let folder else { continue }
            let files = folders[index].files
            refused += folder.refused
            guard !folder.batches.isEmpty else { continue }
            let key = folder.key
            let accepted = folder.batches.flatMap(\.files)
            let publications = folder.batches.flatMap(\.publications)
            importedFiles += accepted.count
            progress("\(key): \(accepted.count) of \(files.count) files, \(Set(publications.map(\.day)).count) days, "
                + "\(publications.reduce(0) { $0 + $1.quotes.count }) figures (\(publications.map(\.day).min()!) to \(publications.map(\.day).max()!))"
                + (folder.batches.count > 1 ? "; its files disagree on some day, so each is imported in turn, a later file's figures of a day standing" : ""))
            for batch in folder.batches {
                batches.append(QuoteBatch(
                    provider: key, publications: batch.publications,
                    run: FetchRun(startedAt: started, source: .import, provider: key, file: batch.files.map(\.lastPathComponent).joined(separator: ", "), outcome: .updated)))
            }
        }
        for (file, reason) in refused { progress("refused \(file.lastPathComponent): \(reason)") }
        let ingestor = try importIngestor(database: database, passwordFile: passwordFile)
        progress("validating and writing \(Set(batches.map(\.provider)).count) providers' figures to \(RatesStore.redacted(database))")
        let runs = try ingestor.ingest(batches, notAfter: today.adding(days: 1))
        return ArchiveImport(runs: runs, importedFiles: importedFiles, refused: refused)
    }

    /// A provider's folder read: its files as one batch, or one per file when they disagree on a
    /// day (in name order, so a later file's figures of a day replace an earlier one's), and the files refused.
    private struct ReadFolder: Sendable {
        var key: String
        var batches: [(files: [URL], publications: [ProviderPublication])] = []
        var refused: [(file: URL, reason: String)] = []
    }

    /// Reads each of `files` alone (as a single import would, so a file that is not the provider's
    /// is refused without taking the others with it), then combines them as a fetch combines its answers.
    private static func readFolder(_ files: [URL], of adapter: any RatesProvider, today: Day) -> ReadFolder {
        var folder = ReadFolder(key: adapter.key)
        var parts: [(file: URL, publications: [ProviderPublication])] = []
        for file in files {
            do {
                parts.append((file, try readValid(file, of: adapter, today: today)))
            } catch {
                folder.refused.append((file, "\(error)"))
            }
        }
        guard !parts.isEmpty else { return folder }
        if let combined = try? ProviderClient.combine(parts.map(\.publications)) {
            folder.batches = [(parts.map(\.file), combined)]
        } else {
            folder.batches = parts.map { ([$0.file], $0.publications) }
        }
        return folder
    }

    /// The provider folders of `directory`, in key order, each with its files in name order.
    private static func archiveFolders(in directory: URL) throws -> [(entry: ProviderRegistry.Entry, files: [URL])] {
        let files = FileManager.default
        var folders: [(entry: ProviderRegistry.Entry, files: [URL])] = []
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
        return folders.sorted { $0.entry.key < $1.entry.key }
    }

    /// `file` read by `adapter` and validated as an ingest validates it.
    private static func readValid(_ file: URL, of adapter: any RatesProvider, today: Day) throws -> [ProviderPublication] {
        try ProviderValidation.validate(
            try adapter.publications(inFiles: [file], subjects: [], today: today), notAfter: today.adding(days: 1),
            notBefore: adapter.historyStart)
    }
}

/// An archive to import holds something other than provider folders at its top.
public struct ArchiveLayoutError: Error, CustomStringConvertible {
    /// The name of the file that is not a folder.
    public var name: String

    public var description: String { "\(name) is not a folder: an archive holds one folder per provider, named by its key" }
}
