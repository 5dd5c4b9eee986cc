import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import RatesCore
import RatesIngest
import RatesServer
import RatesStore
import RatesTestSupport
import RatesUpstream
import Testing

/// Several servers on one PostgreSQL database: one fetches, all serve the same data, and a
/// client's cursor is good on every one of them.
@Suite("Replicas on one PostgreSQL database", .enabled(if: TestPostgres.isEnabled, TestPostgres.unavailable))
struct ReplicaTests {
    static let newDay = Day("2026-10-30")!
    static let firstDay = Day("2026-06-01")!

    /// Fills the database at `url` with the recorded history from ``firstDay`` up to, not including, ``newDay``.
    static func populate(_ url: String) throws {
        let held = FakeUpstream.history.filter { $0.day >= firstDay && $0.day < newDay }
        try RatesStore(location: url).ingest(RatesBatch(base: .euro, days: held), run: FetchRun(startedAt: Date(), source: .seed, provider: "ECB", file: "test", outcome: .updated))
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
        try await waitUntil("one replica holds the fetcher role") {
            roles = []
            for client in clients { roles.append(try await client.poll("/v1/status").json["replicaRole"] as? String ?? "?") }
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
                            try await replica.poll("/v1/latest").json["date"] as? String == Self.newDay.description
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
                        try await replicas.asyncMap { try await $0.poll("/v1/latest?symbols=USD").decimalText("rates", "USD") }.allSatisfy { $0 == published[usd] }
                    }
                    copy.apply(try await pullAll(replicas[0], cursor: copy.cursor))
                    print("replicas: \(arrivedAtOnce) of 20 corrections reached the client from the next replica at once, the rest a sync later")
                    #expect(upstream.requests.count == 21)

                    // The client's copy is the database's data, value for value.
                    let stored = try RatesStore(location: url).snapshot().days.filter { $0.day >= Day("2026-10-01")! }
                    let expected = Dictionary(uniqueKeysWithValues: stored.map { ($0.day.description, Dictionary(uniqueKeysWithValues: $0.texts.map { ($0.key.rawValue, $0.value) })) })
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
                    try await waitUntil("one of the two replicas fetches") {
                        roles = []
                        for replica in replicas {
                            try replica.expectRunning()
                            roles.append((try? await CrashRecoveryTests.json(replica, "/v1/status"))?["replicaRole"] as? String ?? "?")
                        }
                        return roles.sorted() == ["fetcher", "follower"]
                    }
                    let fetcher = try #require(roles.firstIndex(of: "fetcher"))
                    let survivor = replicas[1 - fetcher]
                    upstream.publish(through: Self.newDay)
                    let killed = ContinuousClock.now
                    _ = try await replicas[fetcher].kill()
                    try await CrashRecoveryTests.waitUntilServing(Self.newDay, survivor)
                    let failover = ContinuousClock.now - killed
                    #expect(failover < waitLimit, "the new day served \(failover) after the kill")
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

extension ReplicaTests {
    @Test("PostgreSQL unreachable under load: a replica answers every request from memory, is not ready while it cannot know of a due publication, catches up by itself when the database is back, and still stops on SIGTERM")
    func databaseOutage() async throws {
        try await TestPostgres.withDatabase { url in
            try Self.populate(url)
            let server = try #require(URLComponents(string: url))
            let upstream = FakeUpstream(publishedThrough: Self.newDay.adding(days: -1), firstDay: Self.firstDay)
            try await upstream.run { upstreamURL in
                try await CuttableTCPProxy.run(forwardingTo: server.host ?? "127.0.0.1", port: server.port ?? 5432) { proxy in
                    var direct = TestServer.configuration(database: url, upstream: upstreamURL)
                    direct.providers = []
                    try await buildApplication(direct, logger: TestServer.logger).test(.live) { fetcher in
                        try await waitUntil("the replica on a direct connection fetches") {
                            try await fetcher.poll("/v1/status").json["replicaRole"] as? String == "fetcher"
                        }
                        // The replica whose database goes away is a process of its own, reaching the
                        // database through the proxy, on the real clock: the recorded rates are weeks
                        // behind it, so once cut off it cannot know whether another replica has newer ones.
                        let replica = try Child.launch(
                            "rates-relay",
                            ["serve", "--db", proxy.url(through: url), "--upstream-url", upstreamURL, "--host", "127.0.0.1", "--port", "0", "--no-seed", "--providers", "none"])
                        do {
                            // It fetches on a schedule once it holds the role: refused it, it waits for no fetch of its own.
                            try await waitUntil("the replica follows and is ready") {
                                try replica.expectRunning()
                                guard (try? await replica.get("/v1/status").json["replicaRole"] as? String) == "follower" else { return false }
                                return (try? await replica.get("/readyz").status) == 200
                            }
                            let ready = try await replica.get("/readyz")
                            #expect(ready.status == 200 && ready.json["database"] as? String == "reachable", "\(ready)")
                            let cursor = try #require(try await replica.get("/v1/sync?from=2026-10-01").json["cursor"] as? String)

                            // The database goes away under load: every answer still comes, from memory.
                            proxy.cut()
                            let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                                for worker in 0..<10 {
                                    group.addTask {
                                        var codes: [Int] = []
                                        for index in 0..<30 {
                                            let paths = [
                                                "/v1/latest?base=USD", "/v1/rates/2026-10-0\(1 + index % 9)", "/v1/sync?cursor=\(cursor)",
                                                "/v1/convert?from=GBP&to=JPY&amount=\(worker + 1)",
                                            ]
                                            codes.append(try await replica.get(paths[index % paths.count]).status)
                                        }
                                        return codes
                                    }
                                }
                                return try await group.reduce(into: []) { $0 += $1 }
                            }
                            #expect(statuses.count == 300 && statuses.allSatisfy { $0 == 200 }, "\(Dictionary(statuses.map { ($0, 1) }, uniquingKeysWith: +))")
                            try await waitUntil("the replica reports it cannot vouch for its rates") {
                                let answer = try await replica.get("/readyz")
                                return answer.status == 503 && answer.json["type"] as? String == "urn:rates-relay:problem:not-ready"
                            }
                            #expect(try await replica.get("/v1/latest").status == 200, "still answering from memory")

                            // Meanwhile the fetcher stores a publication; then the database is back.
                            upstream.publish(through: Self.newDay)
                            #expect(try await fetcher.refresh().json["outcome"] as? String == "updated")
                            try await proxy.restore()
                            try await waitUntil("the replica reconnects by itself, catches up and is ready again") {
                                let ready = try await replica.get("/readyz")
                                let latest = try await replica.get("/v1/latest").json["date"] as? String
                                return ready.status == 200 && ready.json["database"] as? String == "reachable" && latest == Self.newDay.description
                            }
                            let rates = try await [fetcher.request("/v1/latest").json["rates"], replica.get("/v1/latest").json["rates"]].map { $0 as? [String: Double] }
                            #expect(rates[0] != nil && rates[0] == rates[1], "the same rates on both replicas")

                            // After the outage it still stops when asked (its fetcher-role loop once
                            // waited forever on the connection the outage closed).
                            _ = kill(replica.process.processIdentifier, SIGTERM)
                            #expect(try await replica.waitForExit(within: .seconds(30)) == 0, "SIGTERM after an outage ends the replica cleanly")
                        } catch {
                            _ = try? await replica.kill()
                            throw error
                        }
                    }
                }
            }
        }
    }
}

extension ReplicaTests {
    /// Stores the ECB's publications from ``firstDay`` through ``newDay`` in the database at `url`
    /// through the one ingest path, recorded as a seed from `file`.
    static func storeSeed(at url: String, file: String) throws {
        let held = FakeUpstream.history.filter { $0.day >= Self.firstDay && $0.day <= Self.newDay }
        let store = try RatesStore(location: url)
        let state = ServerState(snapshot: RatesSnapshot(epoch: store.epoch, version: try store.version(), days: [DayTable]()))
        try Ingestor(store: store, state: state, logger: TestServer.logger).ingest(
            ECBProvider.publications(of: RatesBatch(base: .euro, days: held)), of: (ProviderKey.ecb, .euro),
            run: FetchRun(startedAt: Date(), source: .seed, provider: "ECB", file: file, outcome: .updated), notAfter: Self.newDay.adding(days: 1))
    }
}

extension ReplicaTests {
    /// Runs `body` with a fetcher on a direct connection to a new database and a follower reaching
    /// it through `proxy`, both in this process, on a clock that says the newest stored day is the
    /// newest published: nothing new is due.
    static func withCurrentReplicaBehindProxy(
        _ body: @escaping @Sendable (_ proxy: CuttableTCPProxy, _ fetcher: any TestClientProtocol, _ replica: any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestPostgres.withDatabase { url in
            // Stored as the ECB's publications (its quotes too), as a fetch stores them.
            try Self.storeSeed(at: url, file: "test")
            let server = try #require(URLComponents(string: url))
            let upstream = FakeUpstream(publishedThrough: Self.newDay, firstDay: Self.firstDay)
            try await upstream.run { upstreamURL in
                try await CuttableTCPProxy.run(forwardingTo: server.host ?? "127.0.0.1", port: server.port ?? 5432) { proxy in
                    var direct = TestServer.configuration(database: url, upstream: upstreamURL)
                    direct.providers = []
                    let cutOff = {
                        var configuration = direct
                        configuration.database = proxy.url(through: url)
                        return configuration
                    }()
                    try await buildApplication(direct, logger: TestServer.logger).test(.live) { fetcher in
                        try await waitUntil("the replica on a direct connection fetches") {
                            try await fetcher.poll("/v1/status").json["replicaRole"] as? String == "fetcher"
                        }
                        try await buildApplication(cutOff, logger: TestServer.logger).test(.live) { replica in
                            try await waitUntil("the replica behind the proxy follows") {
                                try await replica.poll("/v1/status").json["replicaRole"] as? String == "follower"
                            }
                            let ready = try await replica.request("/readyz")
                            #expect(ready.status == .ok && ready.json["database"] as? String == "reachable")
                            try await body(proxy, fetcher, replica)
                        }
                    }
                }
            }
        }
    }

    @Test("PostgreSQL unreachable while nothing new is due: the replica stays ready, says the database is unreachable, and says so no more once it is back")
    func databaseOutageWhileCurrent() async throws {
        try await Self.withCurrentReplicaBehindProxy { proxy, _, replica in
            proxy.cut()
            try await waitUntil("the replica notices the database is gone") {
                try await replica.request("/readyz").json["database"] as? String == "unreachable"
            }
            #expect(try await replica.request("/readyz").status == .ok, "its rates are current: it stays in the load balancer")
            #expect(try await replica.request("/v1/latest").json["date"] as? String == Self.newDay.description)

            try await proxy.restore()
            try await waitUntil("the replica reaches the database again") {
                try await replica.request("/readyz").json["database"] as? String == "reachable"
            }
        }
    }

    @Test("PostgreSQL stops answering without a reset (a network partition): the replica keeps answering, gives up on the database within its deadline instead of waiting for TCP, and recovers when the partition heals")
    func databasePartition() async throws {
        try await Self.withCurrentReplicaBehindProxy { proxy, _, replica in
            proxy.stall()
            // Requests that need the database wait on it, more of them than this machine has cores,
            // each on a connection of its own (the test client's one connection would queue the
            // requests below behind them, as HTTP/1.1 answers in order).
            let port = try #require(replica.port)
            let waiting = Task {
                await withTaskGroup(of: Int?.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/latest?providers=ECB")
                            return try? await Int(HTTPClient.shared.execute(request, timeout: .seconds(120)).status.code)
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            // Meanwhile everything answered from memory still answers (each within the test
            // client's 20 s), until the replica has given up on the database.
            var answered = 0
            try await waitUntil("the replica gives up on the database") {
                #expect(try await replica.request("/healthz").status == .ok)
                #expect(try await replica.request("/v1/latest").json["date"] as? String == Self.newDay.description)
                answered += 2
                let ready = try await replica.request("/readyz")
                return ready.status == .ok && ready.json["database"] as? String == "unreachable"
            }
            #expect(answered >= 2)
            // Those waiting for the database were answered once it was given up on: 503, not a hang.
            #expect(await waiting.value == [503, 503, 503, 503])

            proxy.heal()
            try await waitUntil("the replica reaches the database again") {
                try await replica.request("/readyz").json["database"] as? String == "reachable"
            }
            let quoted = try await replica.request("/v1/latest?providers=ECB")
            #expect(quoted.status == .ok, "\(quoted.status) \(quoted.text)")
        }
    }
}

extension ReplicaTests {
    @Test("on the bundled seed, the replica that fetches is not ready while its first fetch is out, and a follower is ready at once: the fetcher's fetches reach it")
    func seedReadiness() async throws {
        try await TestPostgres.withDatabase { url in
            // The ECB's publications, stored as the bundled seed stores them.
            try Self.storeSeed(at: url, file: "eurofxref-hist.zip (bundled)")
            let upstream = FakeUpstream(publishedThrough: Self.newDay, firstDay: Self.firstDay)
            // The upstream accepts the fetcher's first fetch and does not answer it until released.
            upstream.hold()
            try await upstream.run { upstreamURL in
                let configuration = {
                    var configuration = TestServer.configuration(database: url, upstream: upstreamURL)
                    configuration.providers = []
                    configuration.schedule = true
                    return configuration
                }()
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { fetcher in
                    defer { upstream.release() }
                    try await waitUntil("the fetcher's first fetch reaches the upstream") { !upstream.requests.isEmpty }
                    #expect(try await fetcher.request("/v1/status").json["replicaRole"] as? String == "fetcher")
                    #expect(try await fetcher.request("/readyz").status == .serviceUnavailable)
                    try await buildApplication(configuration, logger: TestServer.logger).test(.live) { follower in
                        try await waitUntil("the follower is ready") { try await follower.poll("/readyz").status == .ok }
                        #expect(try await follower.request("/v1/status").json["replicaRole"] as? String == "follower")
                        #expect(try await fetcher.request("/readyz").status == .serviceUnavailable, "the fetcher's first fetch is still out")
                        upstream.release()
                        try await waitUntil("the fetcher is ready once its first fetch has ended") {
                            try await fetcher.poll("/readyz").status == .ok
                        }
                    }
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
