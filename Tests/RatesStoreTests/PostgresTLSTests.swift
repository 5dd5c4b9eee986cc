import Foundation
import PostgresNIO
import RatesCore
@testable import RatesStore
import RatesTestFixtures
import Testing

@Suite("PostgreSQL locations and TLS")
struct PostgresTLSTests {
    @Test("sslmode reads as libpq reads it: prefer by default, allow as prefer, an unknown mode refused")
    func sslModes() throws {
        let url = "postgres://rates@db.example:6432/rates"
        #expect(try PostgresLocation(url)?.tls == .prefer)
        #expect(try PostgresLocation(url + "?sslmode=allow")?.tls == .prefer)
        #expect(try PostgresLocation(url + "?sslmode=disable")?.tls == .disable)
        let verified = try #require(try PostgresLocation(url + "?sslmode=verify-full&sslrootcert=/run/secrets/ca.pem"))
        #expect(verified.tls == .verifyFull && verified.rootCertificateFile == "/run/secrets/ca.pem")
        #expect(throws: PostgresStoreError.self) { try PostgresLocation(url + "?sslmode=required") }
    }

    /// Whether the store's own connection to `url` is encrypted, as the server sees it.
    static func isEncrypted(_ store: RatesStore) throws -> Bool {
        let database = try #require(store.database as? PostgresRatesDatabase)
        return try database.session.withConnection { statements in
            try statements.value("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", as: Bool.self) ?? false
        }
    }

    @Test("verify-full with the cluster's authority stores and reads over TLS; disable stays plain",
          .enabled(if: TestPostgres.isEnabled, TestPostgres.unavailable), .enabled(if: TestPostgres.isTLSEnabled, TestPostgres.tlsUnavailable))
    func verifiedTLS() async throws {
        let authority = try TestPostgres.requireRootCertificate()
        try await TestPostgres.withDatabase { url in
            let store = try RatesStore(location: url + "?sslmode=verify-full&sslrootcert=\(authority)")
            let batch = RatesBatch(base: .euro, days: [DailyRates(day: Day("2026-11-20")!, rates: [CurrencyCode("USD")!: "1.0412"])])
            try store.ingest(batch, run: FetchRun(startedAt: Date(), source: .upstream, provider: "ECB", file: "test", outcome: .updated))
            #expect(try store.snapshot().days.first?.texts[CurrencyCode("USD")!] == "1.0412")
            #expect(try Self.isEncrypted(store))
            #expect(try !Self.isEncrypted(RatesStore(location: url + "?sslmode=disable")))
            #expect(try Self.isEncrypted(RatesStore(location: url)), "libpq's default, prefer, takes the TLS the server offers")
        }
    }

    @Test("a certificate that does not chain to the given authority, or an unreadable authority file, is refused with a reason",
          .enabled(if: TestPostgres.isEnabled, TestPostgres.unavailable), .enabled(if: TestPostgres.isTLSEnabled, TestPostgres.tlsUnavailable))
    func refusedTLS() async throws {
        _ = try TestPostgres.requireRootCertificate()
        try await TestPostgres.withDatabase { url in
            // The system's authorities never signed the throwaway cluster's certificate.
            #expect {
                try RatesStore(location: url + "?sslmode=verify-full")
            } throws: { error in
                String(describing: error).contains("cannot connect")
            }
            #expect {
                try RatesStore(location: url + "?sslmode=verify-ca&sslrootcert=/no/such/authority.pem")
            } throws: { error in
                String(describing: error).contains("sslrootcert=/no/such/authority.pem cannot be read")
            }
        }
    }
}
