import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import RatesCore
@testable import RatesIngest
import RatesServer
import RatesTestSupport
import RatesUpstream
import Testing

@Suite("Fetching from the upstream")
struct UpstreamFetchTests {
    static let lastDay = Day("2026-10-30")!
    static let dayBefore = Day("2026-10-29")!

    @Test("an empty database is backfilled from the full history at start, with exact values")
    func backfillFromHistory() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                var configuration = TestServer.configuration(database: database, upstream: url)
                configuration.schedule = true
                let app = try buildApplication(configuration, logger: TestServer.logger)
                try await app.test(.live) { client in
                    let status = try await waitForStatus(client) { $0["latestDate"] as? String == "2026-10-30" }
                    #expect(status["dataOrigin"] as? String == "upstream")
                    #expect(status["stale"] as? Bool == false)
                    #expect(try await client.request("/v1/rates/1999-01-04?symbols=USD").decimalText("rates", "USD") == "1.1789")
                    #expect(try await client.request("/v1/latest?symbols=GBP").decimalText("rates", "GBP") == "0.8338")
                    #expect(try await client.request("/v1/rates/2022-03-02?symbols=RUB").status == .notFound)
                }
                #expect(upstream.requests == ["/eurofxref-hist.xml"])
            }
        }
    }

    @Test("a restart on an existing database serves at once and downloads nothing")
    func restartServesWithoutDownload() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay)
        try await TestServer.withSeededDatabase { database in
            try await upstream.run { url in
                var configuration = TestServer.configuration(database: database, upstream: url)
                configuration.schedule = true
                // First run: the seeded data is confirmed with one small daily fetch.
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    _ = try await waitForStatus(client) { $0["stale"] as? Bool == false }
                }
                #expect(upstream.requests == ["/eurofxref-daily.xml"])
                // Second run: current data, nothing to fetch; the first request is answered from the database.
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    let latest = try await client.request("/v1/latest?symbols=USD")
                    #expect(latest.status == .ok && latest.decimalText("rates", "USD") == "1.1172")
                    let status = try await waitForStatus(client) { $0["nextFetchAt"] is String }
                    #expect(status["stale"] as? Bool == false)
                    // Monday's publication is due at 15:00 UTC; the check comes sooner, providers.max.interval (6 h) after now.
                    #expect(status["nextFetchAt"] as? String == "2026-10-31T00:00:00Z")
                }
                #expect(upstream.requests == ["/eurofxref-daily.xml"], "no re-download after restart")
            }
        }
    }

    @Test("a new publication is picked up by one daily fetch and changes the ETag")
    func newPublication() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.dayBefore, firstDay: Day("2026-06-01")!)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                let configuration = TestServer.configuration(database: database, upstream: url)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    #expect(try await client.refresh().json["outcome"] as? String == "updated")
                    let before = try await client.request("/v1/latest?symbols=GBP")
                    #expect(before.json["date"] as? String == "2026-10-29")
                    let etag = try #require(before.headers[.eTag])

                    upstream.publish(through: Self.lastDay)
                    let refresh = try await client.refresh().json
                    #expect(refresh["outcome"] as? String == "updated")
                    #expect(refresh["rowsChanged"] as? Int == 29)
                    let after = try await client.request("/v1/latest?symbols=GBP", headers: [.ifNoneMatch: etag])
                    #expect(after.status == .ok)
                    #expect(after.decimalText("rates", "GBP") == "0.8338")
                    #expect(after.headers[.eTag] != etag)

                    // Nothing new: a conditional GET, answered 304 upstream, changes nothing.
                    #expect(try await client.refresh().json["outcome"] as? String == "notModified")
                }
                #expect(upstream.requests == ["/eurofxref-hist.xml", "/eurofxref-daily.xml", "/eurofxref-daily.xml"])
            }
        }
    }

    @Test("hundreds of concurrent clients cause no upstream request; refreshes arriving during a fetch share one more")
    func oneUpstreamCallUnderLoad() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay)
        try await TestServer.withSeededDatabase { database in
            try await upstream.run { url in
                let configuration = TestServer.configuration(database: database, upstream: url)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    let base = "http://127.0.0.1:\(try #require(client.port))"
                    // Enough connections that every request is in flight at once.
                    try await withHTTPClient(HTTPClient(configuration: .init(connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 512)))) { http in
                        let uris = ["/v1/latest", "/v1/latest?base=USD", "/v1/convert?from=GBP&to=JPY&amount=3", "/v1/rates/2010-05-05", "/v1/currencies"]
                        let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                            for index in 0..<400 {
                                group.addTask {
                                    let response = try await http.execute(HTTPClientRequest(url: base + uris[index % uris.count]), timeout: .seconds(30))
                                    _ = try await response.body.collect(upTo: 1 << 20)
                                    return response.status.code
                                }
                            }
                            return try await group.reduce(into: [UInt]()) { $0.append($1) }
                        }
                        #expect(statuses.count == 400 && statuses.allSatisfy { $0 == 200 })
                        #expect(upstream.requests.isEmpty)

                        // The upstream holds its answer until every refresh has arrived, however long that takes.
                        upstream.hold()
                        let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                            for index in 0..<50 {
                                // The first starts the fetch; the others arrive while it is under way.
                                if index == 1 { try await waitForStatus(client) { $0["fetching"] as? Bool == true } }
                                group.addTask {
                                    try await http.refresh(base: base)
                                }
                            }
                            try await waitUntil("the 49 later refreshes wait") { try await client.poll("/v1/status").json["refreshesWaiting"] as? Int == 49 }
                            upstream.release()
                            return try await group.reduce(into: [String]()) { $0.append($1) }
                        }
                        // A refresh answers with a fetch that started after it: the 49 that arrived during the
                        // first fetch share one more, a conditional GET the upstream answers 304.
                        #expect(outcomes.filter { $0.contains("\"outcome\":\"unchanged\"") }.count == 1, "\(Set(outcomes))")
                        #expect(outcomes.filter { $0.contains("\"outcome\":\"notModified\"") }.count == 49, "\(Set(outcomes))")
                        #expect(upstream.requests == ["/eurofxref-daily.xml", "/eurofxref-daily.xml"], "fifty refreshes made two upstream requests")
                    }
                }
            }
        }
    }

    @Test("with no data at all, data endpoints answer 503 with Retry-After, readiness fails and liveness holds")
    func noData() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay)
        upstream.inject(.status(503))
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                let configuration = TestServer.configuration(database: database, upstream: url)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    #expect(try await client.refresh().json["outcome"] as? String == "failed")
                    for uri in ["/v1/latest", "/v1/rates/2020-01-02", "/v1/timeseries?start=2020-01-01", "/v1/convert?from=USD&to=EUR", "/v1/currencies", "/readyz"] {
                        let response = try await client.request(uri)
                        #expect(response.status == .serviceUnavailable, "\(uri)")
                        #expect(response.headers[.retryAfter] != nil, "\(uri)")
                        #expect(response.headers[.contentType] == "application/problem+json", "\(uri)")
                    }
                    #expect(try await client.request("/healthz").status == .ok)
                    let status = try await client.request("/v1/status").json
                    #expect(status["dataOrigin"] as? String == "empty")
                    #expect(status["stale"] as? Bool == true)
                }
            }
        }
    }

    @Test("a first start without network serves the bundled history at once, stale until the upstream answers")
    func offlineFirstStart() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay)
        upstream.inject(.status(503))
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                var configuration = TestServer.configuration(database: database, upstream: url)
                configuration.seed = true
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    #expect(try await client.request("/v1/latest?symbols=GBP").decimalText("rates", "GBP") == "0.8338")
                    #expect(try await client.request("/readyz").status == .ok)
                    var status = try await client.request("/v1/status").json
                    #expect(status["dataOrigin"] as? String == "seed")
                    #expect(status["stale"] as? Bool == true)
                    #expect(try await client.refresh().json["outcome"] as? String == "failed")

                    upstream.inject(nil)
                    #expect(try await client.refresh().json["outcome"] as? String == "unchanged")
                    status = try await client.request("/v1/status").json
                    #expect(status["stale"] as? Bool == false)
                }
            }
        }
    }

    @Test("a failing upstream is retried by the scheduler until it recovers")
    func retriesUntilRecovered() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay, firstDay: Day("2026-06-01")!)
        upstream.inject(.status(500))
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                var configuration = TestServer.configuration(database: database, upstream: url)
                configuration.schedule = true
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    let failed = try await waitForStatus(client) { ($0["lastFetch"] as? [String: Any])?["httpStatus"] as? Int == 500 }
                    #expect((failed["lastFetch"] as? [String: Any])?["outcome"] as? String == "failed")
                    upstream.inject(nil)
                    let status = try await waitForStatus(client) { $0["latestDate"] as? String == "2026-10-30" }
                    #expect(status["dataOrigin"] as? String == "upstream")
                    #expect(upstream.requests.count >= 2)
                }
            }
        }
    }

    @Test("the scheduler waits as long as a 503's Retry-After asks")
    func honoursRetryAfter() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.lastDay)
        upstream.inject(.status(503, retryAfter: "3600"))
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                var configuration = TestServer.configuration(database: database, upstream: url)
                configuration.schedule = true
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    // The test clock stands still, so the next fetch time is exactly now + the wait.
                    let status = try await waitForStatus(client) { $0["nextFetchAt"] is String }
                    #expect(status["nextFetchAt"] as? String == "2026-10-30T19:00:00Z")
                    #expect(upstream.requests.count == 1)
                }
            }
        }
    }
}

