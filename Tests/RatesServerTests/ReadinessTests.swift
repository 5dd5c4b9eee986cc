import Foundation
import HTTPTypes
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesTestSupport
import Testing

/// `/readyz` on the bundled seed: a server whose data is the seed's joins a load balancer only once
/// the fetches it makes at start have said how old that data is.
@Suite("Readiness on the bundled seed")
struct ReadinessTests {
    static let lastDay = Day("2026-10-30")!

    /// How the first fetch, held by the upstream, ends.
    enum FirstFetchEnd: String, CaseIterable, CustomTestStringConvertible {
        /// The upstream answers with its file.
        case answered
        /// The upstream answers 503.
        case failed
        var testDescription: String { rawValue }
    }

    /// A server on a new database (seeded from the bundled history when `seed`), fetching the ECB
    /// alone from `upstream` on its schedule when `schedule`.
    static func configuration(database: String, upstream: String, seed: Bool = true, schedule: Bool = true) -> ServerConfiguration {
        var configuration = TestServer.configuration(database: database, upstream: upstream)
        configuration.providers = []
        configuration.seed = seed
        configuration.schedule = schedule
        return configuration
    }

    @Test("/readyz is 503 on the bundled seed while the first fetch is out, and 200 once that fetch has ended", arguments: FirstFetchEnd.allCases)
    func seedWaitsForTheFirstFetch(end: FirstFetchEnd) async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay)
        // The upstream accepts the first fetch's request and does not answer it until released.
        upstream.hold()
        if end == .failed { upstream.inject(.status(503)) }
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                try await buildApplication(Self.configuration(database: database, upstream: url), logger: TestServer.logger).test(.live) { client in
                    defer { upstream.release() }
                    try await waitUntil("the first fetch reaches the upstream", deadline: .seconds(120)) { !upstream.requests.isEmpty }
                    let held = try await client.request("/readyz")
                    #expect(held.status == .serviceUnavailable)
                    #expect(held.headers[.contentType] == "application/problem+json")
                    #expect(held.headers[.retryAfter] == "5")
                    #expect(held.json["type"] as? String == "urn:rates-relay:problem:not-ready")
                    #expect((held.json["detail"] as? String)?.contains("the first fetch since the start is still out") == true, "\(held.text)")
                    // Meanwhile the seed is served to whoever asks.
                    #expect(try await client.request("/v1/latest?symbols=GBP").decimalText("rates", "GBP") == "0.8338")
                    #expect(try await client.request("/v1/status").json["fetching"] as? Bool == true)
                    #expect(try await client.request("/readyz").status == .serviceUnavailable, "still out, still not ready")

                    upstream.release()
                    try await waitUntil("the server is ready", deadline: .seconds(120)) { try await client.poll("/readyz").status == .ok }
                    let status = try await client.request("/v1/status").json
                    let lastFetch = status["lastFetch"] as? [String: Any]
                    #expect(lastFetch?["outcome"] as? String == (end == .failed ? "failed" : "unchanged"), "\(status)")
                    // The data is still the seed's (the upstream had nothing newer, or did not answer): the fetch's end made it ready.
                    #expect(status["dataOrigin"] as? String == "seed")
                    let ready = try await client.request("/readyz")
                    #expect(ready.json["status"] as? String == "ready" && ready.json["latestDate"] as? String == "2026-10-30")
                }
            }
        }
    }

    @Test("with fetching off, a server on the bundled seed is ready at once: it fetches nothing at start to wait for")
    func seedWithoutScheduleIsReady() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                let configuration = Self.configuration(database: database, upstream: url, schedule: false)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    let ready = try await client.request("/readyz")
                    #expect(ready.status == .ok, "\(ready.text)")
                    #expect(try await client.request("/v1/status").json["dataOrigin"] as? String == "seed")
                }
                #expect(upstream.requests.isEmpty)
            }
        }
    }

    @Test("a database holding fetched data is ready at once, while the start's fetch of a due publication is out")
    func fetchedDataIsReadyWhileFetching() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay.adding(days: -1), firstDay: Day("2026-06-01")!)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                // Filled by a fetch, through the day before the last.
                let filling = Self.configuration(database: database, upstream: url, seed: false, schedule: false)
                try await buildApplication(filling, logger: TestServer.logger).test(.live) { client in
                    let outcome = try await client.refresh().json["outcome"] as? String
                    #expect(outcome == "updated")
                }
                // The last day is due: the restarted server fetches it at start, and the upstream holds that fetch.
                upstream.publish(through: Self.lastDay)
                upstream.hold()
                let asked = upstream.requests.count
                try await buildApplication(Self.configuration(database: database, upstream: url), logger: TestServer.logger).test(.live) { client in
                    defer { upstream.release() }
                    try await waitUntil("the start's fetch reaches the upstream", deadline: .seconds(120)) { upstream.requests.count > asked }
                    let ready = try await client.request("/readyz")
                    #expect(ready.status == .ok, "\(ready.text)")
                    #expect(ready.json["latestDate"] as? String == "2026-10-29")
                    #expect(try await client.request("/v1/status").json["dataOrigin"] as? String == "upstream")
                    upstream.release()
                    try await waitUntil("the due publication is served", deadline: .seconds(120)) {
                        try await client.poll("/readyz").json["latestDate"] as? String == "2026-10-30"
                    }
                }
            }
        }
    }
}
