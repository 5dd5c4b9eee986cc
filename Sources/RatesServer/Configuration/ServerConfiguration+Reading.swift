import Configuration
import Foundation
import Logging
import RatesUpstream

extension ServerConfiguration {
    /// One setting: its key in a JSON config file (dots are nesting: `upstream.url` is
    /// `{"upstream": {"url": …}}`, or the key written whole, `{"upstream.url": …}`, which a file
    /// also setting `upstream` needs), its environment variable and its flag.
    public struct Key: Sendable {
        /// The key, as a config file spells it.
        public var name: String
        /// The environment variable (the key in capitals, dots as underscores).
        public var environment: String { name.uppercased().replacingOccurrences(of: ".", with: "_") }
        /// The command-line flag of `rates-relay serve`, if it has one.
        public var flag: String?
        /// Whether the value is a secret: never logged, never reported.
        public var isSecret = false
    }

    /// Every setting `init(reading:)` reads, in the order the README's table lists them.
    public static let keys: [Key] = [
        Key(name: "host", flag: "--host"), Key(name: "port", flag: "--port"), Key(name: "db", flag: "--db"),
        Key(name: "database.url"), Key(name: "db.password.file", flag: "--db-password-file"),
        Key(name: "upstream.url", flag: "--upstream-url"), Key(name: "upstream", flag: "--upstream"),
        Key(name: "admin.token", flag: "--admin-token", isSecret: true), Key(name: "admin.token.file", flag: "--admin-token-file"),
        Key(name: "seed", flag: "--no-seed"), Key(name: "schedule", flag: "--no-schedule"),
        Key(name: "cors.origins", flag: "--cors-origins"),
        Key(name: "api.keys", isSecret: true), Key(name: "api.keys.file", flag: "--api-keys-file"),
        Key(name: "rate.limit", flag: "--rate-limit"), Key(name: "rate.limit.burst", flag: "--rate-limit-burst"),
        Key(name: "log.level", flag: "--log-level"), Key(name: "log.format", flag: "--log-format"),
        Key(name: "providers", flag: "--providers"), Key(name: "providers.api.keys", isSecret: true),
        Key(name: "providers.max.interval"), Key(name: "providers.backfill.days"), Key(name: "answers.cache.bytes"),
        Key(name: "answers.heavy.concurrency"), Key(name: "answers.max.values"), Key(name: "events.max.subscribers"),
    ]

