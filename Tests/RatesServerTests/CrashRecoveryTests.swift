import AsyncHTTPClient
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import RatesCore
import RatesIngest
import RatesServer
import RatesStore
import RatesTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crash proofs: the real executables are killed with SIGKILL at random moments, many times over.
///
/// Each test first measures one clean run to know the window, then kills runs at random
/// moments within it (and a little past it, so "just after the commit" is covered too).
/// After every kill the files are opened as the next process would open them and must hold
/// all or none of the interrupted work, and the next run must finish without help.
///
/// `CRASH_ITERATIONS` sets the kills per test (default 8, for CI); `Scripts/crash-soak.sh N`
/// runs the suite with a large count. The executables come from the same build as the tests
/// (`swift build --build-tests` or `swift test` builds them).
@Suite("Crash recovery", .serialized)
struct CrashRecoveryTests {
    static let iterations = ProcessInfo.processInfo.environment["CRASH_ITERATIONS"].flatMap(Int.init) ?? 8

    /// The kill moments, as fractions of the measured window: the same every run (a fixed seed).
    static func killMoments(seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        return (0..<iterations).map { _ in Double.random(in: 0...1, using: &generator) }
    }

    // MARK: - Full-history import

    @Test("an import killed at any moment leaves the database holding all of the history or none of it, and the next import completes")
    func importKilledAtRandom() async throws {
        let fractions = Self.killMoments(seed: 1)
        guard let history = SeedData.historyURL else {
            Issue.record("the bundled history eurofxref-hist.zip is missing")
            return
        }
        let expectedRates = FakeUpstream.history.reduce(0) { $0 + $1.rates.count }
        let expectedDays = FakeUpstream.history.count

        // One clean run: its duration is the kill window.
        try await TestServer.withTemporaryDirectory { directory in
            let cleanPath = directory.newDatabasePath()
            let started = ContinuousClock.now
            let clean = try Child.launch("rates-relay", ["import", history.path, "--db", cleanPath])
            #expect(try await clean.waitForExit(within: .seconds(120)) == 0, "a clean import succeeds: \(clean.output)")
            let window = (ContinuousClock.now - started).seconds * 1.2
            #expect(try Self.importState(cleanPath) == .all(rates: expectedRates, days: expectedDays))
            directory.removeDatabase(at: cleanPath)

            // Each import after a kill that left nothing runs on the file that kill left, as an operator
            // running the import again would; after one that left everything, on a fresh file.
            var outcomes: [String: Int] = [:]
            var path = directory.newDatabasePath()
            for fraction in fractions {
                if try Self.importState(path) != .none {
                    directory.removeDatabase(at: path)
                    path = directory.newDatabasePath()
                }
                let delay = fraction * window
                let child = try Child.launch("rates-relay", ["import", history.path, "--db", path])
                try await Task.sleep(for: .seconds(delay))
                let finished = try await child.kill()

                // The next process opens the file and finds all or none of the import.
                _ = try RatesStore(path: path)
                #expect(try Self.integrityCheck(path) == "ok", "integrity after a kill at \(delay) s")
                let state = try Self.importState(path)
                switch state {
                case .none where finished: Issue.record("the import exited by itself without importing: \(child.output)")
                case .none: outcomes["none", default: 0] += 1
                case .all(let rates, let days) where rates == expectedRates && days == expectedDays:
                    outcomes[finished ? "all (had finished)" : "all", default: 0] += 1
                default: Issue.record("a kill at \(String(format: "%.3f", delay)) s left a partial import: \(state)")
                }
            }
            // The import run again, uninterrupted, on the file the last kill left completes.
            let again = try Child.launch("rates-relay", ["import", history.path, "--db", path])
            #expect(try await again.waitForExit(within: .seconds(120)) == 0, "the import after the kills succeeds: \(again.output)")
            #expect(try Self.importState(path) == .all(rates: expectedRates, days: expectedDays))
            directory.removeDatabase(at: path)
            print("crash recovery: import killed \(Self.iterations) times in 0–\(String(format: "%.2f", window)) s: \(outcomes)")
        }
    }

    // MARK: - Ingest by a running server

    /// The day the fake ECB publishes during the test: the last day of the real history.
    static let newDay = Day("2026-10-30")!

