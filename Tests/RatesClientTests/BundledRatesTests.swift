import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import RatesClient
import RatesCore
import RatesServer
import RatesStore
import RatesTestSupport
import Testing

/// The snapshot an app's first launch converts with, offline: the one the SDK ships, and the one
/// `rates-relay export --snapshot` writes from a database.
@Suite("RatesClient's bundled snapshot")
struct BundledRatesTests {
    let cache = TemporaryCache()

    /// The decimal text of `code` in a sync page's upserts, as written.
    static func value(_ code: String, in page: Data) throws -> ExactDecimal {
        let text = String(decoding: page, as: UTF8.self)
        let pattern = try Regex("\"\(code)\":\"([0-9.]+)\"")
        let match = try #require(text.firstMatch(of: pattern))
        let digits = try #require(match.output[1].substring)
        return try #require(ExactDecimal(digits))
    }

    @Test("a client that never synced, with no server to reach, converts USD to JPY at once from the shipped snapshot, marked bundled and stale")
    func firstLaunchConvertsOffline() async throws {
        let shipped = try #require(RatesClient.shippedRates)
        #expect(shipped.count < 8 * 1024, "the shipped snapshot is a few KB: \(shipped.count) bytes")
        // The default configuration, pointed at a port nothing listens on.
        let client = try RatesClient(configuration: .init(server: URL(string: "http://127.0.0.1:9/")!, cacheURL: cache.url))
        let usd = CurrencyCode("USD")!, jpy = CurrencyCode("JPY")!
        let conversion = try client.convert(100, from: usd, to: jpy)
        let rate = try #require(ExactDecimal.quotient(try Self.value("JPY", in: shipped), try Self.value("USD", in: shipped)))
        #expect(conversion.rate == .computed(rate))
        #expect(conversion.result == conversion.rate.decimal * 100)
        let status = try client.status()
        #expect(status.isBundled && status.isStale && status.lastSuccessfulSync == nil)
        let shippedDay = String(decoding: shipped, as: UTF8.self).firstMatch(of: /"latestDate":"([0-9-]{10})"/).map { String($0.output.1) }
        #expect(status.latestDate == conversion.date && conversion.date.description == shippedDay)
        // Offline is a report, and the bundled rates stay.
        let report = try await client.sync()
        guard case .offline = report.outcome else { Issue.record("\(report.outcome)"); return }
        #expect(try client.status().isBundled && (try client.convert(1, from: usd, to: jpy)).rate == .computed(rate))
    }

    @Test("the first sync replaces the bundled snapshot with the server's data, and a synced cache never takes it again")
    func firstSyncReplacesIt() async throws {
        try await TestServer.withSeededDatabase { database in
            let configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
            try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                // A bundle of a day the server never published, so that what replaces it shows.
                let bundled = Data(#"{"epoch":"e","cursor":"bundled","more":false,"reset":false,"base":"EUR","latestDate":"2026-11-28","upserts":{"2026-11-28":{"USD":"9.99","JPY":"999"}},"deletes":{}}"#.utf8)
                let settings = RatesClient.Configuration(
                    server: URL(string: "http://127.0.0.1:\(server.port!)/")!, cacheURL: cache.url, session: URLSession(configuration: .ephemeral),
                    bundledRates: bundled)
                let client = try RatesClient(configuration: settings)
                #expect(try client.status().isBundled && client.latest()?.date == Day("2026-11-28"))
                let report = try await client.sync()
                #expect(report.outcome == .updated)
                let status = try client.status()
                #expect(!status.isBundled && status.latestDate == Day("2026-10-30"), "the server's snapshot replaced the bundle, its day gone")
                #expect(try client.rates(on: Day("2026-11-28")!)?.date == Day("2026-10-30"))
                let served = try await server.request("/v1/latest?symbols=USD")
                let usd = try #require(served.decimalText("rates", "USD").flatMap { ExactDecimal($0) })
                #expect(try client.latest(symbols: [CurrencyCode("USD")!])?[CurrencyCode("USD")!] == .published(usd))
                // Opened again with a bundle, a synced cache keeps its own data.
                let reopened = try RatesClient(configuration: settings)
                #expect(try !reopened.status().isBundled && reopened.latest()?.date == Day("2026-10-30"))
            }
        }
    }

    @Test("rates-relay export --snapshot writes the newest publication as a page the SDK answers with, value for value as /v1/latest")
    func exportIsReadBySDK() async throws {
        try await TestServer.withSeededDatabase { database in
            let page = try #require(try BundledRates.export(from: try RatesStore(path: database)))
            let client = try RatesClient(configuration: .init(
                server: URL(string: "http://127.0.0.1:9/")!, cacheURL: cache.url, bundledRates: Data(page.readableBytesView)))
            let table = try #require(try client.latest())
            #expect(try client.status().isBundled && table.date == Day("2026-10-30"))
            let configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
            try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                let latest = try await server.request("/v1/latest")
                let served = try #require(latest.json["rates"] as? [String: Any])
                #expect(served.count == table.rates.count && served.count >= 25, "\(served.count)")
                for (code, rate) in table.rates {
                    let text = try #require(latest.decimalText("rates", code.rawValue).flatMap { ExactDecimal($0) })
                    #expect(rate == .published(text), "\(code)")
                }
            }
        }
    }
}
