import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import RatesCore
import RatesServer
import RatesStore
import RatesTestSupport
import Testing

/// Several servers on one PostgreSQL database: one fetches, all serve the same data, and a
/// client's cursor is good on every one of them.
@Suite("Replicas on one PostgreSQL database", .enabled(if: TestPostgres.isAvailable, TestPostgres.unavailable))
struct ReplicaTests {
    static let newDay = Day("2026-10-30")!
    static let firstDay = Day("2026-06-01")!

    /// Fills the database at `url` with the recorded history from ``firstDay`` up to, not including, ``newDay``.
    static func populate(_ url: String) throws {
        let held = FakeUpstream.history.filter { $0.day >= firstDay && $0.day < newDay }
        try RatesStore(location: url).ingest(RatesBatch(base: .euro, days: held), run: FetchRun(startedAt: Date(), source: .seed, file: "test", outcome: .updated))
    }

    /// Runs `count` servers (in this process, each with its own connections) on the database at
    /// `url`, fetching the ECB from `upstream`, and `body` with a client of each.
    static func withReplicas(
        _ count: Int, url: String, upstream: String, _ body: @Sendable ([any TestClientProtocol]) async throws -> Void
    ) async throws {
        var configuration = TestServer.configuration(database: url, upstream: upstream)
        configuration.providers = []
        try await serve(count, configuration, clients: [], body)
    }

    private static func serve(
        _ remaining: Int, _ configuration: ServerConfiguration, clients: [any TestClientProtocol],
        _ body: @Sendable ([any TestClientProtocol]) async throws -> Void
    ) async throws {
        guard remaining > 0 else { return try await body(clients) }
        try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
            try await serve(remaining - 1, configuration, clients: clients + [client], body)
        }
    }

    /// The replicas' roles, once exactly one of them fetches.
    static func roles(_ clients: [any TestClientProtocol]) async throws -> [String] {
        var roles: [String] = []
        try await waitUntil("one replica holds the fetcher role", deadline: .seconds(60)) {
            roles = []
            for client in clients { roles.append(try await client.request("/v1/status").json["replicaRole"] as? String ?? "?") }
            return roles.filter { $0 == "fetcher" }.count == 1 && roles.filter { $0 == "follower" }.count == clients.count - 1
        }
        return roles
    }

    @Test("three replicas: one upstream call per publication under 1,000 client requests, every replica serves it, and a client alternating replicas for 20 syncs never resets")
    func threeReplicas() async throws {
        try await TestPostgres.withDatabase { url in
            try Self.populate(url)
            let upstream = FakeUpstream(publishedThrough: Self.newDay.adding(days: -1), firstDay: Self.firstDay)
            try await upstream.run { upstreamURL in
                try await Self.withReplicas(3, url: url, upstream: upstreamURL) { replicas in
                    let roles = try await Self.roles(replicas)
                    let follower = try #require(roles.firstIndex(of: "follower"))
                    var copy = SyncedCopy()
                    copy.apply(try await pullAll(replicas[0], from: "2026-10-01"))
                    let cursor = try #require(copy.cursor)

                    // A publication, fetched on a follower's refresh (the fetcher carries it out), while
                    // 1,000 client requests arrive, spread over the replicas.
                    upstream.publish(through: Self.newDay)
                    let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                        group.addTask { [try await replicas[follower].refresh().status.code] }
                        for worker in 0..<20 {
                            group.addTask {
                                var codes: [Int] = []
                                for index in 0..<50 {
                                    let path = index.isMultiple(of: 2) ? "/v1/sync?cursor=\(cursor)" : "/v1/latest?base=USD"
                                    codes.append(try await replicas[(worker + index) % replicas.count].request(path).status.code)
                                }
                                return codes
                            }
                        }
                        return try await group.reduce(into: []) { $0 += $1 }
                    }
                    #expect(statuses.count == 1_001 && statuses.allSatisfy { $0 == 200 }, "\(Dictionary(statuses.map { ($0, 1) }, uniquingKeysWith: +))")
                    #expect(upstream.requests.count == 1, "one upstream call for the publication: \(upstream.requests)")
                    for replica in replicas {
                        try await waitUntil("every replica serves the new day") {
                            try await replica.request("/v1/latest").json["date"] as? String == Self.newDay.description
                        }
                    }
                    let tags = try await replicas.asyncMap { try await $0.request("/v1/latest?base=USD").headers[.eTag] }
                    #expect(Set(tags).count == 1 && tags[0] != nil, "the same ETag for the same data on every replica: \(tags)")

                    // 20 corrections, each refreshed on one replica and synced from the next (which may
                    // not have applied it yet: then it comes with a later sync, never as a reset).
                    let usd = CurrencyCode("USD")!
                    var published = try #require(upstream.published(Self.newDay))
                    var arrivedAtOnce = 0
                    for step in 0..<20 {
                        published[usd] = "1.17\(String(format: "%02d", step))1"
                        upstream.amend(Self.newDay, rates: published)
                        let answer = try await replicas[step % replicas.count].refresh()
                        #expect(answer.json["outcome"] as? String == "updated", "step \(step): \(answer.text)")
                        let pages = try await pullAll(replicas[(step + 1) % replicas.count], cursor: copy.cursor)
                        #expect(pages.allSatisfy { !$0.reset }, "step \(step): no reset")
                        if pages.compactMap({ $0.upserts[Self.newDay.description]?["USD"] }).last == published[usd] { arrivedAtOnce += 1 }
                        copy.apply(pages)
                    }
                    try await waitUntil("every replica applied the last correction") {
                        try await replicas.asyncMap { try await $0.request("/v1/latest?symbols=USD").decimalText("rates", "USD") }.allSatisfy { $0 == published[usd] }
                    }
                    copy.apply(try await pullAll(replicas[0], cursor: copy.cursor))
                    print("replicas: \(arrivedAtOnce) of 20 corrections reached the client from the next replica at once, the rest a sync later")
                    #expect(upstream.requests.count == 21)

                    // The client's copy is the database's data, value for value.
                    let stored = try RatesStore(location: url).snapshot().days.filter { $0.day >= Day("2026-10-01")! }
                    let expected = Dictionary(uniqueKeysWithValues: stored.map { ($0.day.description, Dictionary(uniqueKeysWithValues: $0.rates.map { ($0.key.rawValue, $0.value) })) })
                    #expect(copy.rates == expected)
                }
            }
        }
    }
}

