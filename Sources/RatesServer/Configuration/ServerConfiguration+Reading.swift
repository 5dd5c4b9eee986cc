import Configuration
import Foundation
import Logging
import RatesCore
import RatesUpstream

extension ServerConfiguration {
    /// One setting, declared once in ``keys``: its key in a JSON config file (dots are nesting:
    /// `upstream.url` is `{"upstream": {"url": …}}`, or the key written whole, `{"upstream.url": …}`,
    /// which a file also setting `upstream` needs), its environment variable, its flag and its default.
    /// `init(reading:)`, the flags of `rates-relay`, their help and the README's table (a test
    /// compares it) all read it from here.
    public struct Key: Sendable {
        /// The key, as a config file spells it.
        public let name: String
        /// The command-line flag of `rates-relay serve`, if it has one.
        public let flag: String?
        /// Whether the value is a secret: never logged, never reported.
        public let isSecret: Bool
        /// The default as a default configuration holds it; `nil` for a setting unset by default or
        /// whose default depends on other settings (the README says which).
        private let defaultText: @Sendable (ServerConfiguration) -> String?

        init(_ name: String, flag: String? = nil, isSecret: Bool = false, default defaultText: @escaping @Sendable (ServerConfiguration) -> String? = { _ in nil }) {
            self.name = name
            self.flag = flag
            self.isSecret = isSecret
            self.defaultText = defaultText
        }

        /// The environment variable (the key in capitals, dots as underscores).
        public var environment: String { name.uppercased().replacingOccurrences(of: ".", with: "_") }
        /// The default, as `--help` and the README write it; `nil` when unset by default.
        public var defaultValue: String? { defaultText(ServerConfiguration()) }
        /// The flag without its dashes (`rate-limit-burst`), for the command line's parser.
        public var flagName: String { String((flag ?? name).drop { $0 == "-" }) }
        /// The flag's help: `summary`, then the environment variable and the default.
        public func help(_ summary: String, default described: String? = nil) -> String {
            let fallback = described ?? defaultValue.map { "default \($0)" }
            return "\(summary) (env \(environment)\(fallback.map { "; \($0)" } ?? ""))."
        }
        /// The key as the configuration library looks it up.
        var configKey: ConfigKey { ConfigKey(name) }
    }

    /// Every setting `init(reading:)` reads, in the order the README's table lists them.
    public static let keys: [Key] = [
        .host, .port, .db, .databaseURL, .dbPasswordFile, .upstreamURL, .upstream, .adminToken, .adminTokenFile, .adminRefreshWait, .seed, .schedule,
        .corsOrigins, .apiKeys, .apiKeysFile, .rateLimit, .rateLimitBurst, .logLevel, .logFormat, .providers, .providersAPIKeys,
        .providersMaxInterval, .providersBackfillDays, .answersCacheBytes, .answersHeavyConcurrency, .answersMaxValues,
        .eventsMaxSubscribers,
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
        let settings = SettingsReader(config: config)
        host = try await settings.string(.host) ?? host
        port = try await settings.int(.port, in: 0...65535, "must be from 0 to 65535") ?? port
        if let location = try await settings.string(.db) {
            database = location
        } else if let url = try await settings.string(.databaseURL) {
            database = url
        }
        databasePasswordFile = try await settings.string(.dbPasswordFile)
        upstreamURL = try await settings.string(.upstreamURL) ?? upstreamURL
        for pair in try await settings.stringArray(.upstream) ?? [] {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw Self.invalid(.upstream, "must be KEY=URL pairs such as NBP=http://127.0.0.1:8081/nbp; got '\(pair)'")
            }
            guard let key = ProviderRegistry.entry(parts[0])?.key else {
                let known = ProviderRegistry.keys.joined(separator: ", ")
                throw Self.invalid(.upstream, "names '\(parts[0])', which is not a provider; known: \(known)")
            }
            guard upstreamOverrides[key] == nil else { throw Self.invalid(.upstream, "gives \(key) more than one URL") }
            do {
                upstreamOverrides[key] = try UpstreamOverride(parts[1])
            } catch {
                throw Self.invalid(.upstream, "gives \(key) a URL that cannot be used: \(error)")
            }
        }
        seed = try await settings.bool(.seed) ?? seed
        schedule = try await settings.bool(.schedule) ?? schedule

