import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import RatesCore
import RatesServer
import RatesTestSupport
import Testing

/// Three providers publish while a thousand sync clients poll: each provider's source is asked
/// once for its publication, whatever the load, and every client converges on the same data.
@Suite("A stampede while three providers publish")
struct ProviderStampedeTests {
    static let clients = 1_000
    /// One merged value each provider alone brings: the NBP's afghani, the Bank of Russia's rouble, the Bank of Canada's Taiwan dollar.
    static let markers: [(provider: String, day: String, code: String)] = [
        ("NBP", "2026-03-04", "AFN"), ("CBR", "2026-04-25", "RUB"), ("BOC", "2026-03-18", "TWD"),
    ]

    @Test("1,000 sync clients during a publication of three providers: one upstream call per provider, every client ends with the same cursor and data")
    func oneCallPerProviderPublication() async throws {
        let upstream = ProvidersTests.upstream()
        upstream.serve("/boc/valet/observations/group/FX_RATES_DAILY/json", .fixture("boc-canada/valet_group_FX_RATES_DAILY_start-2026-03-12.json"))
        // The publications are out only once every client is polling.
        upstream.hold()
        try await upstream.run { root in
            try await TestServer.withSeededDatabase { database in
                var configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
                configuration.schedule = true
                configuration.providers = ["NBP", "CBR", "BOC"]
                configuration.upstreamOverrides = FakeProviderUpstream.overrides(root: root, configuration.providers)
                configuration.providerBackfillDays = 0
                configuration.providerMaxInterval = .seconds(3_600)
                configuration.upstreamTimeout = .seconds(600)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                    let base = "http://127.0.0.1:\(try #require(server.port))"
                    let pool = HTTPClient.Configuration(connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 256))
                    try await withHTTPClient(HTTPClient(configuration: pool)) { http in
                        // Everyone starts up to date with the seeded ECB data since February.
                        var page = try await Self.get(http, base + "/v1/sync?from=2026-02-01")
                        while page.json["more"] as? Bool == true { page = try await Self.get(http, base + "/v1/sync?cursor=\(page.json["cursor"] as! String)") }
                        let startCursor = try #require(page.json["cursor"] as? String)
                        let startETag = page.etag ?? ""

                        let allIngested = Locked(false)
                        let polling = Locked(0)
                        let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                            for index in 0..<Self.clients {
                                group.addTask {
                                    try await Self.follow(http, base: base, cursor: startCursor, etag: startETag, index: index, polling: polling, allIngested: allIngested)
                                }
                            }
                            // The publications go out once every client has polled at least once.
                            try await waitUntil("every client polls") { polling.withLock { $0 } >= Self.clients }
                            upstream.release()
                            try await waitUntil("the three publications are ingested") {
                                let providers = try await Self.get(http, base + "/v1/providers").json["providers"] as? [[String: Any]] ?? []
                                return ["NBP", "CBR", "BOC"].allSatisfy { key in providers.contains { $0["key"] as? String == key && $0["latestDate"] is String } }
                            }
                            allIngested.withLock { $0 = true }
                            return try await group.reduce(into: []) { $0.append($1) }
                        }

                        #expect(
                            upstream.requestCount("/nbp/api/exchangerates/tables/A/") == 1 && upstream.requestCount("/nbp/api/exchangerates/tables/B/") == 1)
                        #expect(upstream.requestCount("/cbr/scripts/XML_daily.asp") == 1 && upstream.requestCount("/boc/") == 1, "\(upstream.received.map(\.target))")
                        #expect(outcomes.count == Self.clients)
                        let first = try #require(outcomes.first)
                        #expect(outcomes.allSatisfy { $0.cursor == first.cursor }, "\(Set(outcomes.map(\.cursor)).count) distinct final cursors")
                        for marker in Self.markers {
                            #expect(outcomes.allSatisfy { $0.received.contains("\(marker.day) \(marker.code)") }, "\(marker.provider)'s \(marker.code) reached every client")
                        }
                        print("ProviderStampedeTests: \(outcomes.count) clients made \(outcomes.reduce(0) { $0 + $1.requests }) /v1/sync requests; "
                            + "upstream requests: \(upstream.received.count)")
                    }
                }
            }
        }
    }

    /// Where one client ended: its cursor, the (day, currency) values it received, how many requests it made.
    struct Outcome: Sendable {
        var cursor: String
        var received: Set<String>
        var requests: Int
    }

    /// One client: polls its cursor with `If-None-Match`, taking every page, until a 304 answers
    /// a request made after all three publications were ingested.
    static func follow(
        _ http: HTTPClient, base: String, cursor: String, etag: String, index: Int, polling: Locked<Int>, allIngested: Locked<Bool>
    ) async throws -> Outcome {
        var outcome = Outcome(cursor: cursor, received: [], requests: 0)
        var etag = etag
        while true {
            let settled = allIngested.withLock { $0 }
            let response = try await get(http, base + "/v1/sync?cursor=\(outcome.cursor)", ifNoneMatch: etag)
            outcome.requests += 1
            if outcome.requests == 1 { polling.withLock { $0 += 1 } }
            if response.status == 304 {
                if settled { return outcome }
                try await Task.sleep(for: .milliseconds(500 + index % 500))
                continue
            }
            #expect(response.status == 200)
            let json = response.json
            outcome.cursor = try #require(json["cursor"] as? String)
            etag = response.etag ?? ""
            for (day, values) in json["upserts"] as? [String: [String: Any]] ?? [:] {
                for code in values.keys { outcome.received.insert("\(day) \(code)") }
            }
        }
    }

    static func get(_ http: HTTPClient, _ url: String, ifNoneMatch: String? = nil) async throws -> HTTPAnswer {
        try await http.answer(url, ifNoneMatch: ifNoneMatch, timeout: .seconds(120), maxBytes: 1 << 24)
    }
}
