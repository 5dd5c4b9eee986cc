import Configuration
import Foundation
import Logging
import RatesServer
import RatesTestFixtures
import RatesUpstream
import Synchronization
import SystemPackage
import Testing

@Suite("Configuration: flags over environment over config file over defaults")
struct ServerConfigurationTests {
    /// A JSON config file in a temporary folder.
    static func file(_ json: String) throws -> FilePath {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rates-relay-config-\(UUID().uuidString).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return FilePath(url.path)
    }

    /// The configuration read from `flags`, `environment` and the JSON `file`, layered like `rates-relay serve` does.
    static func read(flags: [AbsoluteConfigKey: ConfigValue] = [:], environment: [String: String] = [:], file json: String? = nil) async throws
        -> ServerConfiguration
    {
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: flags), EnvironmentVariablesProvider(environmentVariables: environment),
        ]
        if let json {
            let path = try file(json)
            defer { try? FileManager.default.removeItem(atPath: path.string) }
            providers.append(try await FileProvider<JSONSnapshot>(filePath: path))
        }
        return try await ServerConfiguration(reading: ConfigReader(providers: providers))
    }

    @Test("each layer wins over the ones below it")
    func precedence() async throws {
        let json = #"{"port": 1000, "host": "0.0.0.0"}"#
        #expect(try await Self.read(flags: ["port": 3000], environment: ["PORT": "2000"], file: json).port == 3000)
        #expect(try await Self.read(environment: ["PORT": "2000"], file: json).port == 2000)
        let fromFile = try await Self.read(file: json)
        #expect(fromFile.port == 1000 && fromFile.host == "0.0.0.0")
        let defaults = try await Self.read()
        #expect(defaults.port == 8080 && defaults.host == "127.0.0.1" && defaults.database == "rates.sqlite")
        #expect(defaults.upstreamURL == ECBProvider.defaultBaseURL && defaults.seed && defaults.schedule)
        #expect(defaults.adminToken == nil && defaults.apiKeys.isEmpty && defaults.rateLimit == nil && defaults.corsOrigins.isEmpty)
    }

    @Test("nested keys, lists and flags read from a config file and from the environment")
    func everyKind() async throws {
        let fromFile = try await Self.read(file: """
            {"db": "/data/rates.sqlite", "upstream": {"url": "http://mirror.local/ecb/"}, "seed": false, "schedule": false,
             "cors": {"origins": ["https://a.example", "https://b.example"]}, "rate": {"limit": 2.5}}
            """)
        #expect(fromFile.database == "/data/rates.sqlite" && fromFile.upstreamURL == "http://mirror.local/ecb/")
        #expect(!fromFile.seed && !fromFile.schedule)
        #expect(fromFile.corsOrigins == ["https://a.example", "https://b.example"])
        #expect(fromFile.rateLimit == 2.5 && fromFile.rateLimitBurst == 60)

        let fromEnvironment = try await Self.read(environment: [
            "UPSTREAM_URL": "http://other/", "CORS_ORIGINS": "https://a.example, https://c.example", "RATE_LIMIT_BURST": "5",
            "API_KEYS": "k1,k2", "ADMIN_TOKEN": "t0ken", "SEED": "false",
        ])
        #expect(fromEnvironment.upstreamURL == "http://other/" && fromEnvironment.corsOrigins == ["https://a.example", "https://c.example"])
        #expect(fromEnvironment.rateLimitBurst == 5 && fromEnvironment.apiKeys == ["k1", "k2"] && fromEnvironment.adminToken == "t0ken")
        #expect(!fromEnvironment.seed)
        #expect(try await Self.read(environment: ["ANSWERS_CACHE_BYTES": "16777216"]).answerCacheBytes == 16 << 20)
        #expect(try await Self.read(file: #"{"answers": {"cache": {"bytes": 0}}}"#).answerCacheBytes == 0)
    }

    @Test("secrets can come from files, which win over inline values")
    func secretFiles() async throws {
        let token = try Self.file("# the operator token\n  s3cret  \n")
        let keys = try Self.file("alpha\n\n# retired: gamma\nbeta\n")
        defer { for file in [token, keys] { try? FileManager.default.removeItem(atPath: file.string) } }
        let configuration = try await Self.read(environment: [
            "ADMIN_TOKEN": "inline", "ADMIN_TOKEN_FILE": token.string, "API_KEYS": "inline", "API_KEYS_FILE": keys.string,
        ])
        #expect(configuration.adminToken == "s3cret")
        #expect(configuration.apiKeys == ["alpha", "beta"])
        await #expect(throws: ServerConfiguration.InvalidSetting.self) {
            try await Self.read(environment: ["ADMIN_TOKEN_FILE": "/no/such/file"])
        }
    }

    @Test("upstream overrides are KEY=URL pairs from a flag, the environment or a file, beside upstream.url")
    func upstreamOverrides() async throws {
        let pairs = ConfigValue(.stringArray(["nbp=http://127.0.0.1:8081/nbp", "ECB=http://127.0.0.1:8081"]), isSecret: false)
        let fromFlags = try await Self.read(flags: ["upstream": pairs])
        #expect(fromFlags.upstreamOverrides == [
            "NBP": try UpstreamOverride("http://127.0.0.1:8081/nbp"), "ECB": try UpstreamOverride("http://127.0.0.1:8081"),
        ])
        #expect(fromFlags.upstreamURL == ECBProvider.defaultBaseURL, "the ECB's directory stays its own")
        let fromEnvironment = try await Self.read(environment: ["UPSTREAM": "CBR=http://127.0.0.1:1/cbr, BDI=https://mirror.example/bdi"])
        #expect(fromEnvironment.upstreamOverrides.mapValues(\.description) == ["CBR": "http://127.0.0.1:1/cbr", "BDI": "https://mirror.example/bdi"])
        // A file setting both writes upstream.url whole.
        let fromFile = try await Self.read(file: #"{"upstream": ["NBP=http://127.0.0.1:2/nbp"], "upstream.url": "http://mirror.local/ecb/"}"#)
        #expect(fromFile.upstreamOverrides.mapValues(\.description) == ["NBP": "http://127.0.0.1:2/nbp"])
        #expect(fromFile.upstreamURL == "http://mirror.local/ecb/")
        #expect(try await Self.read().upstreamOverrides.isEmpty)
    }

    @Test("a value of the wrong type or range names its setting and every way to set it", arguments: [
        (["PORT": "eighty"], "port (--port, PORT, 'port' in the config file)"),
        (["PORT": "70000"], "port (--port, PORT, 'port' in the config file) must be from 0 to 65535"),
        (["RATE_LIMIT": "0"], "rate.limit (--rate-limit, RATE_LIMIT"),
        (["RATE_LIMIT_BURST": "0"], "rate.limit.burst (--rate-limit-burst, RATE_LIMIT_BURST"),
        (["SCHEDULE": "sometimes"], "schedule (--no-schedule, SCHEDULE"),
        (["UPSTREAM": "XYZ=http://127.0.0.1:1/xyz"], "upstream (--upstream, UPSTREAM, 'upstream' in the config file) names 'XYZ', which is not"),
        (["UPSTREAM": "NBP=ftp://127.0.0.1/nbp"], "upstream (--upstream, UPSTREAM, 'upstream' in the config file) gives NBP a URL that"),
        (["UPSTREAM": "NBP=http://127.0.0.1/nbp?x=1"], "gives NBP a URL that cannot be used"),
        (["UPSTREAM": "http://127.0.0.1:1/nbp"], "upstream (--upstream, UPSTREAM, 'upstream' in the config file) must be KEY=URL pairs"),
        (["UPSTREAM": "NBP=http://a/nbp,nbp=http://b/nbp"], "gives NBP more than one URL"),
        (["ANSWERS_CACHE_BYTES": "-1"], "answers.cache.bytes (ANSWERS_CACHE_BYTES, 'answers.cache.bytes' in the config file) must be 0"),
    ])
    func invalid(environment: [String: String], message: String) async throws {
        do {
            _ = try await Self.read(environment: environment)
            Issue.record("accepted \(environment)")
        } catch {
            #expect(String(describing: error).contains(message), "\(error)")
        }
    }
}

