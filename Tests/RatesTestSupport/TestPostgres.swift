import Foundation
import Logging
import PostgresNIO
import Testing

/// A new PostgreSQL database for each test, on the cluster `RATES_TEST_POSTGRES_URL` names.
///
/// `bash .ci/run` starts a throwaway cluster on loopback (`Scripts/postgres-cluster.sh`) and sets
/// the variable; without it the PostgreSQL cases are skipped, with ``unavailable`` saying why.
public enum TestPostgres {
    /// The cluster's URL (`postgres://rates@127.0.0.1:PORT/rates`), or `nil` when none was started.
    public static let serverURL: String? = ProcessInfo.processInfo.environment["RATES_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// The PEM file of the authority that signed the cluster's TLS certificate (`RATES_TEST_POSTGRES_ROOT_CERT`;
    /// `Scripts/postgres-cluster.sh` writes it when openssl is at hand), or `nil` when the cluster offers no TLS.
    public static let rootCertificate: String? = ProcessInfo.processInfo.environment["RATES_TEST_POSTGRES_ROOT_CERT"]
        .flatMap { $0.isEmpty || !FileManager.default.fileExists(atPath: $0) ? nil : $0 }

    /// Whether a cluster is there to test against.
    public static var isAvailable: Bool { serverURL != nil }

    /// Why PostgreSQL cases are skipped.
    public static let unavailable: Comment =
        "PostgreSQL not started: set RATES_TEST_POSTGRES_URL to a cluster's URL (bash .ci/run starts one with Scripts/postgres-cluster.sh)"

    /// Runs `body` with the URL of a new, empty database, dropped when `body` ends.
    public static func withDatabase<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        let server = try #require(serverURL.flatMap(URLComponents.init(string:)), unavailable)
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

    private static func administer(_ sql: String, on server: URLComponents) async throws {
        let configuration = PostgresConnection.Configuration(
            host: server.host ?? "127.0.0.1", port: server.port ?? 5432, username: server.user ?? "postgres", password: server.password,
            database: String(server.path.dropFirst()), tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "rates.tests.postgres"))
        defer { Task { try? await connection.close() } }
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "rates.tests.postgres"))
    }
}