    /// A setting whose value cannot be used; the message names the key and how to fix it.
    public struct InvalidSetting: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads every setting from `config`, whose providers the caller layered (for
    /// `rates-relay serve`: flags, then environment variables, then the config file); what no
    /// provider has keeps its default.
    ///
    /// Secrets (`admin.token`, `api.keys`) are read as secrets, so access reports redact them;
    /// each may instead come from a file (`admin.token.file`, `api.keys.file`: one key a line,
    /// `#` comments), which wins over the inline value.
    ///
    /// - Throws: ``InvalidSetting`` naming the key when a value has the wrong type or range,
    ///   or a secrets file cannot be read.
    public init(reading config: ConfigReader) async throws(InvalidSetting) {
        self.init()
        host = try await Self.read("host") { try await config.fetchString(forKey: "host") } ?? host
        if let port = try await Self.read("port", { try await config.fetchInt(forKey: "port") }) {
            guard (0...65535).contains(port) else { throw Self.invalid("port", "must be from 0 to 65535; got \(port)") }
            self.port = port
        }
        // A PostgreSQL URL may carry its password: read as a secret. DATABASE_URL is the name platforms set.
        if let location = try await Self.read("db", { try await config.fetchString(forKey: "db", isSecret: true) }) {
            database = location
        } else if let url = try await Self.read("database.url", { try await config.fetchString(forKey: "database.url", isSecret: true) }) {
            database = url
        }
        databasePasswordFile = try await Self.read("db.password.file") { try await config.fetchString(forKey: "db.password.file") }
        upstreamURL = try await Self.read("upstream.url") { try await config.fetchString(forKey: "upstream.url") } ?? upstreamURL
        for pair in try await Self.read("upstream", { try await config.fetchStringArray(forKey: "upstream") }) ?? [] {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw Self.invalid("upstream", "must be KEY=URL pairs such as NBP=http://127.0.0.1:8081/nbp; got '\(pair)'")
            }
            guard let key = ProviderRegistry.entry(parts[0])?.key else {
                let known = ProviderRegistry.keys.joined(separator: ", ")
                throw Self.invalid("upstream", "names '\(parts[0])', which is not a provider; known: \(known)")
            }
            guard upstreamOverrides[key] == nil else { throw Self.invalid("upstream", "gives \(key) more than one URL") }
            do {
                upstreamOverrides[key] = try UpstreamOverride(parts[1])
            } catch {
                throw Self.invalid("upstream", "gives \(key) a URL that cannot be used: \(error)")
            }
        }
        seed = try await Self.read("seed") { try await config.fetchBool(forKey: "seed") } ?? seed
        schedule = try await Self.read("schedule") { try await config.fetchBool(forKey: "schedule") } ?? schedule

        if let file = try await Self.read("admin.token.file", { try await config.fetchString(forKey: "admin.token.file") }) {
            adminToken = try Self.secretLines(file, key: "admin.token.file").first
        } else {
            adminToken = try await Self.read("admin.token") { try await config.fetchString(forKey: "admin.token", isSecret: true) }
        }
        if adminToken?.isEmpty == true { adminToken = nil }

        corsOrigins = try await Self.read("cors.origins") { try await config.fetchStringArray(forKey: "cors.origins") }?
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        if let file = try await Self.read("api.keys.file", { try await config.fetchString(forKey: "api.keys.file") }) {
            apiKeys = Set(try Self.secretLines(file, key: "api.keys.file"))
        } else if let keys = try await Self.read("api.keys", { try await config.fetchStringArray(forKey: "api.keys", isSecret: true) }) {
            apiKeys = Set(keys.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        if let rate = try await Self.read("rate.limit", { try await config.fetchDouble(forKey: "rate.limit") }) {
            guard rate > 0, rate.isFinite else { throw Self.invalid("rate.limit", "must be a number of requests per second above 0; got \(rate)") }
            rateLimit = rate
        }
        if let burst = try await Self.read("rate.limit.burst", { try await config.fetchInt(forKey: "rate.limit.burst") }) {
            guard burst >= 1 else { throw Self.invalid("rate.limit.burst", "must be at least 1; got \(burst)") }
            rateLimitBurst = burst
        }
        if let keys = try await Self.read("providers", { try await config.fetchStringArray(forKey: "providers") }) {
            // The reference source (the ECB) is always fetched: naming it changes nothing.
            providers = keys.map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
                .filter { !$0.isEmpty && $0 != "NONE" && !ProviderRegistry.referenceKeys.contains($0) }
        } else {
            providers = ProviderRegistry.entries.filter { $0.tier != .reference && !$0.needsAPIKey }.map(\.key)
        }
        if let unknown = providers.first(where: { ProviderRegistry.entry($0) == nil }) {
            throw Self.invalid("providers", "names '\(unknown)', which is not a provider; known: \(ProviderRegistry.keys.joined(separator: ", "))")
        }
        for pair in try await Self.read("providers.api.keys", { try await config.fetchStringArray(forKey: "providers.api.keys", isSecret: true) }) ?? [] {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else { throw Self.invalid("providers.api.keys", "must be KEY=apikey pairs such as FRED=abc123") }
            providerAPIKeys[parts[0].uppercased()] = parts[1]
        }
        if let seconds = try await Self.read("providers.max.interval", { try await config.fetchInt(forKey: "providers.max.interval") }) {
            guard seconds >= 60 else { throw Self.invalid("providers.max.interval", "must be at least 60 seconds; got \(seconds)") }
            providerMaxInterval = .seconds(seconds)
        }
        if let days = try await Self.read("providers.backfill.days", { try await config.fetchInt(forKey: "providers.backfill.days") }) {
            guard (0...36_525).contains(days) else { throw Self.invalid("providers.backfill.days", "must be 0 (none) to 36525 days; got \(days)") }
            providerBackfillDays = days
        }
        if let bytes = try await Self.read("answers.cache.bytes", { try await config.fetchInt(forKey: "answers.cache.bytes") }) {
            guard bytes >= 0 else { throw Self.invalid("answers.cache.bytes", "must be 0 (keep no answers) or more bytes; got \(bytes)") }
            answerCacheBytes = bytes
        }
        if let count = try await Self.read("answers.heavy.concurrency", { try await config.fetchInt(forKey: "answers.heavy.concurrency") }) {
            guard count >= 1 else { throw Self.invalid("answers.heavy.concurrency", "must be at least 1; got \(count)") }
            heavyAnswerConcurrency = count
        }
        if let values = try await Self.read("answers.max.values", { try await config.fetchInt(forKey: "answers.max.values") }) {
            guard values >= 1 else { throw Self.invalid("answers.max.values", "must be at least 1; got \(values)") }
            maxAnswerValues = values
        }
        if let count = try await Self.read("events.max.subscribers", { try await config.fetchInt(forKey: "events.max.subscribers") }) {
            guard count >= 0 else { throw Self.invalid("events.max.subscribers", "must be 0 (no event streams) or more; got \(count)") }
            maxEventSubscribers = count
        }
        if let level = try await Self.read("log.level", { try await config.fetchString(forKey: "log.level") }) {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw Self.invalid("log.level", "must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")); got '\(level)'")
            }
            logLevel = parsed
        }
        if let format = try await Self.read("log.format", { try await config.fetchString(forKey: "log.format") }) {
            guard let parsed = LogFormat(rawValue: format.lowercased()) else { throw Self.invalid("log.format", "must be text or json; got '\(format)'") }
            logFormat = parsed
        }
    }

    /// Runs one read, turning the library's conversion error into one that names the setting.
    private static func read<Value>(_ name: String, _ body: () async throws -> Value?) async throws(InvalidSetting) -> Value? {
        do {
            return try await body()
        } catch {
            throw invalid(name, "has a value of the wrong type (\(error))")
        }
    }

    private static func invalid(_ name: String, _ problem: String) -> InvalidSetting {
        let key = keys.first { $0.name == name } ?? Key(name: name)
        let spellings = ([key.flag].compactMap { $0 } + [key.environment, "'\(name)' in the config file"]).joined(separator: ", ")
        return InvalidSetting(description: "The setting \(name) (\(spellings)) \(problem).")
    }

    /// The non-empty, non-comment lines of a secrets file.
    private static func secretLines(_ path: String, key: String) throws(InvalidSetting) -> [String] {
        do {
            return try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        } catch {
            throw invalid(key, "names a file that cannot be read: \(path)")
        }
    }
}
