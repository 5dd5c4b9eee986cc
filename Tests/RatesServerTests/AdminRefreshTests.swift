import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import RatesCore
import RatesIngest
import RatesServer
import RatesStore
import RatesTestSupport
import RatesUpstream
import Testing

@Suite("Refreshing every provider: POST /v1/admin/refresh")
struct AdminRefreshTests {
    static let lastDay = Day("2026-10-30")!
    /// The Bank of Russia's daily table on the fake upstream: one request per fetch (its metal prices are another).
    static let cbrTable = "/cbr/scripts/XML_daily.asp"

    /// Runs `body` against the real server on a seeded database, fetching the ECB from a fake ECB
    /// and the NBP and the CBR (enabled, not scheduled) from `providers`.
    static func withServer(
        providers: FakeProviderUpstream, refreshWait: Duration = .seconds(120), _ body: @Sendable (FakeUpstream, any TestClientProtocol) async throws -> Void
    ) async throws {
        let ecb = FakeUpstream(publishedThrough: lastDay)
        try await ecb.run { ecbURL in
            try await providers.run { root in
                try await TestServer.withSeededDatabase { database in
                    var configuration = TestServer.configuration(database: database, upstream: ecbURL)
                    configuration.providers = ["NBP", "CBR"]
                    configuration.upstreamOverrides = FakeProviderUpstream.overrides(root: root, ["NBP", "CBR"])
                    configuration.providerBackfillDays = 0
                    configuration.adminRefreshWait = refreshWait
                    try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in try await body(ecb, client) }
                }
            }
        }
    }

    @Test("a refresh fetches the ECB and every enabled provider now, and answers with each one's outcome, latest date and rows changed")
    func refreshesEveryProvider() async throws {
        let upstream = ProvidersTests.upstream()
        try await Self.withServer(providers: upstream) { ecb, client in
            #expect(upstream.received.isEmpty && ecb.requests.isEmpty, "nothing fetched on a schedule")
            let answer = try await client.refresh()
            #expect(answer.status == .ok)
            let providers = try #require(answer.json["providers"] as? [String: [String: Any]])
            #expect(Array(providers.keys).sorted() == ["CBR", "ECB", "NBP"])
            #expect(providers["ECB"]?["outcome"] as? String == "unchanged" && providers["ECB"]?["latestDate"] as? String == "2026-10-30")
            #expect(providers["NBP"]?["outcome"] as? String == "updated" && providers["NBP"]?["latestDate"] as? String == "2026-03-05")
            #expect(providers["CBR"]?["outcome"] as? String == "updated" && providers["CBR"]?["latestDate"] as? String == "2026-04-25")
            let rows = ["ECB", "NBP", "CBR"].map { providers[$0]?["rowsChanged"] as? Int ?? -1 }
            #expect(rows[0] == 0 && rows[1] > 100 && rows[2] > 20, "\(rows)")
            // Together: the newest publication, every merged change, no failure.
            #expect(answer.json["outcome"] as? String == "updated")
            #expect(answer.json["latestDate"] as? String == "2026-10-30")
            #expect(answer.json["rowsChanged"] as? Int == rows.reduce(0, +))
            #expect(answer.json["detail"] is NSNull)
            #expect(ecb.requests == ["/eurofxref-daily.xml"])
            #expect(upstream.requestCount("/nbp/") == 3 && upstream.requestCount(Self.cbrTable) == 1)
            #expect(try await client.request("/v1/rates/2026-04-25?symbols=RUB").decimalText("rates", "RUB") == "88.2826", "served at once")

            // Nothing new anywhere: every provider is asked again, conditionally, and says so.
            let again = try await client.refresh()
            #expect(again.json["outcome"] as? String == "notModified" && again.json["rowsChanged"] as? Int == 0)
            #expect(again.json["latestDate"] as? String == "2026-10-30", "the newest publication held, though nothing came")
            let unchanged = try #require(again.json["providers"] as? [String: [String: Any]])
            #expect(unchanged.values.allSatisfy { $0["outcome"] as? String == "notModified" }, "\(unchanged)")
            #expect(unchanged["NBP"]?["latestDate"] as? String == "2026-03-05")
            #expect(ecb.requests.count == 2 && upstream.requestCount("/nbp/") == 6 && upstream.requestCount(Self.cbrTable) == 2)
        }
    }

    @Test("providers= refreshes only the providers it names, in any letter case")
    func refreshesTheNamedProviders() async throws {
        let upstream = ProvidersTests.upstream()
        try await Self.withServer(providers: upstream) { ecb, client in
            let answer = try await client.refresh(providers: "cbr")
            #expect(answer.status == .ok)
            #expect((answer.json["providers"] as? [String: Any]).map { Array($0.keys) } == ["CBR"])
            #expect(answer.json["outcome"] as? String == "updated" && answer.json["latestDate"] as? String == "2026-04-25")
            #expect(ecb.requests.isEmpty && upstream.requestCount("/nbp/") == 0 && upstream.requestCount(Self.cbrTable) == 1)

            let both = try await client.refresh(providers: "ECB,NBP,ECB")
            #expect((both.json["providers"] as? [String: Any]).map { Set($0.keys) } == ["ECB", "NBP"])
            #expect(ecb.requests.count == 1 && upstream.requestCount("/nbp/") == 3 && upstream.requestCount(Self.cbrTable) == 1)
        }
    }

    @Test("one provider failing is reported beside the others, which are stored all the same")
    func oneProviderFails() async throws {
        let upstream = ProvidersTests.upstream()
        upstream.serve("/cbr/scripts/XML_daily.asp", .status(503))
        try await Self.withServer(providers: upstream) { _, client in
            let answer = try await client.refresh()
            let providers = try #require(answer.json["providers"] as? [String: [String: Any]])
            #expect(providers["CBR"]?["outcome"] as? String == "failed")
            #expect(providers["CBR"]?["detail"] as? String == "upstream answered HTTP 503")
            #expect(providers["CBR"]?["latestDate"] is NSNull, "the Bank of Russia has no publication stored")
            #expect(providers["NBP"]?["outcome"] as? String == "updated")
            #expect(answer.json["outcome"] as? String == "failed")
            #expect(answer.json["detail"] as? String == "CBR: upstream answered HTTP 503")
            #expect(try await client.request("/v1/rates/2026-03-04?symbols=AFN").status == .ok, "the NBP's table B is served")
        }
    }

    @Test("an unknown provider, one this server does not fetch, or an empty key is a 400 naming it, and nothing is fetched", arguments: [
        ("XYZ", "'XYZ' is not a provider key"), ("FRED", "FRED, which this server does not fetch"),
        ("NBP,bdi", "BDI, which this server does not fetch"), ("NBP,", "'' is not a provider key"),
    ])
    func refusesProvidersNotFetched(providers: String, detail: String) async throws {
        let upstream = ProvidersTests.upstream()
        try await Self.withServer(providers: upstream) { ecb, client in
            let answer = try await client.refresh(providers: providers)
            #expect(answer.status == .badRequest)
            #expect(answer.headers[.contentType] == "application/problem+json")
            #expect(answer.json["type"] as? String == "urn:rates-relay:problem:invalid-parameter")
            #expect(answer.json["parameter"] as? String == "providers")
            #expect((answer.json["detail"] as? String)?.contains(detail) == true, "\(answer.text)")
            // The token is checked first: without it, the same request learns nothing.
            #expect(try await client.refresh(token: "wrong", providers: providers).status == .unauthorized)
            #expect(upstream.received.isEmpty && ecb.requests.isEmpty)
        }
    }

    @Test("a provider's refresh answers with a fetch that started after it arrived, shared by every refresh that arrived meanwhile")
    func providerRefreshStartsAfterTheRequest() async throws {
        let upstream = FakeProviderUpstream()
        upstream.serve("/cbr/scripts/XML_daily.asp", .status(503))
        upstream.serve("/cbr/scripts/xml_metall.asp", .fixture("cbr-russia/xml_metall_2026-03-01_2026-03-05.xml"))
        try await withHTTPClient(ProviderClient.makeHTTPClient()) { http in
        try await upstream.run { root in
                try await TestServer.withSeededDatabase { database in
                    let store = try RatesStore(path: database)
                    let state = try ServerState(loadingFrom: store)
                    let ingestor = Ingestor(store: store, state: state, logger: TestServer.logger)
                    let now = TestServer.afterLastPublication
                    let client = ProviderClient(
                        provider: CBRProvider(), httpClient: http, today: { Day(containing: now) }, override: try UpstreamOverride(root + "/cbr"))
                    let fetch = ProviderFetch(client: client, ingestor: ingestor, backfillDays: 0, now: { now }, logger: TestServer.logger)
                    let coordinator = FetchCoordinator(fetch, state: state)

                    // A fetch starts, and the upstream holds its answer: the bank had not published when it asked.
                    upstream.hold()
                    async let first = coordinator.refresh()
                    try await waitUntil("the first fetch reached the upstream") { upstream.requestCount(Self.cbrTable) == 1 }
                    #expect(state.providerStatus["CBR"]?.fetching == true)
                    upstream.serve("/cbr/scripts/XML_daily.asp", .fixture("cbr-russia/XML_daily_2026-04-25.xml"))
                    async let second = coordinator.refresh()
                    async let third = coordinator.refresh()
                    try await waitUntil("both later refreshes wait") { state.providerStatus["CBR"]?.refreshesWaiting == 2 }
                    #expect(upstream.requestCount(Self.cbrTable) == 1, "no fetch runs beside the first")
                    upstream.release()

                    let reports = await [first, second, third]
                    #expect(reports[0].run.outcome == .failed, "the first fetch asked before the publication")
                    #expect(reports[1].run.outcome == .updated && reports[1].latestPublication == Day("2026-04-25"))
                    #expect(reports[2].run.id == reports[1].run.id, "the third shares the second's fetch")
                    #expect(upstream.requestCount(Self.cbrTable) == 2, "exactly one more fetch")
                    #expect(state.providerStatus["CBR"]?.refreshesWaiting == 0 && state.providerStatus["CBR"]?.fetching == false)
                }
            }
        }
    }

    @Test("a refresh never waits for another source's fetch permit, and a scheduled fetch of its source waiting for one starts at once")
    func refreshSkipsTheFetchPermits() async throws {
        let upstream = FakeProviderUpstream()
        upstream.serve("/nbp/*", .hang)
        upstream.serve(Self.cbrTable, .fixture("cbr-russia/XML_daily_2026-04-25.xml"))
        upstream.serve("/cbr/scripts/xml_metall.asp", .fixture("cbr-russia/xml_metall_2026-03-01_2026-03-05.xml"))
        try await withHTTPClient(ProviderClient.makeHTTPClient()) { http in
            try await upstream.run { root in
                try await TestServer.withSeededDatabase { database in
                    let store = try RatesStore(path: database)
                    let state = try ServerState(loadingFrom: store)
                    let ingestor = Ingestor(store: store, state: state, logger: TestServer.logger)
                    let now = TestServer.afterLastPublication
                    // One permit for both sources, as a server fetching many sources shares a few.
                    let permits = FetchPermits(limit: 1)
                    func coordinator(_ provider: any RatesProvider, _ path: String) throws -> FetchCoordinator {
                        let client = ProviderClient(
                            provider: provider, httpClient: http, today: { Day(containing: now) }, override: try UpstreamOverride(root + path), permits: permits)
                        return FetchCoordinator(ProviderFetch(client: client, ingestor: ingestor, backfillDays: 0, now: { now }, logger: TestServer.logger), state: state)
                    }
                    let (nbp, cbr) = (try coordinator(NBPProvider(), "/nbp"), try coordinator(CBRProvider(), "/cbr"))

                    // The NBP's scheduled fetch holds the permit while its upstream hangs; the CBR's waits for it.
                    async let nbpFetch = nbp.fetchOrJoin()
                    try await waitUntil("the NBP's fetch holds the permit") { upstream.requestCount("/nbp/") >= 1 && permits.held == 1 }
                    async let scheduled = cbr.fetchOrJoin()
                    try await waitUntil("the CBR's scheduled fetch waits for a permit") { permits.waiting == 1 }
                    #expect(upstream.requestCount(Self.cbrTable) == 0)

                    // A refresh of the CBR starts the waiting fetch and then its own, neither with a permit.
                    let refreshed = await cbr.refresh()
                    #expect(refreshed.run.outcome == .notModified || refreshed.run.outcome == .unchanged, "\(refreshed.run)")
                    let scheduledReport = await scheduled
                    #expect(scheduledReport.run.outcome == .updated && refreshed.run.id != scheduledReport.run.id)
                    #expect(upstream.requestCount(Self.cbrTable) == 2, "the scheduled fetch and the refresh's own")
                    #expect(permits.held == 1 && permits.waiting == 0, "the NBP's fetch still holds the one permit")
                    upstream.release()
                    let nbpReport = await nbpFetch
                    #expect(nbpReport.run.outcome == .failed)
                    #expect(permits.held == 0)
                }
            }
        }
    }

    @Test("a refresh that outlasts admin.refresh.wait answers 202 with the fetches still running, which go on and are recorded")
    func slowRefreshIsAccepted() async throws {
        let upstream = ProvidersTests.upstream()
        upstream.serve(Self.cbrTable, .hang)
        // The CBR's answer hangs until released; the NBP's three files are served at once, well within the wait.
        try await Self.withServer(providers: upstream, refreshWait: .seconds(10)) { _, client in
            let answer = try await client.refresh(providers: "NBP,CBR")
            #expect(answer.status == .accepted, "\(answer.text)")
            #expect(answer.headers[.location] == "/v1/providers/CBR")
            #expect(answer.json["outcome"] as? String == "accepted")
            let providers = try #require(answer.json["providers"] as? [String: [String: Any]])
            #expect(providers["NBP"]?["outcome"] as? String == "updated", "the fetch that ended in time is reported")
            #expect(providers["CBR"].map { $0.count == 1 && $0["outcome"] as? String == "fetching" } == true, "\(providers)")
            #expect((answer.json["detail"] as? String)?.hasPrefix("still fetching after 10.0 seconds: CBR;") == true, "\(answer.text)")

            // The fetch goes on after the answer, and its provider's lastFetch tells how it ended.
            upstream.release()
            try await waitUntil("the CBR's fetch is recorded") {
                (try await client.request("/v1/providers/CBR").json["lastFetch"] as? [String: Any])?["outcome"] as? String == "failed"
            }
        }
    }

    @Test("--upstream ECB=URL sends the ECB's requests to URL, under the path of the directory upstream.url names, and /v1/status says so")
    func ecbOverride() async throws {
        let upstream = FakeProviderUpstream()
        upstream.serve("/stand-in/ecb-files/eurofxref-hist.xml", .fixture("eurofxref-hist-90d.xml"))
        try await upstream.run { root in
            try await TestServer.withEmptyDatabase { database in
                var configuration = TestServer.configuration(database: database, upstream: "https://mirror.example/ecb-files/")
                configuration.upstreamOverrides = ["ECB": try UpstreamOverride(root + "/stand-in")]
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    let answer = try await client.refresh()
                    #expect(answer.json["outcome"] as? String == "updated", "\(answer.text)")
                    #expect(answer.json["latestDate"] as? String == "2025-04-04")
                    let status = try await client.request("/v1/status")
                    #expect(status.json["upstreamURL"] as? String == root + "/stand-in/ecb-files/", "\(status.text)")
                }
            }
        }
        #expect(upstream.received.map(\.target) == ["/stand-in/ecb-files/eurofxref-hist.xml"])
    }
}