@Suite("Retry after a failed fetch")
struct FetchRetryTests {
    let backoff = Backoff(initial: .seconds(30), maximum: .seconds(1800))

    func delay(_ failures: Int, retryAfter: TimeInterval? = nil, random: Double) -> TimeInterval {
        FetchScheduler.retryDelay(afterFailures: failures, retryAfter: retryAfter, backoff: backoff, random: random)
    }

    @Test("the wait doubles per failure, between half and all of the step, up to the maximum")
    func exponentialWithJitter() {
        #expect(delay(1, random: 0) == 15)
        #expect(delay(1, random: 1) == 30)
        #expect(delay(2, random: 0) == 30)
        #expect(delay(4, random: 1) == 240)
        #expect(delay(50, random: 1) == 1800)
        #expect(delay(50, random: 0) == 900)
        let samples = (0..<100).map { _ in FetchScheduler.retryDelay(afterFailures: 3, retryAfter: nil, backoff: backoff) }
        #expect(samples.allSatisfy { (60...120).contains($0) })
        #expect(Set(samples).count > 10, "jittered, not fixed")
    }

    @Test("a longer Retry-After wins over the backoff")
    func retryAfterWins() {
        #expect(delay(1, retryAfter: 600, random: 1) == 600)
        #expect(delay(1, retryAfter: 5, random: 1) == 30)
    }
}

/// Polls `/v1/status` until `condition` holds (at most 60 s).
@discardableResult
func waitForStatus(_ client: some TestClientProtocol, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
    var status: [String: Any] = [:]
    try await waitUntil("/v1/status reaches the expected state") {
        status = try await client.request("/v1/status").json
        return condition(status)
    }
    return status
}