    @Test("a server killed at any moment of an ingest holds the new day whole or not at all, and a restarted server fetches it on its own")
    func ingestKilledAtRandom() async throws {
        let fractions = Self.killMoments(seed: 2)
        // `rates-relay serve` runs on the real clock, so the ECB is weeks "ahead" of the real
        // history (which ends 2026-10-30). The database holds the real history of 2026 through
        // 2026-10-29; the fake ECB publishes through 2026-10-30. The server, being more than
        // one publication behind, fetches the 90-day file at start: one new day (all its
        // currencies) and 60-odd days it already holds, all in one ingest transaction.
        try await TestServer.withTemporaryDirectory { directory in
            let template = directory.newDatabasePath()
            let held = FakeUpstream.history.filter { $0.day >= Day("2026-01-01")! && $0.day < Self.newDay }
            do {
                let store = try RatesStore(path: template)
                try store.ingest(
                    RatesBatch(base: .euro, days: held), run: FetchRun(startedAt: Date(), source: .seed, provider: "ECB", file: "test", outcome: .updated))
            }
            let heldRates = held.reduce(0) { $0 + $1.rates.count }
            let newDay = try #require(FakeUpstream.history.last { $0.day == Self.newDay })
            let upstream = FakeUpstream(publishedThrough: Self.newDay, firstDay: Day("2026-01-01")!)

            try await upstream.run { url in
                let serve = { (path: String) in
                    try Child.launch("rates-relay", ["serve", "--db", path, "--upstream-url", url, "--host", "127.0.0.1", "--port", "0", "--no-seed"])
                }

                // One clean run: from launch to the new day served is the kill window.
                let cleanPath = try directory.copyOfDatabase(at: template)
                let started = ContinuousClock.now
                let clean = try serve(cleanPath)
                try await Self.waitUntilServing(Self.newDay, clean)
                let window = (ContinuousClock.now - started).seconds * 1.2
                _ = try await clean.kill()
                directory.removeDatabase(at: cleanPath)

                var outcomes: [String: Int] = [:]
                for fraction in fractions {
                    let path = try directory.copyOfDatabase(at: template)
                    let delay = fraction * window
                    let server = try serve(path)
                    try await Task.sleep(for: .seconds(delay))
                    _ = try await server.kill()

                    _ = try RatesStore(path: path)
                    #expect(try Self.integrityCheck(path) == "ok", "integrity after a kill at \(delay) s")
                    let (dayRates, totalRates, runs) = try Self.ingestState(path, day: Self.newDay)
                    if dayRates == 0 && totalRates == heldRates && runs == 0 {
                        outcomes["none", default: 0] += 1
                    } else if dayRates == newDay.rates.count && totalRates == heldRates + dayRates && runs == 1 {
                        outcomes["all", default: 0] += 1
                    } else {
                        Issue.record("""
                            a kill at \(String(format: "%.3f", delay)) s left \(dayRates) rates of \(Self.newDay), \
                            \(totalRates) in all, \(runs) runs
                            """)
                    }

                    // A restart, with no operator action, ends up serving the new day.
                    let restarted = try serve(path)
                    try await Self.waitUntilServing(Self.newDay, restarted)
                    let usd = try await Self.json(restarted, "/v1/latest?symbols=USD")
                    #expect((usd["rates"] as? [String: Any])?["USD"] as? Double == Double(newDay.rates[CurrencyCode("USD")!] ?? ""))
                    _ = try await restarted.kill()
                    #expect(try Self.ingestState(path, day: Self.newDay).dayRates == newDay.rates.count)
                    directory.removeDatabase(at: path)
                }
                print("crash recovery: server killed \(Self.iterations) times in 0–\(String(format: "%.2f", window)) s of start and ingest: "
                    + "\(outcomes); "
                    + "upstream requests: \(Dictionary(upstream.requests.map { ($0, 1) }, uniquingKeysWith: +))")
            }
        }
    }

    // MARK: - SDK sync