@Suite("JSON log lines")
struct JSONLogHandlerTests {
    @Test("each event is one line of valid JSON with level, message, source and metadata, quotes and newlines escaped")
    func oneObjectPerLine() throws {
        let lines = Mutex<[String]>([])
        var logger = Logger(label: "rates-relay") { label in JSONLogHandler(label: label) { line in lines.withLock { $0.append(line) } } }
        logger.logLevel = .info
        logger[metadataKey: "hb.request.id"] = "req-1"
        logger.debug("not at this level")
        logger.warning("fetch failed: \"bad\"\nsecond line", metadata: ["rates.outcome": "rejected"])
        let written = lines.withLock { $0 }
        try #require(written.count == 1)
        #expect(!written[0].contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["label"] as? String == "rates-relay")
        #expect(object["message"] as? String == "fetch failed: \"bad\"\nsecond line")
        #expect(object["metadata"] as? [String: String] == ["hb.request.id": "req-1", "rates.outcome": "rejected"])
        let time = try #require(object["time"] as? String)
        #expect((try? Date(time, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) != nil, "\(time)")
    }

    @Test("the README's table of settings is the settings' table: each key once, with its environment variable, its flag and its default")
    func readmeListsEverySetting() throws {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        let documented = Dictionary(rows.map { ($0[0], $0) }, uniquingKeysWith: { first, _ in first })
        #expect(rows.filter { row in ServerConfiguration.keys.contains { "`\($0.name)`" == row[0] } }.count == ServerConfiguration.keys.count)
        for key in ServerConfiguration.keys {
            let row = try #require(documented["`\(key.name)`"], "README has no row for \(key.name)")
            #expect(row[1] == "`\(key.environment)`", "\(key.name): \(row[1])")
            #expect(row[2].hasPrefix(key.flag.map { "`\($0)`" } ?? ""), "\(key.name): \(row[2])")
            #expect(key.flag != nil || row[2].isEmpty, "\(key.name) has no flag: \(row[2])")
            if let value = key.defaultValue { #expect(row[3] == "`\(value)`", "\(key.name): \(row[3])") }
        }
    }
}
