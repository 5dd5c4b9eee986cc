import Foundation
import GRDB
import RatesCore
import RatesStore
import RatesTestFixtures
import Synchronization
import Testing

/// The store's contract, run against each database it supports: SQLite and PostgreSQL (on the
/// cluster ``TestPostgres`` names; without one each PostgreSQL case is reported skipped, or fails under CI).
@Suite("Rates store")
struct RatesStoreTests {
    enum Backend: String, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// Both, always: a PostgreSQL case without a cluster is not left out of the run but skipped by
    /// ``withDatabase(_:_:)``, saying why (``TestPostgres/unavailable``), and under CI fails.
    static let backends: [Backend] = [.sqlite, .postgres]

    /// Runs `body` with the location of a new database of `backend` (a file path or a `postgres://`
    /// URL), removed when `body` ends, however it ends. Without a PostgreSQL cluster the `.postgres`
    /// case is skipped, saying why, or fails under CI (``TestPostgres/withDatabase(sourceLocation:_:)``).
    static func withDatabase(_ backend: Backend, _ body: (String) async throws -> Void) async throws {
        switch backend {
        case .sqlite: try await withDatabasePath(body)
        case .postgres: try await TestPostgres.withDatabase(body)
        }
    }

    /// Runs `body` with the path of a new SQLite database in a temporary directory of its own, and
    /// deletes the directory when `body` ends, however it ends.
    static func withDatabasePath(_ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rates-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory.appendingPathComponent("rates.sqlite").path)
    }

    static func batch(_ days: [(String, [String: String])]) -> RatesBatch {
        RatesBatch(base: .euro, days: days.map { day, rates in
            DailyRates(day: Day(day)!, rates: Dictionary(uniqueKeysWithValues: rates.map { (CurrencyCode($0.key)!, $0.value) }))
        })
    }

    static func run(_ file: String = "eurofxref-daily.xml") -> FetchRun {
        FetchRun(startedAt: Date(), source: .upstream, provider: "ECB", file: file, outcome: .updated)
    }

    @Test(
        "an ingest's merge sends its days in runs, each stored as it comes, the run recording every change and the last day; a merge that fails after sending a run stores nothing",
        arguments: backends)
    func mergedRuns(backend: Backend) async throws {
        struct MergeFailed: Error {}
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            let quote = PublishedQuote(currency: CurrencyCode("USD")!, value: "1.1", unit: 1, direction: .unitsPerPivot)
            let batch = QuoteBatch(provider: "NBP", publications: [ProviderPublication(day: Day("2026-03-04")!, quotes: [quote])], run: Self.run())
            #expect(throws: MergeFailed.self) {
                try store.ingest([batch]) { _, runs in
                    runs.send(Self.batch([("2026-03-02", ["USD": "1.1"])]))
                    throw MergeFailed()
                }
            }
            #expect(try store.snapshot().days.isEmpty)
            let recorded = try store.ingest([batch]) { _, runs in
                runs.send(Self.batch([("2026-03-02", ["USD": "1.1", "GBP": "0.83"])]))
                runs.send(Self.batch([]))
                runs.send(Self.batch([("2026-03-03", ["USD": "1.2"]), ("2026-03-04", ["USD": "1.3"])]))
            }
            #expect(recorded.map(\.outcome) == [.updated] && recorded[0].rowsChanged == 4 && recorded[0].latestDay == "2026-03-04")
            let days = try store.snapshot().days
            #expect(days.map(\.day.description) == ["2026-03-02", "2026-03-03", "2026-03-04"])
            #expect(days.map { $0.rate(of: CurrencyCode("USD")!)?.description } == ["1.1", "1.2", "1.3"])
        }
    }

    @Test("a provider publishing in parts adds a later part of a day to what is stored of it; any other provider's publication replaces its day", arguments: backends)
    func publicationsInParts(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            let day = Day("2026-03-04")!
            let quote = { (code: String, value: String) in PublishedQuote(currency: CurrencyCode(code)!, value: value, unit: 1, direction: .pivotPerUnits) }
            let tableA = ProviderPublication(day: day, quotes: [quote("EUR", "4.2304"), quote("USD", "3.677")])
            let tableB = ProviderPublication(day: day, quotes: [quote("AFN", "0.056626")])
            let noMerge: @Sendable (QuoteReader) throws -> RatesBatch = { _ in RatesBatch(base: .euro, days: []) }
            for provider in ["NBP", "CNB"] {
                try store.ingest(provider: provider, publications: [tableA], inParts: provider == "NBP", run: Self.run(), merge: noMerge)
                try store.ingest(provider: provider, publications: [tableB], inParts: provider == "NBP", run: Self.run(), merge: noMerge)
            }
            #expect(try store.publication(of: "NBP", on: day)?.quotes.map(\.currency.rawValue) == ["AFN", "EUR", "USD"])
            #expect(try store.publication(of: "CNB", on: day)?.quotes.map(\.currency.rawValue) == ["AFN"], "a whole day's word: EUR and USD were withdrawn")
        }
    }

    @Test("provider holdings follow every ingest, also one made by another connection to the file", arguments: backends)
    func holdingsFollowIngests(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            let quote = PublishedQuote(currency: CurrencyCode("USD")!, value: "3.677", unit: 1, direction: .pivotPerUnits)
            let noMerge: @Sendable (QuoteReader) throws -> RatesBatch = { _ in RatesBatch(base: .euro, days: []) }
            try store.ingest(provider: "NBP", publications: [ProviderPublication(day: Day("2026-03-04")!, quotes: [quote])], run: Self.run(), merge: noMerge)
            #expect(try store.providerHoldings()["NBP"]?.latestDay == Day("2026-03-04"))
            // Another process's import: a second store on the same file.
            try RatesStore(location: path).ingest(
                provider: "NBP", publications: [ProviderPublication(day: Day("2026-03-05")!, quotes: [quote])], run: Self.run(), merge: noMerge)
            let holdings = try #require(try store.providerHoldings()["NBP"])
            #expect(holdings.latestDay == Day("2026-03-05") && holdings.publicationCount == 2)
        }
    }

    @Test("rates are stored as the published text, trailing zeros included", arguments: backends)
    func exactText(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            try store.ingest(Self.batch([("2026-10-30", ["GBP": "0.83380", "ISK": "136"])]), run: Self.run())
            let day = try #require(try store.snapshot().days.first)
            #expect(day.texts[CurrencyCode("GBP")!] == "0.83380")
            #expect(day.texts[CurrencyCode("ISK")!] == "136")
        }
    }

    @Test(
        "giving back the caches while reads run loses nothing: every read answers in full, and the store ingests and reads after it",
        .timeLimit(.minutes(5)), arguments: backends)
    func releaseMemoryBesideReads(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            try store.ingest(Self.batch([("2026-10-29", ["USD": "1.113"]), ("2026-10-30", ["USD": "1.1172", "GBP": "0.8338"])]), run: Self.run())
            // The reads block: they run on threads of their own, not on the few threads every test's tasks share.
            let days = Mutex(0)
            let readers = (0..<8).map { _ in
                Thread {
                    let seen = (0..<25).reduce(0) { total, _ in total + ((try? store.snapshot().days.count) ?? 0) }
                    days.withLock { $0 += seen }
                }
            }
            readers.forEach { $0.start() }
            for _ in 0..<10 { store.releaseMemory() }
            while readers.contains(where: { !$0.isFinished }) { try await Task.sleep(for: .milliseconds(10)) }
            let reads = days.withLock { $0 }
            #expect(reads == 8 * 25 * 2, "every read saw both days")
            store.releaseMemory()
            let run = try store.ingest(Self.batch([("2026-10-31", ["USD": "1.1201"])]), run: Self.run())
            #expect(run.outcome == .updated && run.rowsChanged == 1)
            #expect(try store.snapshot().days.map(\.day.description) == ["2026-10-29", "2026-10-30", "2026-10-31"])
        }
    }

    @Test("re-ingesting identical data changes nothing but records the run", arguments: backends)
    func idempotent(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            let batch = Self.batch([("2026-10-29", ["USD": "1.113"]), ("2026-10-30", ["USD": "1.1172", "GBP": "0.8338"])])
            let first = try store.ingest(batch, run: Self.run())
            #expect(first.outcome == .updated && first.rowsChanged == 3)
            let version = try store.version()
            let second = try store.ingest(batch, run: Self.run())
            #expect(second.outcome == .unchanged && second.rowsChanged == 0)
            #expect(try store.version() == version)
            #expect(try store.lastRun()?.id == second.id)
        }
    }

    @Test("changes get increasing sequence numbers; a withdrawn value becomes a deletion", arguments: backends)
    func changeLog(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            try store.ingest(Self.batch([("2026-10-30", ["USD": "1.1172", "GBP": "0.8338", "XAU": "0.0003"])]), run: Self.run())
            let corrected = try store.ingest(Self.batch([("2026-10-30", ["USD": "1.1173", "GBP": "0.8338"])]), run: Self.run())
            #expect(corrected.rowsChanged == 2)
            #expect(try store.snapshot().days.first?.texts == [CurrencyCode("USD")!: "1.1173", CurrencyCode("GBP")!: "0.8338"])

            let changes = try store.changeLog(after: 0)
            #expect(changes.map(\.sequence) == [1, 2, 3, 4, 5])
            #expect(changes.suffix(2).map { [$0.currency.rawValue, $0.value ?? "deleted"] }.sorted { $0[0] < $1[0] } == [["USD", "1.1173"], ["XAU", "deleted"]])
            #expect(try store.version() == 5)
        }
    }

    @Test(
        "new days and stored ones log the same: each value once, in day and currency order, with its source; a day already stored is compared",
        arguments: backends)
    func newAndStoredDaysLogAlike(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            let code = { (text: String) in CurrencyCode(text)! }
            let nbp = RateSource(provider: "NBP", day: Day("2026-10-28")!)
            // Days nothing is stored of yet, their currencies given in no particular order.
            let appended = try store.ingest(
                RatesBatch(base: .euro, days: [
                    DailyRates(day: Day("2026-10-30")!, rates: [code("USD"): "1.1172", code("GBP"): "0.8338", code("PLN"): "4.2590"], sources: [code("PLN"): nbp]),
                    DailyRates(day: Day("2026-10-29")!, rates: [code("USD"): "1.113"]),
                ]), run: Self.run())
            #expect(appended.outcome == .updated && appended.rowsChanged == 4)
            // A stored day with one value corrected beside a new day: only what changed is logged.
            let compared = try store.ingest(
                Self.batch([("2026-10-30", ["USD": "1.1173", "GBP": "0.8338", "PLN": "4.2590"]), ("2026-11-02", ["USD": "1.1200"])]), run: Self.run())
            #expect(compared.rowsChanged == 3, "USD corrected, PLN now the ECB's own figure, the new day's USD")
            let log = try store.changeLog(after: 0).map { "\($0.sequence) \($0.day) \($0.currency) \($0.value ?? "-") \($0.source.map { "\($0.provider) \($0.day)" } ?? "")" }
            #expect(log == [
                "1 2026-10-29 USD 1.113 ", "2 2026-10-30 GBP 0.8338 ", "3 2026-10-30 PLN 4.2590 NBP 2026-10-28", "4 2026-10-30 USD 1.1172 ",
                "5 2026-10-30 PLN 4.2590 ", "6 2026-10-30 USD 1.1173 ", "7 2026-11-02 USD 1.1200 ",
            ])
            #expect(try store.version() == 7)
        }
    }

    @Test(
        "a start reads each day as the table stored with its rows, as served (its pegs derived): corrections, withdrawals, sources and a prune included",
        arguments: backends)
    func dayTables(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            let code = { (text: String) in CurrencyCode(text)! }
            let nbp = RateSource(provider: "NBP", day: Day("2026-10-28")!)
            try store.ingest(
                RatesBatch(base: .euro, days: [
                    DailyRates(day: Day("2026-10-29")!, rates: [code("USD"): "1.113", code("PLN"): "4.2590"], sources: [code("PLN"): nbp]),
                    DailyRates(day: Day("2026-10-30")!, rates: [code("USD"): "1.1172", code("GBP"): "0.8338"]),
                ]), run: Self.run())
            // A correction of USD with GBP withdrawn, and a new day.
            try store.ingest(Self.batch([("2026-10-30", ["USD": "1.1173"]), ("2026-11-02", ["USD": "1.1200"])]), run: Self.run())
            try store.ingest(
                RatesBatch(base: .euro, provider: "NBP", days: [DailyRates(day: Day("2026-11-03")!, rates: [code("PLN"): "4.25"])]), run: Self.run())
            var expected = [
                DayTable(day: Day("2026-10-29")!, rates: [code("USD"): "1.113", code("PLN"): "4.2590"], sources: [code("PLN"): nbp]),
                DayTable(day: Day("2026-10-30")!, rates: [code("USD"): "1.1173"]),
                DayTable(day: Day("2026-11-02")!, rates: [code("USD"): "1.1200"]),
                DayTable(
                    day: Day("2026-11-03")!, rates: [code("PLN"): "4.25"], sources: [code("PLN"): RateSource(provider: "NBP", day: Day("2026-11-03")!)]),
            ].map { $0.derivingPegs() }
            // A day another source speaks on serves the euro's pegs (the lev, the CFA francs, …) and, with USD, the dollar's.
            #expect(expected[0].count > 2 && expected[0].rate(of: code("AED")) != nil)
            #expect(expected[1].count == 1, "a day of the ECB's own figures derives nothing")
            #expect(try store.snapshot().days == expected)
            try store.prune(before: Day("2026-10-30")!)
            expected.removeFirst()
            #expect(try store.snapshot().days == expected)
            #expect(try RatesStore(location: path).snapshot().days == expected, "reopened")
        }
    }

    @Test(
        "a database stored before it kept day tables gets them on its next open, and a start reads them; a damaged table is read from the rows instead",
        arguments: backends)
    func dayTablesOfAnOlderDatabase(backend: Backend) async throws {
        try await Self.withDatabase(backend) { location in
            try RatesStore(location: location).ingest(
                Self.batch([("2026-10-29", ["USD": "1.113"]), ("2026-10-30", ["USD": "1.1172", "GBP": "0.8338"])]), run: Self.run())
            let expected = try RatesStore(location: location).snapshot().days
            #expect(expected.map(\.count) == [1, 2])
            let table = backend == .sqlite ? "dayTable" : "day_table"
            // As a database stored before the tables: none, and the mark the migration leaves.
            try await Self.execute("DELETE FROM \(table)", in: location, backend)
            try await Self.execute("INSERT INTO meta (key, value) VALUES ('dayTables', 'missing')", in: location, backend)
            #expect(try RatesStore(location: location).snapshot().days == expected)
            // A row changed behind the store's back does not show: the start read the tables the open wrote.
            try await Self.execute("UPDATE rate SET value = '9.99' WHERE day = '2026-10-30' AND currency = 'USD'", in: location, backend)
            #expect(try RatesStore(location: location).snapshot().days == expected)
            // A table that does not decode: the start reads the rows, changed row included.
            let damaged = backend == .sqlite ? "x'01ff'" : "'\\x01ff'::bytea"
            try await Self.execute("UPDATE \(table) SET rates = \(damaged) WHERE day = '2026-10-30'", in: location, backend)
            let read = try RatesStore(location: location).snapshot().days
            #expect(read.first == expected.first)
            #expect(read.last?.texts == [CurrencyCode("USD")!: "9.99", CurrencyCode("GBP")!: "0.8338"])
        }
    }

    @Test("day tables written without the pegs their days derive are written again, as served, on the next open", arguments: backends)
    func dayTablesWithoutPegs(backend: Backend) async throws {
        try await Self.withDatabase(backend) { location in
            let code = { (text: String) in CurrencyCode(text)! }
            let day = Day("2026-10-29")!
            let rates = [code("USD"): "1.113", code("PLN"): "4.2590"]
            let sources = [code("PLN"): RateSource(provider: "NBP", day: Day("2026-10-28")!)]
            try RatesStore(location: location).ingest(
                RatesBatch(base: .euro, days: [DailyRates(day: day, rates: rates, sources: sources)]), run: Self.run())
            let served = DayTable(day: day, rates: rates, sources: sources).derivingPegs()
            #expect(try RatesStore(location: location).snapshot().days == [served])
            // As a database whose tables were written before they held the pegs: the table as merged, and no record of the migration.
            let merged = DayTable(day: day, rates: rates, sources: sources).encoded.map { String(format: "%02x", $0) }.joined()
            let (table, bytes, migrations) = backend == .sqlite
                ? ("dayTable", "x'\(merged)'", "DELETE FROM grdb_migrations WHERE identifier = 'v5-day-tables-as-served'")
                : ("day_table", "'\\x\(merged)'::bytea", "DELETE FROM schema_migration WHERE name = 'v3-day-tables-as-served'")
            try await Self.execute("UPDATE \(table) SET rates = \(bytes)", in: location, backend)
            try await Self.execute(migrations, in: location, backend)
            #expect(try RatesStore(location: location).snapshot().days == [served])
        }
    }

    /// Runs one SQL statement on the database at `location` behind the store's back.
    static func execute(_ sql: String, in location: String, _ backend: Backend) async throws {
        switch backend {
        case .sqlite: try await DatabaseQueue(path: location).write { db in try db.execute(sql: sql) }
        case .postgres: try await TestPostgres.execute(sql, in: location)
        }
    }

    @Test("each database gets its own random epoch, kept across reopening", arguments: backends)
    func epoch(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let first = try RatesStore(location: path).epoch
            #expect(first.count == 16)
            #expect(try RatesStore(location: path).epoch == first)
            try await Self.withDatabase(backend) { other in
                let otherEpoch = try RatesStore(location: other).epoch
                #expect(otherEpoch != first)
            }
        }
    }

    @Test("the SQLite database runs in WAL mode")
    func walMode() async throws {
        try await Self.withDatabasePath { path in
            _ = try RatesStore(location: path)
            let mode = try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(mode == "wal")
        }
    }

    @Test("failed runs are recorded with their reason and store nothing; the last good run keeps its validators", arguments: backends)
    func failedRuns(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            var good = Self.run()
            good.etag = "\"abc\""
            good.httpStatus = 200
            try store.ingest(Self.batch([("2026-10-30", ["USD": "1.1172"])]), run: good)
            try store.record(FetchRun(startedAt: Date(), source: .upstream, provider: "ECB", file: "eurofxref-daily.xml", httpStatus: 500, outcome: .failed, detail: "HTTP 500"))
            #expect(try store.lastRun()?.outcome == .failed)
            #expect(try store.lastRun()?.detail == "HTTP 500")
            #expect(try store.lastSuccessfulRun()?.etag == "\"abc\"")
            #expect(try store.version() == 1)
        }
    }

    @Test("each provider's last run and last good run, read at once, are those read one provider at a time", arguments: backends)
    func lastRunsByProvider(backend: Backend) async throws {
        try await Self.withDatabase(backend) { path in
            let store = try RatesStore(location: path)
            let record = { (provider: String, source: FetchRun.Source, outcome: FetchRun.Outcome) in
                try store.record(FetchRun(startedAt: Date(), source: source, provider: provider, file: "\(provider).xml", outcome: outcome, detail: "\(outcome)"))
            }
            try record("NBP", .upstream, .updated)
            try record("NBP", .upstream, .failed)
            try record("CNB", .upstream, .rejected)
            try record("CNB", .import, .updated)
            try record("BOE", .upstream, .notModified)
            try record("BOE", .upstream, .unchanged)
            let runs = try store.lastRunsByProvider(source: .upstream)
            #expect(runs.last.mapValues(\.outcome) == ["NBP": .failed, "CNB": .rejected, "BOE": .unchanged])
            #expect(runs.successful.mapValues(\.outcome) == ["NBP": .updated, "BOE": .unchanged], "the CNB's import is not an upstream run")
            for provider in ["NBP", "CNB", "BOE"] {
                #expect(runs.last[provider]?.id == (try store.lastRun(source: .upstream, provider: provider)?.id))
                #expect(runs.successful[provider]?.id == (try store.lastSuccessfulRun(source: .upstream, provider: provider)?.id))
            }
        }
    }

    @Test("a file that is not a database is refused with an error, not a crash")
    func notADatabase() async throws {
        try await Self.withDatabasePath { path in
            try Data("this is not sqlite, just text that is long enough to look like a header".utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: (any Error).self) { try RatesStore(location: path) }
        }
    }
}