    @Test("a `rates sync` killed at any moment leaves the cache as it was (empty, or the bundled snapshot) or equal to the server's data, and the next sync completes")
    func syncKilledAtRandom() async throws {
        let fractions = Self.killMoments(seed: 3)
        // The server holds 2022 to 2026: eight pages of up to 5,000 values, so kills land between pages too.
        try await TestServer.withTemporaryDirectory { directory in
            let database = directory.newDatabasePath()
            let held = FakeUpstream.history.filter { $0.day >= Day("2022-01-01")! }
            try RatesStore(path: database).ingest(
                RatesBatch(base: .euro, days: held), run: FetchRun(startedAt: Date(), source: .seed, provider: "ECB", file: "test", outcome: .updated))
            var values: [String: String] = [:]
            for day in held { for (code, value) in day.rates { values["\(day.day) \(code)"] = value } }
            let serverData = values

            let configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:1/")
            try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                let server = "http://127.0.0.1:\(client.port!)"
                let sync = { (cache: String) in try Child.launch("rates", ["sync", "--server", server, "--cache", cache]) }

                // Two clean runs (the first warms the server's page caches): the second's duration is the kill window.
                var window = 0.0
                for _ in 1...2 {
                    let cleanCache = directory.newDatabasePath()
                    let started = ContinuousClock.now
                    let clean = try sync(cleanCache)
                    #expect(try await clean.waitForExit(within: .seconds(120)) == 0, "a clean sync succeeds: \(clean.output)")
                    window = (ContinuousClock.now - started).seconds * 1.2
                    #expect(try Self.cacheRates(cleanCache) == serverData)
                    directory.removeDatabase(at: cleanCache)
                }

                // Each sync after a kill runs on the cache that kill left, as an app's next launch would;
                // after a kill that left the cache complete, on a fresh cache.
                var outcomes: [String: Int] = [:]
                var cache = directory.newDatabasePath()
                for fraction in fractions {
                    if try !Self.cacheRates(cache).isEmpty {
                        directory.removeDatabase(at: cache)
                        cache = directory.newDatabasePath()
                    }
                    let delay = fraction * window
                    let child = try sync(cache)
                    try await Task.sleep(for: .seconds(delay))
                    let finished = try await child.kill()

                    if FileManager.default.fileExists(atPath: cache) {
                        #expect(try Self.integrityCheck(cache) == "ok", "cache integrity after a kill at \(delay) s")
                    }
                    let visible = try Self.cacheRates(cache)
                    // Before its first sync completes, a cache holds the snapshot the SDK ships (or nothing yet).
                    let bundled = try Self.holdsBundledSnapshot(cache)
                    if (visible.isEmpty || bundled) && finished {
                        Issue.record("the sync exited by itself without filling the cache: \(child.output)")
                    } else if visible.isEmpty || bundled {
                        let state = visible.isEmpty ? "empty" : "the bundled snapshot"
                        outcomes[try Self.stagedValues(cache) > 0 ? "\(state), snapshot half staged" : state, default: 0] += 1
                    } else if visible == serverData {
                        outcomes[finished ? "complete (had finished)" : "complete", default: 0] += 1
                    } else {
                        Issue.record(
                            "a kill at \(String(format: "%.3f", delay)) s left \(visible.count) of \(serverData.count) values visible in the cache")
                    }
                }
                // The next sync, uninterrupted, on the cache the last kill left completes.
                let again = try sync(cache)
                #expect(try await again.waitForExit(within: .seconds(120)) == 0, "the sync after the kills succeeds: \(again.output)")
                #expect(try Self.cacheRates(cache) == serverData, "the cache equals the server's data after the next sync")
                let latest = try Child.launch("rates", ["latest", "--cache", cache])
                #expect(try await latest.waitForExit(within: .seconds(30)) == 0)
                #expect(latest.output.contains("2026-10-30"), "the cache answers with the server's latest day: \(latest.output)")
                directory.removeDatabase(at: cache)
                print("crash recovery: rates sync killed \(Self.iterations) times in 0–\(String(format: "%.2f", window)) s: \(outcomes)")
            }
        }
    }

    // MARK: - Reading the files back

    enum ImportState: Equatable {
        case none
        case all(rates: Int, days: Int)
        case partial(rates: Int, days: Int, changes: Int, runs: Int)
    }

    /// What an import left: nothing, or rates, days, change-log rows and its one `fetchRun` together.
    static func importState(_ path: String) throws -> ImportState {
        guard FileManager.default.fileExists(atPath: path) else { return .none }
        return try DatabaseQueue(path: path).read { db in
            guard try db.tableExists("rate") else { return .none }
            let rates = try Int.fetchOne(db, sql: "SELECT count(*) FROM rate") ?? 0
            let days = try Int.fetchOne(db, sql: "SELECT count(DISTINCT day) FROM rate") ?? 0
            let changes = try Int.fetchOne(db, sql: "SELECT count(*) FROM change") ?? 0
            let runs = try Int.fetchOne(db, sql: "SELECT count(*) FROM fetchRun WHERE source = 'import' AND outcome = 'updated'") ?? 0
            if rates == 0 && changes == 0 && runs == 0 { return .none }
            if changes == rates && runs == 1 { return .all(rates: rates, days: days) }
            return .partial(rates: rates, days: days, changes: changes, runs: runs)
        }
    }

    /// The rates stored for `day`, all rates stored, and the successful upstream runs that brought `day`.
    static func ingestState(_ path: String, day: Day) throws -> (dayRates: Int, totalRates: Int, runs: Int) {
        try DatabaseQueue(path: path).read { db in
            let dayRates = try Int.fetchOne(db, sql: "SELECT count(*) FROM rate WHERE day = ?", arguments: ["\(day)"]) ?? 0
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM rate") ?? 0
            let runs = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM fetchRun WHERE source = 'upstream' AND outcome = 'updated' AND latestDay = ?",
                arguments: ["\(day)"]) ?? 0
            return (dayRates, total, runs)
        }
    }

    /// The values an SDK cache shows (its `rate` table), keyed "day code"; empty when the cache was never created.
    static func cacheRates(_ path: String) throws -> [String: String] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        return try DatabaseQueue(path: path).read { db in
            guard try db.tableExists("rate") else { return [:] }
            var values: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT day, currency, value FROM rate") {
                values["\(row["day"] as String) \(row["currency"] as String)"] = row["value"]
            }
            return values
        }
    }

    /// Whether an SDK cache holds the snapshot it was opened with (`syncState.bundled`), never replaced by a sync.
    static func holdsBundledSnapshot(_ path: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        return try DatabaseQueue(path: path).read { db in
            guard try db.tableExists("syncState"), try db.columns(in: "syncState").contains(where: { $0.name == "bundled" }) else { return false }
            return try Bool.fetchOne(db, sql: "SELECT bundled FROM syncState") ?? false
        }
    }

    /// The values of a snapshot an SDK cache has received but not yet swapped in (its `stagedRate` table).
    static func stagedValues(_ path: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        return try DatabaseQueue(path: path).read { db in
            guard try db.tableExists("stagedRate") else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM stagedRate") ?? 0
        }
    }

    static func integrityCheck(_ path: String) throws -> String? {
        try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
    }

    // MARK: - Talking to a spawned server

    /// Waits until the server's `/v1/status` reports `day` as its latest date; a server that has
    /// exited never will, so that ends the wait at once.
    static func waitUntilServing(_ day: Day, _ server: Child) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let status = try? await json(server, "/v1/status"), status["latestDate"] as? String == "\(day)" { return }
            guard server.process.isRunning else {
                Issue.record("the server exited before it served \(day): \(server.output)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the server never served \(day): \(server.output)")
    }

    /// GET `path` from a spawned server as a JSON object (its port is read from its log).
    static func json(_ server: Child, _ path: String) async throws -> [String: Any] {
        try await server.get(path, timeout: .seconds(5)).json
    }
}