extension ReplicaTests {
    @Test("the fetcher killed with SIGKILL: the other replica takes the role and fetches the next publication within 60 s; the change log has no duplicate and no gap")
    func failover() async throws {
        try await TestPostgres.withDatabase { url in
            try Self.populate(url)
            let upstream = FakeUpstream(publishedThrough: Self.newDay.adding(days: -1), firstDay: Self.firstDay)
            try await upstream.run { upstreamURL in
                // `serve` runs on the real clock: the data is behind it, so a replica that takes the role fetches at once.
                let serve = {
                    try Child.launch(
                        "rates-relay",
                        ["serve", "--db", url, "--upstream-url", upstreamURL, "--host", "127.0.0.1", "--port", "0", "--no-seed", "--providers", "none"])
                }
                let replicas = [try serve(), try serve()]
                do {
                    var roles: [String] = []
                    try await waitUntil("one of the two replicas fetches", deadline: .seconds(120)) {
                        roles = []
                        for replica in replicas { roles.append((try? await CrashRecoveryTests.json(replica, "/v1/status"))?["replicaRole"] as? String ?? "?") }
                        return roles.sorted() == ["fetcher", "follower"]
                    }
                    let fetcher = try #require(roles.firstIndex(of: "fetcher"))
                    let survivor = replicas[1 - fetcher]
                    upstream.publish(through: Self.newDay)
                    let killed = ContinuousClock.now
                    _ = try await replicas[fetcher].kill()
                    try await CrashRecoveryTests.waitUntilServing(Self.newDay, survivor)
                    let failover = ContinuousClock.now - killed
                    #expect(failover < .seconds(60), "the new day served \(failover) after the kill")
                    #expect(try await CrashRecoveryTests.json(survivor, "/v1/status")["replicaRole"] as? String == "fetcher")
                    print("replica failover: the surviving replica served the next publication \(failover) after the fetcher was killed")

                    let log = try RatesStore(location: url).changeLog(after: 0)
                    #expect(log.map(\.sequence) == Array(1...Int64(log.count)), "no gap, no duplicate sequence number")
                    let newDay = log.filter { $0.day == Self.newDay }
                    let published = try #require(FakeUpstream.history.last { $0.day == Self.newDay })
                    #expect(newDay.count == published.rates.count && Set(newDay.map(\.currency)).count == newDay.count, "each value of the new day logged once")
                    _ = try await survivor.kill()
                } catch {
                    for replica in replicas { _ = try? await replica.kill() }
                    throw error
                }
            }
        }
    }
}

extension Sequence {
    /// The results of `transform` on each element, one after another.
    func asyncMap<Result>(_ transform: (Element) async throws -> Result) async rethrows -> [Result] {
        var results: [Result] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
