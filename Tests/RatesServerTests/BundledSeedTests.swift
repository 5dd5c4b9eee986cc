import Foundation
import HTTPTypes
import HummingbirdTesting
import RatesCore
import RatesIngest
import RatesServer
import RatesStore
import RatesTestSupport
import RatesUpstream
import Testing

/// Which databases the bundled ECB history seeds on start: every one holding none of the ECB's
/// publications, on SQLite and on PostgreSQL (on the cluster ``TestPostgres`` names; without one
/// the PostgreSQL case is reported skipped, or fails under CI).
@Suite("The bundled ECB history")
struct BundledSeedTests {
    enum Backend: String, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// Runs `body` with the location of a new database of `backend` (a file path or a `postgres://` URL), removed when `body` ends.
    static func withDatabase(_ backend: Backend, _ body: (String) async throws -> Void) async throws {
        switch backend {
        case .sqlite: try await TestServer.withEmptyDatabase(body)
        case .postgres: try await TestPostgres.withDatabase(body)
        }
    }

    /// Stores `publications` of `provider` in the database at `location` through the one ingest path, recorded as an import.
    static func ingest(_ publications: [ProviderPublication], of provider: some RatesProvider, file: String, into location: String) throws {
        let store = try RatesStore(location: location)
        let ingestor = Ingestor(store: store, state: try ServerState(loadingFrom: store), logger: TestServer.logger)
        try ingestor.ingest(
            publications, of: (provider.key, provider.pivot), run: FetchRun(startedAt: Date(), source: .import, provider: provider.key, file: file, outcome: .updated),
            notAfter: Day("2026-10-31")!)
    }

    /// The Bank of Russia's recorded publication of 2026-04-25 (RUB per unit of each currency, EUR 88.2826 among them).
    static func cbrPublication() throws -> [ProviderPublication] {
        let provider = CBRProvider()
        return try provider.parse([UInt8](Fixtures.data("cbr-russia/XML_daily_2026-04-25.xml")), of: provider.requests(for: .latest)[0])
    }

    static func serverConfiguration(database: String) -> ServerConfiguration {
        // Nothing is fetched: the upstream is a closed port, and no schedule runs.
        var configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
        configuration.providers = []
        configuration.seed = true
        return configuration
    }

    @Test("a database holding only another provider's publication gets the ECB's bundled history on start, and keeps that publication", arguments: [Backend.sqlite, .postgres])
    func seedsBesideAnotherProvider(backend: Backend) async throws {
        try await Self.withDatabase(backend) { database in
            try Self.ingest(try Self.cbrPublication(), of: CBRProvider(), file: "XML_daily_2026-04-25.xml", into: database)
            #expect(try RatesStore(location: database).latestPublicationDay(of: ProviderKey.ecb) == nil, "before the start: the Bank of Russia's day alone")

            try await buildApplication(Self.serverConfiguration(database: database), logger: TestServer.logger).test(.live) { client in
                let status = try await client.request("/v1/status").json
                #expect(status["dataOrigin"] as? String == "seed")
                #expect(status["firstDate"] as? String == "1999-01-04")
                #expect(status["latestDate"] as? String == "2026-10-30")
                // The ECB's figures, from its first day to its last, as published.
                #expect(try await client.request("/v1/rates/1999-01-04?symbols=USD").decimalText("rates", "USD") == "1.1789")
                #expect(try await client.request("/v1/rates/2026-10-30?symbols=GBP").decimalText("rates", "GBP") == "0.8338")
                // The Bank of Russia's figure is still the one served for RUB, which the ECB stopped publishing in 2022.
                #expect(try await client.request("/v1/rates/2026-04-25?symbols=RUB").decimalText("rates", "RUB") == "88.2826")
            }
            let store = try RatesStore(location: database)
            #expect(try store.latestPublicationDay(of: ProviderKey.ecb) == Day("2026-10-30"))
            #expect(try store.latestPublicationDay(of: "CBR") == Day("2026-04-25"))
        }
    }

    @Test("a database holding any publication of the ECB is not seeded, however little it holds", arguments: [Backend.sqlite, .postgres])
    func noSeedBesideTheECB(backend: Backend) async throws {
        try await Self.withDatabase(backend) { database in
            let day = try #require(FakeUpstream.history.first { $0.day == Day("2026-10-29") })
            try Self.ingest(ECBProvider.publications(of: RatesBatch(base: .euro, days: [day])), of: ECBProvider(), file: "eurofxref-daily.xml", into: database)

            try await buildApplication(Self.serverConfiguration(database: database), logger: TestServer.logger).test(.live) { client in
                let status = try await client.request("/v1/status").json
                #expect(status["dataOrigin"] as? String == "import")
                #expect(status["firstDate"] as? String == "2026-10-29" && status["latestDate"] as? String == "2026-10-29")
                #expect(try await client.request("/v1/rates/1999-01-04?symbols=USD").status == .notFound)
            }
        }
    }
}