        if let file = try await settings.string(.adminTokenFile) {
            adminToken = try Self.secretLines(file, key: .adminTokenFile).first
        } else {
            adminToken = try await settings.string(.adminToken)
        }
        if adminToken?.isEmpty == true { adminToken = nil }
        if let seconds = try await settings.double(.adminRefreshWait) {
            guard seconds >= 0, seconds <= 300 else { throw Self.invalid(.adminRefreshWait, "must be 0 to 300 seconds; got \(seconds)") }
            adminRefreshWait = .milliseconds(Int((seconds * 1000).rounded()))
        }

        corsOrigins = try await settings.stringArray(.corsOrigins)?
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        if let file = try await settings.string(.apiKeysFile) {
            apiKeys = Set(try Self.secretLines(file, key: .apiKeysFile))
        } else if let keys = try await settings.stringArray(.apiKeys) {
            apiKeys = Set(keys.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        if let rate = try await settings.double(.rateLimit) {
            guard rate > 0, rate.isFinite else { throw Self.invalid(.rateLimit, "must be a number of requests per second above 0; got \(rate)") }
            rateLimit = rate
        }
        rateLimitBurst = try await settings.int(.rateLimitBurst, in: 1..., "must be at least 1") ?? rateLimitBurst
        if let keys = try await settings.stringArray(.providers) {
            // The reference source (the ECB) is always fetched: naming it changes nothing.
            providers = keys.map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
                .filter { !$0.isEmpty && $0 != "NONE" && !ProviderRegistry.referenceKeys.contains($0) }
        } else {
            providers = ProviderRegistry.entries.filter { $0.tier != .reference && !$0.needsAPIKey }.map(\.key)
        }
        if let unknown = providers.first(where: { ProviderRegistry.entry($0) == nil }) {
            throw Self.invalid(.providers, "names '\(unknown)', which is not a provider; known: \(ProviderRegistry.keys.joined(separator: ", "))")
        }
        for pair in try await settings.stringArray(.providersAPIKeys) ?? [] {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else { throw Self.invalid(.providersAPIKeys, "must be KEY=apikey pairs such as FRED=abc123") }
            providerAPIKeys[parts[0].uppercased()] = parts[1]
        }
        providerMaxInterval = try await settings.int(.providersMaxInterval, in: 60..., "must be at least 60 seconds").map { .seconds($0) }
            ?? providerMaxInterval
        providerBackfillDays = try await settings.int(.providersBackfillDays, in: 0...36_525, "must be 0 (none) to 36525 days")
            ?? providerBackfillDays
        answerCacheBytes = try await settings.int(.answersCacheBytes, in: 0..., "must be 0 (keep no answers) or more bytes") ?? answerCacheBytes
        heavyAnswerConcurrency = try await settings.int(.answersHeavyConcurrency, in: 1..., "must be at least 1") ?? heavyAnswerConcurrency
        maxAnswerValues = try await settings.int(.answersMaxValues, in: 1..., "must be at least 1") ?? maxAnswerValues
        maxEventSubscribers = try await settings.int(.eventsMaxSubscribers, in: 0..., "must be 0 (no event streams) or more")
            ?? maxEventSubscribers
        if let level = try await settings.string(.logLevel) {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw Self.invalid(.logLevel, "must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")); got '\(level)'")
            }
            logLevel = parsed
        }
        if let format = try await settings.string(.logFormat) {
            guard let parsed = LogFormat(rawValue: format.lowercased()) else { throw Self.invalid(.logFormat, "must be text or json; got '\(format)'") }
            logFormat = parsed
        }
    }

    /// The settings of a ``ConfigReader``, read by their ``Key``: a value of the wrong type is an
    /// ``InvalidSetting`` naming the setting, a secret is read as one (redacted in access reports).
    struct SettingsReader {
        let config: ConfigReader

        func string(_ key: Key) async throws(InvalidSetting) -> String? {
            try await read(key) { try await config.fetchString(forKey: key.configKey, isSecret: key.isSecret) }
        }

        func int(_ key: Key) async throws(InvalidSetting) -> Int? {
            try await read(key) { try await config.fetchInt(forKey: key.configKey, isSecret: key.isSecret) }
        }

        /// `key`'s integer, when set, once `range` holds it; else an ``InvalidSetting`` saying what it
        /// `must` be and what it got.
        func int(_ key: Key, in range: some RangeExpression<Int>, _ must: String) async throws(InvalidSetting) -> Int? {
            guard let value = try await int(key) else { return nil }
            guard range.contains(value) else { throw ServerConfiguration.invalid(key, "\(must); got \(value)") }
            return value
        }

        func double(_ key: Key) async throws(InvalidSetting) -> Double? {
            try await read(key) { try await config.fetchDouble(forKey: key.configKey, isSecret: key.isSecret) }
        }

        func bool(_ key: Key) async throws(InvalidSetting) -> Bool? {
            try await read(key) { try await config.fetchBool(forKey: key.configKey, isSecret: key.isSecret) }
        }

        func stringArray(_ key: Key) async throws(InvalidSetting) -> [String]? {
            try await read(key) { try await config.fetchStringArray(forKey: key.configKey, isSecret: key.isSecret) }
        }

        /// Runs one read, turning the library's conversion error into one that names the setting.
        private func read<Value>(_ key: Key, _ body: () async throws -> Value?) async throws(InvalidSetting) -> Value? {
            do {
                return try await body()
            } catch {
                throw ServerConfiguration.invalid(key, "has a value of the wrong type (\(error))")
            }
        }
    }

    private static func invalid(_ key: Key, _ problem: String) -> InvalidSetting {
        let spellings = ([key.flag].compactMap { $0 } + [key.environment, "'\(key.name)' in the config file"]).joined(separator: ", ")
        return InvalidSetting(description: "The setting \(key.name) (\(spellings)) \(problem).")
    }

    /// The non-empty, non-comment lines of a secrets file.
    private static func secretLines(_ path: String, key: Key) throws(InvalidSetting) -> [String] {
        do {
            return try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        } catch {
            throw invalid(key, "names a file that cannot be read: \(path)")
        }
    }
}

