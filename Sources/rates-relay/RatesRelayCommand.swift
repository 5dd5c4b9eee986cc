import ArgumentParser
import Configuration
import Foundation
import Hummingbird
import Logging
import RatesCore
import RatesIngest
import RatesServer
import RatesStore
import SystemPackage

/// `rates-relay`: serve, fetch, import and inspect the rates of the ECB and other central banks.
@main
struct RatesRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates-relay",
        abstract: "A self-hosted exchange-rate aggregator: the ECB and other central banks, merged and served as JSON with delta sync.",
        subcommands: [Serve.self, Fetch.self, Import.self, Export.self, Status.self, Prune.self, Rebuild.self],
        defaultSubcommand: Serve.self)
}

/// The settings' table (``ServerConfiguration/keys``): each flag's name, help and key come from it.
typealias Key = ServerConfiguration.Key

/// Options shared by every command: where the database and the upstream are, and the config file.
///
/// Settings are layered: a flag wins over its environment variable, which wins over the
/// config file (`--config`, JSON), which wins over the default. README lists every key.
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong(Key.db.flagName), help: ArgumentHelp(
            Key.db.help(
                "SQLite database file, or a postgres:// URL shared by several replicas",
                default: "or \(Key.databaseURL.environment); default \(Key.db.defaultValue ?? "")")))
    var db: String?

    @Option(name: .customLong(Key.dbPasswordFile.flagName), help: ArgumentHelp(Key.dbPasswordFile.help("File holding the PostgreSQL password, instead of one in the URL")))
    var dbPasswordFile: String?

    @Option(name: .customLong(Key.upstreamURL.flagName), help: ArgumentHelp(Key.upstreamURL.help("Directory of the ECB files")))
    var upstreamURL: String?

    @Option(
        name: .customLong(Key.upstream.flagName),
        help: ArgumentHelp(
            "Send provider KEY's requests to URL instead (repeatable; env \(Key.upstream.environment)=KEY=URL,KEY=URL).",
            discussion: "Each request keeps its path and query, gets URL's scheme, host and port, and its path prefixed with URL's path: "
                + "--upstream NBP=http://127.0.0.1:8081/nbp asks http://127.0.0.1:8081/nbp/api/exchangerates/... "
                + "ECB=URL applies to the files in --upstream-url.",
            valueName: "KEY=URL"))
    var upstream: [String] = []

    @Option(help: "JSON config file with any of the settings (env CONFIG_FILE); flags and environment win over it.")
    var config: String?

    /// The settings from the flags given (`extra` holds a command's own), the environment and the config file.
    func configuration(_ extra: [String: ConfigContent?] = [:]) async throws -> ServerConfiguration {
        var flags: [AbsoluteConfigKey: ConfigValue] = [:]
        let upstreamPairs = upstream.flatMap(Serve.list)
        let common: [String: ConfigContent?] = [
            Key.db.name: db.map(ConfigContent.string), Key.dbPasswordFile.name: dbPasswordFile.map(ConfigContent.string),
            Key.upstreamURL.name: upstreamURL.map(ConfigContent.string),
            Key.upstream.name: upstreamPairs.isEmpty ? nil : .stringArray(upstreamPairs),
        ]
        let given = extra.merging(common) { first, _ in first }
        for (key, content) in given {
            guard let content else { continue }
            let isSecret = ServerConfiguration.keys.first { $0.name == key }?.isSecret ?? false
            flags[AbsoluteConfigKey(stringLiteral: key)] = ConfigValue(content, isSecret: isSecret)
        }
        let environment = EnvironmentVariablesProvider(
            secretsSpecifier: .specific(Set(ServerConfiguration.keys.filter(\.isSecret).map(\.environment))))
        var providers: [any ConfigProvider] = [InMemoryProvider(name: "flags", values: flags), environment]
        if let path = config ?? ProcessInfo.processInfo.environment["CONFIG_FILE"] {
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(path)))
            } catch {
                throw ValidationError("cannot read the config file '\(path)': \(error)")
            }
        }
        do {
            return try await ServerConfiguration(reading: ConfigReader(providers: providers))
        } catch {
            throw ValidationError(error.description)
        }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP server (fetches each source on its publication schedule).")

    @Option(name: .customLong(Key.host.flagName), help: ArgumentHelp(Key.host.help("Address to listen on")))
    var host: String?

    @Option(name: .customLong(Key.port.flagName), help: ArgumentHelp(Key.port.help("Port to listen on")))
    var port: Int?

    @Option(name: .customLong(Key.adminToken.flagName), help: ArgumentHelp(Key.adminToken.help("Bearer token for POST /v1/admin/refresh", default: "off when unset")))
    var adminToken: String?

    @Flag(name: .customLong(Key.seed.flagName), help: "Do not seed a database holding none of the ECB's publications from the bundled ECB history.")
    var noSeed = false

    @Flag(name: .customLong(Key.schedule.flagName), help: "Do not fetch on a schedule; only on POST /v1/admin/refresh.")
    var noSchedule = false

    @Option(
        name: .customLong(Key.corsOrigins.flagName),
        help: ArgumentHelp(Key.corsOrigins.help("Browser origins allowed to call, comma-separated, or *", default: "default * without API keys, none with them")))
    var corsOrigins: String?

    @Option(
        name: .customLong(Key.apiKeysFile.flagName),
        help: ArgumentHelp(Key.apiKeysFile.help("File of client API keys, one a line; /v1/ then needs X-API-Key", default: "or \(Key.apiKeys.environment)=k1,k2")))
    var apiKeysFile: String?

    @Option(name: .customLong(Key.rateLimit.flagName), help: ArgumentHelp(Key.rateLimit.help("Requests per second each client may send to /v1/", default: "default unlimited")))
    var rateLimit: Double?

    @Option(name: .customLong(Key.rateLimitBurst.flagName), help: ArgumentHelp(Key.rateLimitBurst.help("Requests a client may send at once")))
    var rateLimitBurst: Int?

    @Option(
        name: .customLong(Key.providers.flagName),
        help: ArgumentHelp(Key.providers.help("Providers fetched besides the ECB, comma-separated keys, or none", default: "default every provider that needs no API key")))
    var providers: String?

    @OptionGroup var common: CommonOptions

    @Option(name: .customLong(Key.adminTokenFile.flagName), help: ArgumentHelp(Key.adminTokenFile.help("File holding the admin token, which wins over --admin-token")))
    var adminTokenFile: String?

    @Option(name: .customLong(Key.logLevel.flagName), help: ArgumentHelp(Key.logLevel.help("trace, debug, info, notice, warning, error or critical")))
    var logLevel: String?

    @Option(name: .customLong(Key.logFormat.flagName), help: ArgumentHelp(Key.logFormat.help("text or json, one object a line")))
    var logFormat: String?

    func run() async throws {
        var flags: [String: ConfigContent?] = [
            Key.host.name: host.map(ConfigContent.string), Key.port.name: port.map(ConfigContent.int),
            Key.adminToken.name: adminToken.map(ConfigContent.string), Key.adminTokenFile.name: adminTokenFile.map(ConfigContent.string),
            Key.corsOrigins.name: corsOrigins.map { .stringArray(Self.list($0)) }, Key.apiKeysFile.name: apiKeysFile.map(ConfigContent.string),
            Key.rateLimit.name: rateLimit.map(ConfigContent.double), Key.rateLimitBurst.name: rateLimitBurst.map(ConfigContent.int),
            Key.logLevel.name: logLevel.map(ConfigContent.string), Key.logFormat.name: logFormat.map(ConfigContent.string),
            Key.providers.name: providers.map { .stringArray(Self.list($0)) },
        ]
        if noSeed { flags[Key.seed.name] = .bool(false) }
        if noSchedule { flags[Key.schedule.name] = .bool(false) }
        let configuration = try await common.configuration(flags)
        Allocator.configureForLongRunningServer()
        let app = try buildApplication(configuration, logger: makeLogger(configuration))
        try await app.runService()
    }

    /// `a, b,,c` → `["a", "b", "c"]`.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch every enabled source once and exit (non-zero when a fetch fails).",
        discussion: "One line per source: the ECB, then each provider --providers enables.")

    @OptionGroup var common: CommonOptions

    @Option(
        name: .customLong(Key.providers.flagName),
        help: ArgumentHelp(Key.providers.help("Providers fetched besides the ECB, comma-separated keys, or none", default: "default every provider that needs no API key")))
    var providers: String?

    func run() async throws {
        let configuration = try await common.configuration([Key.providers.name: providers.map { .stringArray(Serve.list($0)) }])
        let logger = makeLogger(configuration)
        let runs = try await Operations.fetch(into: configuration.openStore(logger: logger), settings: configuration.fetchSettings, logger: logger)
        for run in runs {
            print("\(run.provider) \(run.file): \(run.outcome.rawValue)" + (run.httpStatus.map { ", HTTP \($0)" } ?? "")
                + ", \(run.rowsChanged) rates changed" + (run.latestDay.map { ", latest \($0)" } ?? "") + (run.detail.map { "\n  \($0)" } ?? ""))
        }
        if !runs.allSatisfy(\.outcome.isSuccess) { throw ExitCode.failure }
    }
}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load a provider's published files into the database: an ECB history file unless --provider says otherwise.",
        discussion: """
            ECB (the default): eurofxref-hist.xml, eurofxref-hist.csv or the ECB's eurofxref-hist.zip, or any eurofxref XML file.
            Another provider: files as its endpoint answers them (NBP's tables JSON, the CNB's denni_kurz.txt, ...), read by the
            same parser, checked by the same validation and stored by the same ingest as a fetch, recorded as an import. Give
            every answer of one publication at once (the NBP's tables A and B): a provider's figures of a day are replaced as a whole.
            Files that are not valid store nothing and exit non-zero.

            Many providers at once: --archive DIR, a directory of one folder per provider named by its key (ECB/, NBP/, ...).
            Every provider's files are stored in one transaction and each day they touch is merged once, far faster than one
            import per provider. A file its folder's provider cannot read, or that holds no valid publication, is left out and
            listed; the rest is imported.
            """)

    @Option(help: "The provider whose files they are, by key (ECB, NBP, CNB, CBR, ...).")
    var provider = ProviderKey.ecb

    @Option(help: ArgumentHelp(
        "What the files answer, for providers with one request per currency or series (BCB: USD; FRED: DEXUSEU).",
        discussion: """
            Once for every file, or once per file in the files' order (--subject USD --subject CHF usd.json chf.json). \
            Without it, a file that does not say what it answers is taken to answer the one currency or series its name \
            names as a word (PTAX_USD_2026-03-02.json).
            """))
    var subject: [String] = []

    @Option(help: "A directory of one folder per provider, named by its key, to import instead of FILES.")
    var archive: String?

    @Argument(help: "The files to import.")
    var files: [String] = []

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if archive != nil {
            guard files.isEmpty, subject.isEmpty, provider == ProviderKey.ecb else {
                throw ValidationError("--archive takes no files, --provider or --subject: its folders name their providers.")
            }
        } else if files.isEmpty {
            throw ValidationError("Give the files to import, or --archive DIR.")
        }
        if subject.count > 1, subject.count != files.count {
            throw ValidationError("--subject is given once for every file or once per file; got \(subject.count) for \(files.count) files.")
        }
    }

    func run() async throws {
        let configuration = try await common.configuration()
        let started = Date()
        let elapsed = { String(format: "%.2f", Date().timeIntervalSince(started)) }
        if let archive {
            let imported = try Operations.importArchive(
                at: URL(fileURLWithPath: archive, isDirectory: true), database: configuration.database,
                passwordFile: configuration.databasePasswordFile) { print($0) }
            let outcome = imported.runs.last.map { "\($0.outcome.rawValue), \($0.rowsChanged) rates changed" } ?? "nothing to import"
            print("done in \(elapsed()) s: \(Set(imported.runs.map(\.provider)).count) providers, \(imported.importedFiles) files imported, "
                + "\(imported.refused.count) refused; \(outcome)")
            return
        }
        let urls = files.map { URL(fileURLWithPath: $0) }
        // One subject is every file's.
        let subjects = subject.count == 1 ? Array(repeating: subject[0], count: urls.count) : subject
        let run = try Operations.importPublications(
            of: provider, subjects: subjects, from: urls, database: configuration.database, passwordFile: configuration.databasePasswordFile) { print($0) }
        print("done in \(elapsed()) s: \(run.outcome.rawValue), \(run.rowsChanged) rates changed, latest \(run.latestDay ?? "-")")
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print what the database holds.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let configuration = try await common.configuration()
        print(try Operations.describe(database: configuration.database, passwordFile: configuration.databasePasswordFile))
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the newest publication as the snapshot an app bundles with RatesClient (a /v1/sync page).",
        discussion: "RatesClient answers from a bundled snapshot at first launch, offline, until its first sync replaces it. "
            + "Scripts/bundle-rates.sh refreshes the one RatesClient ships.")

    @Flag(help: "Export the newest publication, every currency with its source (the only export there is).")
    var snapshot = false

    @Option(help: "The file to write.")
    var output: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        guard snapshot else { throw ValidationError("Say what to export: --snapshot.") }
        let configuration = try await common.configuration()
        let store = try RatesStore(location: configuration.database, passwordFile: configuration.databasePasswordFile)
        guard let page = try BundledRates.export(from: store) else { throw ValidationError("\(configuration.database) holds no publication to export.") }
        try Data(page.readableBytesView).write(to: URL(fileURLWithPath: output), options: .atomic)
        print("wrote \(output): \(page.readableBytes) bytes")
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
        let configuration = try await common.configuration()
        let run = try Operations.prune(database: configuration.database, passwordFile: configuration.databasePasswordFile, before: day)
        print("removed \(run.rowsChanged) rates before \(day)")
    }
}

struct Rebuild: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild the database file under a new epoch (stop the server first); sync clients reset.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let configuration = try await common.configuration()
        let epochs = try Operations.rebuild(databasePath: configuration.database)
        print("rebuilt \(configuration.database): epoch \(epochs.old) → \(epochs.new)")
    }
}

/// The process-wide logger: standard error, as text or JSON lines, at the configured level.
func makeLogger(_ configuration: ServerConfiguration) -> Logger {
    switch configuration.logFormat {
    case .text: LoggingSystem.bootstrap(StreamLogHandler.standardError)
    case .json: LoggingSystem.bootstrap(JSONLogHandler.standardError)
    }
    var logger = Logger(label: "rates-relay")
    logger.logLevel = configuration.logLevel
    return logger
}
