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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds and runs the real server for tests, against a real SQLite file and a fake upstream.
package enum TestServer {
    /// 18:00 UTC on 2026-10-30: after that day's publication, the last day of the bundled history.
    package static let afterLastPublication = try! Date("2026-10-30T18:00:00Z", strategy: .iso8601)

    /// Runs `body` with the path of a new, empty database (not yet created) in a temporary
    /// directory of its own, and deletes the directory when `body` ends, however it ends.
    package static func withEmptyDatabase<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (String) async throws -> Result
    ) async throws -> Result {
        try await withTemporaryDirectory { directory in try await body(directory.newDatabasePath()) }
    }

    /// Runs `body` with the path of a database holding the bundled ECB history (seeded once per
    /// test process, then copied), and deletes the copy when `body` ends.
    package static func withSeededDatabase<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (String) async throws -> Result
    ) async throws -> Result {
        try await withCopyOfDatabase(at: seededTemplate, body)
    }

    /// Runs `body` with the path of a copy of the database at `template`, and deletes the copy when `body` ends.
    package static func withCopyOfDatabase<Result>(
        at template: String, isolation: isolated (any Actor)? = #isolation, _ body: (String) async throws -> Result
    ) async throws -> Result {
        try await withTemporaryDirectory { directory in try await body(try directory.copyOfDatabase(at: template)) }
    }

    /// Runs `body` with a new temporary directory for databases, and deletes it with everything
    /// in it when `body` ends, however it ends; holding one of the ``TestSlots``.
    package static func withTemporaryDirectory<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (TemporaryDirectory) async throws -> Result
    ) async throws -> Result {
        try await TestSlots.holding {
            let directory = try TemporaryDirectory(in: processDirectory)
            defer { directory.remove() }
            return try await body(directory)
        }
    }

    /// The directory holding this test process's temporary directories and the seeded template,
    /// created on first use and deleted when the process exits.
    private static let processDirectory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rates-relay-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestServer.processDirectory) }
        return directory
    }()

    /// The database every seeded copy is made from: one per test process, deleted at exit with
    /// ``processDirectory`` (a process that crashes leaves it behind, with whatever test directories were open).
    private static let seededTemplate: String = {
        let path = processDirectory.appendingPathComponent("seeded.sqlite").path
        let store = try! RatesStore(path: path)
        let ingestor = Ingestor(store: store, state: try! ServerState(loadingFrom: store), logger: Logger(label: "test"))
        try! SeedData.seedIfNoECB(ingestor, now: afterLastPublication, logger: Logger(label: "test"))
        return path
    }()

    package static func configuration(database: String, upstream: String, now: Date = afterLastPublication) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.database = database
        configuration.upstreamURL = upstream
        configuration.adminToken = "test-token"
        configuration.schedule = false
        configuration.seed = false
        configuration.retryDelay = .milliseconds(50)
        configuration.pollInterval = .milliseconds(200)
        configuration.upstreamTimeout = .seconds(30)   // the whole history, body included, on a loaded machine
        // A test client's connection must not be closed as idle because a loaded machine starved the test
        // between two requests; tests of the idle timeout set their own.
        configuration.idleTimeout = .seconds(600)
        // A refresh is answered when its fetches end, however long a loaded machine takes; tests of
        // the 202 past admin.refresh.wait set their own.
        configuration.adminRefreshWait = .seconds(120)
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

    /// GET `uri` for a wait's condition: a server error (5xx) throws ``WaitFailure``, ending the
    /// wait at once, since no input makes the server fail and waiting for a later answer would only
    /// wait out the deadline. 503 is no failure: it says "not yet" (no rates loaded while the
    /// first fetch runs, a database out of reach for now), which a later answer may change.
    package func poll(_ uri: String) async throws -> TestResponse {
        let response = try await request(uri)
        guard response.status.code < 500 || response.status == .serviceUnavailable else {
            throw WaitFailure("GET \(uri) answered \(response.status.code): \(String(buffer: response.body).prefix(500))")
        }
        return response
    }

    /// POST /v1/admin/refresh with the test token, of the providers named (`NBP,CBR`) or of every one.
    @discardableResult
    package func refresh(token: String = "test-token", providers: String? = nil) async throws -> TestResponse {
        let query = providers.map { "?providers=" + $0 } ?? ""
        return try await request("/v1/admin/refresh" + query, method: .post, headers: [.authorization: "Bearer \(token)"])
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

/// A temporary directory for a test's databases: made by ``TestServer/withTemporaryDirectory(isolation:_:)``,
/// which deletes it when the test's closure ends.
package struct TemporaryDirectory: Sendable {
    let url: URL

    init(in parent: URL) throws {
        url = parent.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path for a new database (not yet created), in a directory of its own so that
    /// ``removeDatabase(at:)`` takes SQLite's `-wal` and `-shm` files with it.
    package func newDatabasePath() -> String {
        let directory = url.appendingPathComponent(UUID().uuidString)
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("rates.sqlite").path
    }

    /// A copy of the database at `template` (its main file and write-ahead log) at a new path.
    package func copyOfDatabase(at template: String) throws -> String {
        let path = newDatabasePath()
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: template + suffix) {
            try FileManager.default.copyItem(atPath: template + suffix, toPath: path + suffix)
        }
        return path
    }

    /// Deletes a database made by ``newDatabasePath()`` or ``copyOfDatabase(at:)`` before the
    /// directory goes, for tests that go through many.
    package func removeDatabase(at path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
