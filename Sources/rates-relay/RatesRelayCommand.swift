import ArgumentParser
import Foundation
import Hummingbird
import Logging
import RatesCore
import RatesServer
import RatesStore

/// `rates-relay`: serve, fetch, import and inspect ECB reference rates.
@main
struct RatesRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates-relay",
        abstract: "A self-hosted mirror of the ECB's euro reference rates, served as JSON.",
        subcommands: [Serve.self, Fetch.self, Import.self, Status.self, Prune.self, Rebuild.self],
        defaultSubcommand: Serve.self)
}

/// Options shared by the commands that touch the database and the upstream.
///
/// Each option falls back to an environment variable, then to its default.
struct CommonOptions: ParsableArguments {
    @Option(help: "SQLite database file (env DB, default rates.sqlite).")
    var db: String?

    @Option(name: .customLong("upstream-url"), help: "Directory of the ECB files (env UPSTREAM_URL).")
    var upstreamURL: String?

    func apply(to configuration: inout ServerConfiguration) {
        let environment = ProcessInfo.processInfo.environment
        if let path = db ?? environment["DB"] { configuration.databasePath = path }
        if let url = upstreamURL ?? environment["UPSTREAM_URL"] { configuration.upstreamURL = url }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP server (fetches on the ECB's publication schedule).")

    @Option(help: "Address to listen on (env HOST, default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (env PORT, default 8080).")
    var port: Int?

    @Option(name: .customLong("admin-token"), help: "Bearer token for POST /v1/admin/refresh (env ADMIN_TOKEN; off when unset).")
    var adminToken: String?

    @Flag(name: .customLong("no-seed"), help: "Keep an empty database empty until the first fetch (no bundled history).")
    var noSeed = false

    @Flag(name: .customLong("no-schedule"), help: "Do not fetch on a schedule; only on POST /v1/admin/refresh.")
    var noSchedule = false

    @Option(name: .customLong("cors-origins"), help: "Browser origins allowed to call, comma-separated, or * (env CORS_ORIGINS; default none).")
    var corsOrigins: String?

    @Option(name: .customLong("api-keys-file"), help: "File of client API keys, one a line; /v1/ then needs X-API-Key (env API_KEYS_FILE, or API_KEYS=k1,k2).")
    var apiKeysFile: String?

    @Option(name: .customLong("rate-limit"), help: "Requests per second each client may send to /v1/ (env RATE_LIMIT; default unlimited).")
    var rateLimit: Double?

    @Option(name: .customLong("rate-limit-burst"), help: "Requests a client may send at once (env RATE_LIMIT_BURST; default 60).")
    var rateLimitBurst: Int?

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = ServerConfiguration()
        common.apply(to: &configuration)
        if let host = host ?? environment["HOST"] { configuration.host = host }
        if let port = try port ?? environment["PORT"].map(parsePort) { configuration.port = port }
        configuration.adminToken = (adminToken ?? environment["ADMIN_TOKEN"]).flatMap { $0.isEmpty ? nil : $0 }
        configuration.seed = !noSeed
        configuration.schedule = !noSchedule
        if let origins = corsOrigins ?? environment["CORS_ORIGINS"] { configuration.corsOrigins = Self.list(origins) }
        if let path = apiKeysFile ?? environment["API_KEYS_FILE"] {
            do {
                configuration.apiKeys = Set(try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
            } catch {
                throw ValidationError("cannot read the API keys file '\(path)': \(error.localizedDescription)")
            }
        } else if let keys = environment["API_KEYS"] {
            configuration.apiKeys = Set(Self.list(keys))
        }
        if let rate = try rateLimit ?? environment["RATE_LIMIT"].map({ try Self.number($0, "RATE_LIMIT") }) {
            guard rate > 0 else { throw ValidationError("the rate limit must be above 0 requests per second.") }
            configuration.rateLimit = rate
        }
        if let burst = try rateLimitBurst ?? environment["RATE_LIMIT_BURST"].map({ Int(try Self.number($0, "RATE_LIMIT_BURST")) }) {
            guard burst >= 1 else { throw ValidationError("the rate limit burst must be at least 1.") }
            configuration.rateLimitBurst = burst
        }
        let app = try buildApplication(configuration, logger: makeLogger())
        try await app.runService()
    }

    /// `a, b,,c` → `["a", "b", "c"]`.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func number(_ text: String, _ name: String) throws -> Double {
        guard let value = Double(text), value.isFinite else { throw ValidationError("\(name) must be a number; got '\(text)'.") }
        return value
    }

    private func parsePort(_ text: String) throws -> Int {
        guard let port = Int(text), (0...65535).contains(port) else { throw ValidationError("PORT must be a number from 0 to 65535; got '\(text)'.") }
        return port
    }
}

struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Fetch from the upstream once and exit (non-zero when the fetch fails).")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        var configuration = ServerConfiguration()
        common.apply(to: &configuration)
        let run = try await Operations.fetch(configuration, logger: makeLogger())
        print("\(run.file): \(run.outcome.rawValue)" + (run.httpStatus.map { ", HTTP \($0)" } ?? "") + ", \(run.rowsChanged) rates changed"
            + (run.latestDay.map { ", latest \($0)" } ?? "") + (run.detail.map { "\n\($0)" } ?? ""))
        if !run.outcome.isSuccess { throw ExitCode.failure }
    }
}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load an ECB history file (eurofxref-hist.xml, .csv or the ECB's .zip) into the database.")

    @Argument(help: "The file to import.")
    var file: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        var configuration = ServerConfiguration()
        common.apply(to: &configuration)
        let started = Date()
        let run = try Operations.importHistory(from: URL(fileURLWithPath: file), databasePath: configuration.databasePath) { message in
            print(message)
        }
        print("done in \(String(format: "%.2f", Date().timeIntervalSince(started))) s: \(run.outcome.rawValue), \(run.rowsChanged) rates changed, latest \(run.latestDay ?? "-")")
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print what the database holds.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        var configuration = ServerConfiguration()
        common.apply(to: &configuration)
        print(try Operations.describe(databasePath: configuration.databasePath))
    }
}

struct Prune: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete rates before a date (retention); sync clients receive the deletions.")

    @Option(help: "Keep rates from this date on (YYYY-MM-DD).")
    var before: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        guard let day = Day(before) else { throw ValidationError("--before must be a date written YYYY-MM-DD; got '\(before)'.") }
        var configuration = ServerConfiguration()
        common.apply(to: &configuration)
        let run = try Operations.prune(databasePath: configuration.databasePath, before: day)
        print("removed \(run.rowsChanged) rates before \(day)")
    }
}

struct Rebuild: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild the database file under a new epoch (stop the server first); sync clients reset.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        var configuration = ServerConfiguration()
        common.apply(to: &configuration)
        let epochs = try Operations.rebuild(databasePath: configuration.databasePath)
        print("rebuilt \(configuration.databasePath): epoch \(epochs.old) → \(epochs.new)")
    }
}

/// The process-wide logger: stderr, level from `LOG_LEVEL` (default info).
func makeLogger() -> Logger {
    LoggingSystem.bootstrap(StreamLogHandler.standardError)
    var logger = Logger(label: "rates-relay")
    logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    return logger
}