// MARK: - Child processes

/// A spawned executable of this package, its output going to a log file.
final class Child: @unchecked Sendable {
    let process: Process
    let log: URL

    private init(process: Process, log: URL) {
        self.process = process
        self.log = log
    }

    deinit { try? FileManager.default.removeItem(at: log) }

    /// Launches `name` (an executable built next to the test bundle) with `arguments`.
    static func launch(_ name: String, _ arguments: [String]) throws -> Child {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(name)-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = try BuiltExecutable.url(name)
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return Child(process: process, log: log)
    }

    /// What it wrote so far (standard output and error).
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The port a server logged it listens on.
    var listeningPort: Int? {
        guard let range = output.range(of: "listening on 127.0.0.1:") else { return nil }
        return Int(output[range.upperBound...].prefix { $0.isNumber })
    }

    /// Throws ``WaitFailure`` once the process has ended: for the condition of a wait for something
    /// only the running process can bring, which then ends at once.
    func expectRunning() throws {
        guard !process.isRunning else { return }
        let ending = process.terminationReason == .exit ? "exited with status \(process.terminationStatus)" : "was killed by signal \(process.terminationStatus)"
        throw WaitFailure("\(process.executableURL?.lastPathComponent ?? "?") \(ending): \(output)")
    }

    /// Waits for the process to end and returns its exit status (`nil` when killed by a signal).
    func waitForExit(within timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                Issue.record("\(process.executableURL?.lastPathComponent ?? "?") still runs after \(timeout); killing it")
                _ = try await kill()
                return nil
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// The status and JSON body (empty when it is not a JSON object) of `GET path` on this server.
    func get(_ path: String, timeout: TimeAmount = .seconds(30)) async throws -> (status: Int, json: [String: Any]) {
        guard let port = listeningPort else { throw CancellationError() }
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: timeout)
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:])
    }

    /// Sends SIGKILL and waits for the process to be gone; returns whether it had already exited by itself.
    func kill() async throws -> Bool {
        #if canImport(Glibc)
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        #else
        _ = Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
        while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        return process.terminationReason == .exit
    }
}
