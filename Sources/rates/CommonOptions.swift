import ArgumentParser
import Foundation
import RatesClient
import RatesCore

/// The options every command takes: where the server and the cache are.
///
/// - Configuration keys:
///   - `--server` / `RATES_SERVER` (URL, default: `http://127.0.0.1:8080`)
///   - `--cache` / `RATES_CACHE` (path, default: `$XDG_CACHE_HOME/rates-relay/rates.sqlite`, else `~/.cache/rates-relay/rates.sqlite`)
///   - `RATES_API_KEY` (string, secret, optional): sent as `X-API-Key`.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Server URL (env RATES_SERVER).", valueName: "url"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp("Cache file (env RATES_CACHE).", valueName: "path"))
    var cache: String?

    static let defaultServer = "http://127.0.0.1:8080"

    /// Checked while parsing, so that a bad server URL is answered with the command's usage (exit 64).
    func validate() throws {
        _ = try serverURL
    }

    var serverURL: URL {
        get throws {
            let text = server ?? ProcessInfo.processInfo.environment["RATES_SERVER"] ?? Self.defaultServer
            guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), url.host != nil else {
                throw ValidationError("'\(text)' is not an http(s) URL; pass --server http://host:port or set RATES_SERVER.")
            }
            return url
        }
    }

    var cacheURL: URL {
        if let path = cache ?? ProcessInfo.processInfo.environment["RATES_CACHE"], !path.isEmpty {
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        }
        let environment = ProcessInfo.processInfo.environment
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return cacheHome.appendingPathComponent("rates-relay").appendingPathComponent("rates.sqlite")
    }

    /// A client on the cache; opening it touches no network. With `autoRefresh`, observing it keeps the cache current.
    func client(autoRefresh: Bool = false) throws -> RatesClient {
        // A cache that never synced answers from the snapshot the SDK ships, saying it is behind.
        let configuration = RatesClient.Configuration(
            server: try serverURL, cacheURL: cacheURL, apiKey: ProcessInfo.processInfo.environment["RATES_API_KEY"], autoRefresh: autoRefresh)
        return try RatesClient(configuration: configuration)
    }
}

extension CurrencyCode: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument.uppercased())
    }
}

extension Day: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}

/// Runs a command's body, rewording the library's errors for the command line.
func commandLine<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch RatesClientError.noData {
        throw CommandFailure(description: "No rates are cached yet: run `rates sync` first.")
    } catch RatesClientError.unknownCurrency(let code) {
        throw CommandFailure(description: "\(code) has no rates in the cache; `rates currencies` lists the known codes.")
    }
}

/// A comma-separated list of currency codes (`USD,JPY`).
struct CurrencyList: ExpressibleByArgument {
    var codes: [CurrencyCode]

    init?(argument: String) {
        let parts = argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let codes = parts.compactMap { CurrencyCode($0.uppercased()) }
        guard !codes.isEmpty, codes.count == parts.count else { return nil }
        self.codes = codes
    }
}

/// An amount as typed (`12.50`, printed back unchanged) and its exact value.
struct Amount: ExpressibleByArgument {
    var text: String
    var value: Decimal

    /// An amount as the server's API takes it (``RatesCore/RatesRules/amount(_:)``): a positive
    /// plain decimal; `nil` for anything else (`-5`, `1e3`, `1,5`, `abc`).
    init?(argument: String) {
        guard let value = RatesRules.amount(argument) else { return nil }
        text = argument
        self.value = Decimal(string: value.description, locale: nil) ?? 0
    }
}
