import Foundation
import Logging
import PostgresNIO
import Testing

/// A new PostgreSQL database for each test, on the cluster `RATES_TEST_POSTGRES_URL` names.
///
/// `bash .ci/run` starts a throwaway cluster on loopback (`Scripts/postgres-cluster.sh`) and sets
/// the variable; without it the PostgreSQL cases are skipped, with ``unavailable`` saying why, except
/// under CI (``isRequired``), where they run and fail: a CI run cannot pass without them.
public enum TestPostgres {
    /// The cluster's URL (`postgres://rates@127.0.0.1:PORT/rates`), or `nil` when none was started.
    public static let serverURL: String? = ProcessInfo.processInfo.environment["RATES_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// The PEM file of the authority that signed the cluster's TLS certificate (`RATES_TEST_POSTGRES_ROOT_CERT`;
    /// `Scripts/postgres-cluster.sh` writes it when openssl is at hand), or `nil` when the cluster offers no TLS.
    public static let rootCertificate: String? = ProcessInfo.processInfo.environment["RATES_TEST_POSTGRES_ROOT_CERT"]
        .flatMap { $0.isEmpty || !FileManager.default.fileExists(atPath: $0) ? nil : $0 }

    /// Whether a cluster is there to test against.
    public static var isAvailable: Bool { serverURL != nil }

    /// Whether this is a CI run (`CI=true`, as CI services set it): there every PostgreSQL case must
    /// run, and one without a cluster fails instead of being skipped.
    public static let isRequired: Bool = ["true", "1", "yes"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "")

    /// Whether the PostgreSQL cases run: when a cluster is there, and always under CI, where a
    /// missing cluster fails them (``withDatabase(sourceLocation:_:)``). The condition of their `.enabled(if:)` traits.
    public static var isEnabled: Bool { isAvailable || isRequired }

    /// Why PostgreSQL cases are skipped.
    public static let unavailable: Comment =
        "PostgreSQL not started: set RATES_TEST_POSTGRES_URL to a cluster's URL (bash .ci/run starts one with Scripts/postgres-cluster.sh)"

    /// Whether the TLS cases run: when the cluster offers TLS, and always under CI, where the
    /// cluster must offer it (`.ci/run` installs openssl for `Scripts/postgres-cluster.sh`).
    public static var isTLSEnabled: Bool { rootCertificate != nil || isRequired }

    /// Why the TLS cases are skipped.
    public static let tlsUnavailable: Comment =
        "the test cluster offers no TLS: set RATES_TEST_POSTGRES_ROOT_CERT to its authority's PEM file (Scripts/postgres-cluster.sh writes it when openssl is at hand)"

    /// The cluster's authority (``rootCertificate``); without a cluster or its authority the current
    /// test is skipped saying why, or under CI fails.
    public static func requireRootCertificate(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        guard serverURL != nil else { try skipOrFail(unavailable, sourceLocation: sourceLocation) }
        guard let rootCertificate else { try skipOrFail(tlsUnavailable, sourceLocation: sourceLocation) }
        return rootCertificate
    }

    /// Skips the current test, or the current case of a parameterized one, saying `why`: a known
    /// issue, which the test run lists, then the test's cancellation, which stops it without failing
    /// it (a cancelled case alone is not listed). Under CI it fails instead, throwing ``NotRunnable``.
    public static func skipOrFail(_ why: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws -> Never {
        guard isRequired else {
            withKnownIssue(why, sourceLocation: sourceLocation) { Issue.record(sourceLocation: sourceLocation) }
            try Test.cancel(why, sourceLocation: sourceLocation)
        }
        throw NotRunnable(reason: why)
    }

    /// A PostgreSQL case that cannot run under CI.
    public struct NotRunnable: Error, CustomStringConvertible {
        public var reason: Comment
        public var description: String { "CI=true, so the PostgreSQL tests must run, but: \(reason)" }
    }

    /// Runs `body` with the URL of a new, empty database, dropped when `body` ends.
    ///
    /// Without a cluster the current test (or test case) is skipped saying why (``unavailable``), or
    /// under CI fails.
    public static func withDatabase<Result>(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: (String) async throws -> Result
    ) async throws -> Result {
        guard let serverURL else { try skipOrFail(unavailable, sourceLocation: sourceLocation) }
        let server = try #require(URLComponents(string: serverURL), "RATES_TEST_POSTGRES_URL is not a URL: \(serverURL)")
        let name = "rates_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await administer("CREATE DATABASE \(name)", on: server)
        var url = server
        url.path = "/" + name
        do {
            let result = try await body(url.string ?? "")
            try? await administer("DROP DATABASE \(name) WITH (FORCE)", on: server)
            return result
        } catch {
            try? await administer("DROP DATABASE \(name) WITH (FORCE)", on: server)
            throw error
        }
    }

    /// Runs one SQL statement in the database at `url` (as ``withDatabase(sourceLocation:_:)`` gives
    /// it), behind the back of any store using it.
    public static func execute(_ sql: String, in url: String) async throws {
        try await administer(sql, on: try #require(URLComponents(string: url), "not a URL: \(url)"))
    }

    private static func administer(_ sql: String, on server: URLComponents) async throws {
        let configuration = PostgresConnection.Configuration(
            host: server.host ?? "127.0.0.1", port: server.port ?? 5432, username: server.user ?? "postgres", password: server.password,
            database: String(server.path.dropFirst()), tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "rates.tests.postgres"))
        defer { Task { try? await connection.close() } }
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "rates.tests.postgres"))
    }
}
