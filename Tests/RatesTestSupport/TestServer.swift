import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import RatesCore
import RatesIngest
import RatesServer
import RatesStore

/// Builds and runs the real server for tests, against a real SQLite file and a fake upstream.
package enum TestServer {
    /// 18:00 UTC on 2026-10-30: after that day's publication, the last day of the bundled history.
    package static let afterLastPublication = try! Date("2026-10-30T18:00:00Z", strategy: .iso8601)

    /// A fresh database path in a new temporary directory.
    package static func newDatabasePath() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rates-relay-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("rates.sqlite").path
    }

    /// A database already holding the bundled ECB history (seeded once per test run, then copied).
    package static func seededDatabasePath() throws -> String {
        try copyOfDatabase(at: seededTemplate)
    }

    /// A copy of the database at `template` (its main file and write-ahead log) at a new path.
    package static func copyOfDatabase(at template: String) throws -> String {
        let path = newDatabasePath()
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: template + suffix) {
            try FileManager.default.copyItem(atPath: template + suffix, toPath: path + suffix)
        }
        return path
    }

    private static let seededTemplate: String = {
        let path = newDatabasePath()
        let store = try! RatesStore(path: path)
        let ingestor = Ingestor(store: store, state: try! ServerState(loadingFrom: store), logger: Logger(label: "test"))
        try! SeedData.seedIfEmpty(ingestor, now: afterLastPublication, logger: Logger(label: "test"))
        return path
    }()

    package static func configuration(database: String, upstream: String, now: Date = afterLastPublication) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.databasePath = database
        configuration.upstreamURL = upstream
        configuration.adminToken = "test-token"
        configuration.schedule = false
        configuration.seed = false
        configuration.retryDelay = .milliseconds(50)
        configuration.pollInterval = .milliseconds(200)
        configuration.upstreamTimeout = .seconds(30)   // the whole history, body included, on a loaded machine
        let fixedNow = now
        configuration.now = { fixedNow }
        return configuration
    }

    package static var logger: Logger {
        var logger = Logger(label: "rates-relay-test")
        logger.logLevel = .warning
        return logger
    }
}

extension TestClientProtocol {
    /// GET (or another method) returning the response.
    @discardableResult
    package func request(_ uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: method, headers: headers, body: nil)
    }

    /// POST /v1/admin/refresh with the test token.
    @discardableResult
    package func refresh(token: String = "test-token") async throws -> TestResponse {
        try await request("/v1/admin/refresh", method: .post, headers: [.authorization: "Bearer \(token)"])
    }
}

extension HTTPClient {
    /// POST /v1/admin/refresh with the test token to the server at `base`, returning the answer's body.
    package func refresh(base: String) async throws -> String {
        var request = HTTPClientRequest(url: base + "/v1/admin/refresh")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer test-token")
        let response = try await execute(request, timeout: .seconds(30))
        return String(buffer: try await response.body.collect(upTo: 1 << 16))
    }
}

extension TestResponse {
    /// The body parsed as a JSON object.
    package var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: [.fragmentsAllowed])) as? [String: Any] ?? [:]
    }

    package var text: String { String(buffer: body) }

    /// A number field read back as the exact decimal text it was written with.
    package func decimalText(_ path: String...) -> String? {
        // JSONSerialization would turn numbers into Double; read the raw text instead.
        let text = self.text
        guard let key = path.last else { return nil }
        var searchStart = text.startIndex
        for component in path.dropLast() {
            guard let range = text.range(of: "\"\(component)\":", range: searchStart..<text.endIndex) else { return nil }
            searchStart = range.upperBound
        }
        guard let range = text.range(of: "\"\(key)\":", range: searchStart..<text.endIndex) else { return nil }
        let rest = text[range.upperBound...]
        return String(rest.prefix { "0123456789.-eE".contains($0) })
    }
}
