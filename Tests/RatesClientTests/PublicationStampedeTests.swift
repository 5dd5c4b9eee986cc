import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import RatesClient
import RatesCore
import RatesServer
import RatesTestSupport
import Testing

/// A publication lands while a thousand up-to-date clients are polling `/v1/sync`, and SDK
/// instances are syncing: the upstream is asked once for the new file, and every client ends
/// with the same cursor, the same ETag and the ECB's values for the new day.
///
/// (In the client test target because it drives real `RatesClient` instances as well as raw HTTP.)
@Suite("A stampede right after a publication")
struct PublicationStampedeTests {
    static let firstDay = Day("2026-06-01")!
    static let dayBefore = Day("2026-10-29")!
    static let lastDay = Day("2026-10-30")!
    static let rawClients = 1_000
    static let sdkClients = 30

    /// Where one raw HTTP client ended.
    struct Outcome: Sendable, Equatable {
        var cursor: String
        var etag: String
        var newDay: [String: String]
        var finalStatus: UInt
        /// Requests it made (not compared: clients poll at different moments).
        var requests = 0

        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            (lhs.cursor, lhs.etag, lhs.newDay, lhs.finalStatus) == (rhs.cursor, rhs.etag, rhs.newDay, rhs.finalStatus)
        }
    }

    @Test("1,000 syncing clients and 30 SDKs during a publication cause no upstream request, the publication is fetched once, and all converge on the same data")
    func oneUpstreamRequestAndConvergence() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.dayBefore, firstDay: Self.firstDay)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { upstreamURL in
                let configuration = TestServer.configuration(database: database, upstream: upstreamURL)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                    #expect(try await server.refresh().json["outcome"] as? String == "updated")
                    let base = "http://127.0.0.1:\(try #require(server.port))"
                    try await withHTTPClient(HTTPClient(configuration: .init(connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 256)))) { http in

                        // Everyone is up to date with day D.
                        var start = try await Self.get(http, base + "/v1/sync?from=2026-10-01")
                        while start.json["more"] as? Bool == true {
                            start = try await Self.get(http, base + "/v1/sync?cursor=\(start.json["cursor"] as! String)")
                        }
                        let cursorD = try #require(start.json["cursor"] as? String)
                        let upToDate = try await Self.get(http, base + "/v1/sync?cursor=\(cursorD)")
                        let etagD = try #require(upToDate.etag)
                        let caches = (0..<Self.sdkClients).map { _ in TemporaryCache() }
                        let sdks = try caches.map { cache in
                            try RatesClient(configuration: .init(
                                server: URL(string: base + "/")!, cacheURL: cache.url, session: URLSession(configuration: .ephemeral),
                                window: Day("2026-10-01"),
                                retry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(20), maxDelay: .milliseconds(100))))
                        }
                        for sdk in sdks { #expect(try await sdk.sync().latestDate == Self.dayBefore) }
                        let upstreamBefore = upstream.requests.count

                        // D+1 is published; the upstream holds the server's fetch of it until all the refreshes below
                        // have arrived, and everyone keeps asking meanwhile.
                        upstream.publish(through: Self.lastDay)
                        upstream.hold()
                        let deadline = ContinuousClock.now + .seconds(60)
                        async let raw = withThrowingTaskGroup(of: Outcome.self) { group in
                            for index in 0..<Self.rawClients {
                                group.addTask { try await Self.followUntilCurrent(http, base: base, cursor: cursorD, etag: etagD, jitter: index, deadline: deadline) }
                            }
                            return try await group.reduce(into: [Outcome]()) { $0.append($1) }
                        }
                        async let sdkLatest = withThrowingTaskGroup(of: [CurrencyCode: String].self) { group in
                            for sdk in sdks {
                                group.addTask {
                                    while try await sdk.sync().latestDate != Self.lastDay {
                                        guard ContinuousClock.now < deadline else { throw CancellationError() }
                                        try await Task.sleep(for: .milliseconds(100))
                                    }
                                    return try #require(try sdk.latest()).rates.mapValues(\.description)
                                }
                            }
                            return try await group.reduce(into: [[CurrencyCode: String]]()) { $0.append($1) }
                        }
                        // Twenty operators press refresh at once: the first starts the fetch; the others, arriving
                        // while it runs, share one fetch that starts after it (a conditional GET the upstream answers 304).
                        let refreshes = try await withThrowingTaskGroup(of: String.self) { group in
                            for _ in 0..<20 {
                                group.addTask {
                                    try await http.refresh(base: base)
                                }
                            }
                            try await waitUntil("19 refreshes wait for the first one's fetch") {
                                try await Self.get(http, base + "/v1/status").json["refreshesWaiting"] as? Int == 19
                            }
                            upstream.release()
                            return try await group.reduce(into: [String]()) { $0.append($1) }
                        }
                        let outcomes = try await raw
                        let sdkResults = try await sdkLatest

                        // The clients' thousands of requests caused none; the publication was fetched once, and the
                        // refreshes that arrived during that fetch caused one re-check.
                        let fetched = Array(upstream.requests.dropFirst(upstreamBefore))
                        #expect(fetched == ["/eurofxref-daily.xml", "/eurofxref-daily.xml"], "\(fetched)")
                        #expect(refreshes.filter { $0.contains("\"outcome\":\"updated\"") }.count == 1, "\(Set(refreshes))")
                        #expect(refreshes.filter { $0.contains("\"outcome\":\"notModified\"") }.count == 19, "\(Set(refreshes))")

                        let published = Dictionary(uniqueKeysWithValues: try #require(FakeUpstream.history.first { $0.day == Self.lastDay }).rates.map { ($0.key.rawValue, $0.value) })
                        #expect(outcomes.count == Self.rawClients)
                        print("PublicationStampedeTests: \(outcomes.count) raw clients made \(outcomes.reduce(0) { $0 + $1.requests }) /v1/sync requests "
                            + "(\(outcomes.filter { $0.requests > 2 }.count) polled at least once before the new day was in), \(sdkResults.count) SDKs; "
                            + "upstream requests for the publication: \(upstream.requests.count - upstreamBefore)")
                        let first = try #require(outcomes.first)
                        #expect(first.newDay == published, "the new day's values are the ECB's")
                        #expect(first.finalStatus == 304, "the converged cursor is answered 304 with its ETag")
                        #expect(first.etag != etagD && first.cursor != cursorD)
                        #expect(outcomes.allSatisfy { $0 == first }, "\(Set(outcomes.map(\.cursor)).count) distinct cursors, \(Set(outcomes.map(\.etag)).count) distinct ETags")

                        let publishedCodes = Dictionary(uniqueKeysWithValues: published.map { (CurrencyCode($0.key)!, $0.value) })
                        #expect(sdkResults.count == Self.sdkClients && sdkResults.allSatisfy { $0 == publishedCodes }, "every SDK holds the ECB's values for the new day")
                    }
                }
            }
        }
    }

    /// One raw client: polls its cursor (with `If-None-Match`) until it has the new day, follows
    /// `more` pages, then checks its final cursor is answered 304.
    static func followUntilCurrent(_ http: HTTPClient, base: String, cursor initialCursor: String, etag initialETag: String, jitter: Int, deadline: ContinuousClock.Instant) async throws -> Outcome {
        var cursor = initialCursor, etag = initialETag
        var newDay: [String: String] = [:]
        var requests = 1
        while true {
            requests += 1
            let response = try await get(http, base + "/v1/sync?cursor=\(cursor)", ifNoneMatch: etag)
            if response.status == 200 {
                let json = response.json
                cursor = json["cursor"] as! String
                etag = response.etag ?? ""
                if let upserts = json["upserts"] as? [String: [String: String]], let day = upserts[lastDay.description] {
                    newDay.merge(day) { $1 }
                }
                if json["more"] as? Bool == true { continue }
                if json["latestDate"] as? String == lastDay.description { break }
            } else if response.status != 304 {
                throw HTTPClientError.invalidURL  // any other status fails the test through the thrown error
            }
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(150 + jitter % 100))
        }
        let final = try await get(http, base + "/v1/sync?cursor=\(cursor)", ifNoneMatch: etag)
        return Outcome(cursor: cursor, etag: etag, newDay: newDay, finalStatus: final.status, requests: requests)
    }

    static func get(_ http: HTTPClient, _ url: String, ifNoneMatch: String? = nil) async throws -> HTTPAnswer {
        try await http.answer(url, ifNoneMatch: ifNoneMatch, timeout: .seconds(30), maxBytes: 1 << 22)
    }
}
