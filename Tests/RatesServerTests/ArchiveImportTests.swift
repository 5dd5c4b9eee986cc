import Foundation
import RatesCore
import RatesStore
import RatesTestFixtures
import RatesTestSupport
import Testing

@Suite("Importing an archive of many providers' files: rates-relay import --archive", .serialized)
struct ArchiveImportTests {
    /// The recorded files of an archive, by provider folder: the NBP's tables A and B (one publication a
    /// day together), the Bank of Russia, a Czech file of 2000, two BCB files that name their currency only
    /// in their file names, and the CNB's folder also holding a file that is not the CNB's.
    static let archive: [(folder: String, fixtures: [String])] = [
        ("NBP", ["nbp-poland/tables_A_2026-03-01_2026-03-05.json", "nbp-poland/tables_B_2026-03-01_2026-03-05.json"]),
        ("cbr", ["cbr-russia/XML_daily_2026-04-25.xml"]),
        ("CNB", ["cnb-czech/denni_kurz_2000-04-21.txt", "cbr-russia/XML_daily_2026-04-25.xml"]),
        ("BCB", ["bcb-brazil/PTAX_CotacaoMoedaPeriodo_CHF_2026-03-01_2026-03-06.json",
                 "bcb-brazil/PTAX_CotacaoMoedaPeriodo_USD_2026-03-01_2026-03-06.json"]),
    ]

    /// Lays out `archive` under `directory`: a folder per provider holding copies of its files.
    static func layOut(_ archive: [(folder: String, fixtures: [String])], under directory: URL) throws -> URL {
        let root = directory.appendingPathComponent("archive", isDirectory: true)
        for (folder, fixtures) in archive {
            let target = root.appendingPathComponent(folder, isDirectory: true)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for fixture in fixtures {
                let file = Fixtures.url(fixture)
                try FileManager.default.copyItem(at: file, to: target.appendingPathComponent(file.lastPathComponent))
            }
        }
        return root
    }

    /// A second copy of the SQLite database at `path` (its WAL included), at `path` with `suffix`.
    static func copy(of path: String, suffix: String) throws -> String {
        for extra in ["", "-wal"] where FileManager.default.fileExists(atPath: path + extra) {
            try FileManager.default.copyItem(atPath: path + extra, toPath: path + suffix + extra)
        }
        return path + suffix
    }

    @Test("an archive merges to exactly what importing its providers one by one does, and leaves out only the file its folder's provider cannot read")
    func archiveEqualsOneByOne() async throws {
        try await TestServer.withSeededDatabase { database in
            let oneByOne = try Self.copy(of: database, suffix: "-one-by-one")
            let directory = URL(fileURLWithPath: database).deletingLastPathComponent()
            let root = try Self.layOut(Self.archive, under: directory)

            let archived = try await ProviderImportTests.runImport(["--archive", root.path, "--db", database])
            #expect(archived.status == 0, "\(archived.output)")
            #expect(archived.output.contains("4 providers, 6 files imported, 1 refused"), "\(archived.output)")
            #expect(archived.output.contains("refused XML_daily_2026-04-25.xml: the file is not an answer of CNB's"), "\(archived.output)")

            for (folder, fixtures) in Self.archive {
                let readable = folder == "CNB" ? Array(fixtures.prefix(1)) : fixtures
                let run = try await ProviderImportTests.runImport(
                    ["--provider", folder] + readable.map { Fixtures.url($0).path } + ["--db", oneByOne])
                #expect(run.status == 0, "\(folder): \(run.output)")
            }

            let store = try RatesStore(path: database)
            let expected = try RatesStore(path: oneByOne).snapshot()
            let merged = try store.snapshot()
            #expect(merged.days.count == expected.days.count)
            #expect(merged.days == expected.days)
            #expect(ProviderImportTests.merged("RUB", on: "2026-04-25", in: merged) == "88.2826")
            #expect(ProviderImportTests.merged("ITL", on: "2000-04-21", in: merged) == "1936.25880845611787")
            #expect(try store.latestPublication(of: "BCB")?.quotes.map(\.currency.rawValue) == ["CHF", "USD"])

            // One import run per provider, naming its files; the runs of the one transaction share its count.
            let nbp = try #require(try store.lastRun(source: .import, provider: "NBP"))
            #expect(nbp.file == "tables_A_2026-03-01_2026-03-05.json, tables_B_2026-03-01_2026-03-05.json")
            let cnb = try #require(try store.lastRun(source: .import, provider: "CNB"))
            #expect(cnb.file == "denni_kurz_2000-04-21.txt" && cnb.outcome == .updated && cnb.rowsChanged == nbp.rowsChanged)
        }
    }

    @Test("into PostgreSQL an archive stores every provider's figures and runs in one transaction, and merges to what it does in SQLite")
    func archiveIntoPostgres() async throws {
        try await TestPostgres.withDatabase { url in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archive-import-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let root = try Self.layOut(Self.archive, under: directory)
            let sqlite = directory.appendingPathComponent("rates.sqlite").path
            for database in [url, sqlite] {
                let run = try await ProviderImportTests.runImport(["--archive", root.path, "--db", database])
                #expect(run.status == 0, "\(run.output)")
                #expect(run.output.contains("4 providers, 6 files imported, 1 refused"), "\(run.output)")
            }

            let postgres = try RatesStore(location: url)
            let reference = try RatesStore(path: sqlite)
            let stored = try postgres.snapshot()
            #expect(!stored.days.isEmpty)
            let expected = try reference.snapshot()
            #expect(stored.days == expected.days)
            // No ECB here: the Bank of Russia's own EUR figure gives RUB per EUR.
            #expect(ProviderImportTests.merged("RUB", on: "2026-04-25", in: stored) == "88.2826")
            for key in ["NBP", "CBR", "CNB", "BCB"] {
                let publication = try postgres.latestPublication(of: key)
                let expected = try reference.latestPublication(of: key)
                #expect(publication != nil && publication == expected, "\(key)")
            }
            let nbp = try #require(try postgres.lastRun(source: .import, provider: "NBP"))
            let cnb = try #require(try postgres.lastRun(source: .import, provider: "CNB"))
            #expect(nbp.rowsChanged > 0 && cnb.outcome == .updated && cnb.rowsChanged == nbp.rowsChanged)
        }
    }

    @Test("a folder that names no provider, or a file beside the folders, exits non-zero, says why, and stores nothing")
    func refusesAnArchiveOfUnknownFolders() async throws {
        try await TestServer.withSeededDatabase { database in
            let directory = URL(fileURLWithPath: database).deletingLastPathComponent()
            let version = try RatesStore(path: database).version()
            let unknown = try Self.layOut([("XYZ", ["cbr-russia/XML_daily_2026-04-25.xml"]), ("CBR", ["cbr-russia/XML_daily_2026-04-25.xml"])], under: directory)
            let run = try await ProviderImportTests.runImport(["--archive", unknown.path, "--db", database])
            #expect(run.status != 0 && run.status != nil)
            #expect(run.output.contains("no provider has the key \"XYZ\""), "\(run.output)")

            try FileManager.default.removeItem(at: unknown.appendingPathComponent("XYZ"))
            try FileManager.default.copyItem(at: Fixtures.url("cbr-russia/XML_daily_2026-04-25.xml"), to: unknown.appendingPathComponent("loose.xml"))
            let loose = try await ProviderImportTests.runImport(["--archive", unknown.path, "--db", database])
            #expect(loose.status != 0 && loose.status != nil)
            #expect(loose.output.contains("loose.xml is not a folder"), "\(loose.output)")
            #expect(try RatesStore(path: database).version() == version)
        }
    }
}