extension ServerConfiguration.Key {
    public static let host = Self("host", flag: "--host") { $0.host }
    public static let port = Self("port", flag: "--port") { String($0.port) }
    /// A PostgreSQL URL may carry its password: read as a secret.
    public static let db = Self("db", flag: "--db", isSecret: true) { $0.database }
    /// `db` under the name hosting platforms set.
    public static let databaseURL = Self("database.url", isSecret: true)
    public static let dbPasswordFile = Self("db.password.file", flag: "--db-password-file")
    public static let upstreamURL = Self("upstream.url", flag: "--upstream-url") { $0.upstreamURL }
    public static let upstream = Self("upstream", flag: "--upstream")
    public static let adminToken = Self("admin.token", flag: "--admin-token", isSecret: true)
    public static let adminTokenFile = Self("admin.token.file", flag: "--admin-token-file")
    public static let adminRefreshWait = Self("admin.refresh.wait") { String($0.adminRefreshWait.components.seconds) }
    public static let seed = Self("seed", flag: "--no-seed") { String($0.seed) }
    public static let schedule = Self("schedule", flag: "--no-schedule") { String($0.schedule) }
    public static let corsOrigins = Self("cors.origins", flag: "--cors-origins")
    public static let apiKeys = Self("api.keys", isSecret: true)
    public static let apiKeysFile = Self("api.keys.file", flag: "--api-keys-file")
    public static let rateLimit = Self("rate.limit", flag: "--rate-limit")
    public static let rateLimitBurst = Self("rate.limit.burst", flag: "--rate-limit-burst") { String($0.rateLimitBurst) }
    public static let logLevel = Self("log.level", flag: "--log-level") { $0.logLevel.rawValue }
    public static let logFormat = Self("log.format", flag: "--log-format") { $0.logFormat.rawValue }
    public static let providers = Self("providers", flag: "--providers")
    public static let providersAPIKeys = Self("providers.api.keys", isSecret: true)
    public static let providersMaxInterval = Self("providers.max.interval") { String(Int($0.providerMaxInterval.seconds)) }
    public static let providersBackfillDays = Self("providers.backfill.days") { String($0.providerBackfillDays) }
    public static let answersCacheBytes = Self("answers.cache.bytes") { String($0.answerCacheBytes) }
    public static let answersHeavyConcurrency = Self("answers.heavy.concurrency") { String($0.heavyAnswerConcurrency) }
    public static let answersMaxValues = Self("answers.max.values") { String($0.maxAnswerValues) }
    public static let eventsMaxSubscribers = Self("events.max.subscribers") { String($0.maxEventSubscribers) }
}
