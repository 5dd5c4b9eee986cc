import Foundation
import HTTPTypes
import HummingbirdTesting
import RatesCore
import RatesServer

/// A real server holding several official sources' data: the ECB's real history from February 2026
/// (``FakeUpstream``) and three central banks' real recorded answers (``FakeProviderUpstream``),
/// fetched the way the server fetches them, on its clock at ``now``: each provider is asked for
/// its last 30 days, and the days of its answer after ``now`` are left out.
///
/// - NBP (Poland): tables A (32 currencies a day) and B (Wednesday 03-04, 116 more): 03-04 is
///   the richest recorded day, 148 currencies, most of them the NBP's.
/// - NBU (Ukraine): weekdays; UAH, its own currency, comes from it (50.4597 UAH per EUR on 03-04).
/// - HKMA (Hong Kong): 2026-02-25 to 02-28. It dates figures on Saturday 02-28, so that day is
///   merged too, with the ECB's figures of Friday 02-27 carried forward.
package enum RecordedProviders {
    /// The providers fetched besides the ECB.
    package static let keys = ["NBP", "NBU", "HKMA"]
    /// 18:00 UTC on Wednesday 2026-03-04, after that day's publications: the server's clock.
    package static let now = try! Date("2026-03-04T18:00:00Z", strategy: .iso8601)
    /// The newest day, the richest.
    package static let latestDay = Day("2026-03-04")!
    /// The first day the fake ECB publishes.
    package static let firstDay = Day("2026-02-02")!

    /// The three banks' recorded answers, at the paths their adapters ask for a range of days.
    package static func upstream() -> FakeProviderUpstream {
        let upstream = FakeProviderUpstream()
        upstream.serve("/nbp/api/exchangerates/tables/A/*", .fixture("nbp-poland/tables_A_2026-03-01_2026-03-05.json"))
        upstream.serve("/nbp/api/exchangerates/tables/B/*", .fixture("nbp-poland/tables_B_2026-03-01_2026-03-05.json"))
        upstream.serve("/nbp/api/cenyzlota/*", .fixture("nbp-poland/cenyzlota_2026-03-01_2026-03-05.json"))
        upstream.serve("/nbu/NBU_Exchange/exchange_site", .fixture("nbu-ukraine/exchange_site_2026-03-01_2026-03-16.json"))
        upstream.serve("/hkma/*", .fixture("hkma-hongkong/er-eeri-daily_2026-02-25_2026-02-28.json"))
        return upstream
    }

    /// Runs the server on a new database and calls `body` once every source's data is merged:
    /// first the ECB's (the providers' answers are held until it is stored, so the order of the
    /// ingests never matters), then the three banks'. `whileECBOnly` runs in between, while the
    /// server holds the ECB's data alone. Both get the server's base URL (`http://127.0.0.1:PORT/`)
    /// and a client of it.
    package static func withServer(
        whileECBOnly: @Sendable (_ url: String, _ server: any TestClientProtocol) async throws -> Void = { _, _ in },
        _ body: @Sendable (_ url: String, _ server: any TestClientProtocol) async throws -> Void
    ) async throws {
        let ecb = FakeUpstream(publishedThrough: latestDay, firstDay: firstDay)
        let providers = upstream()
        providers.hold()
        try await TestServer.withEmptyDatabase { database in
            try await ecb.run { ecbURL in
                try await providers.run { root in
                    var configuration = TestServer.configuration(database: database, upstream: ecbURL, now: now)
                    configuration.schedule = true
                    configuration.providers = keys
                    configuration.upstreamOverrides = FakeProviderUpstream.overrides(root: root, keys)
                    configuration.providerBackfillDays = 30
                    try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                        let url = "http://127.0.0.1:\(server.port!)/"
                        try await waitUntil("the ECB's publications are stored") {
                            try await server.poll("/v1/rates/\(latestDay)").json["date"] as? String == latestDay.description
                        }
                        try await whileECBOnly(url, server)
                        providers.release()
                        try await waitUntil("the NBP's, the NBU's and the HKMA's publications are merged") {
                            let latest = try await server.poll("/v1/rates/\(latestDay)?symbols=UAH,AFN")
                            let saturday = try await server.poll("/v1/rates/2026-02-28")
                            return latest.status == .ok && latest.decimalText("rates", "UAH") == "50.4597"
                                && saturday.status == .ok && saturday.json["requestedDate"] == nil
                        }
                        try await body(url, server)
                    }
                }
            }
        }
    }
}
