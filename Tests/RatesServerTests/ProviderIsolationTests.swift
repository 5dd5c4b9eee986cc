import Foundation
import HTTPTypes
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesTestSupport
import RatesUpstream
import Testing

@Suite("One provider's fault is its own")
struct ProviderIsolationTests {
    /// The path of the CNB's daily text file on its own server.
    static let cnbDailyPath = URLComponents(string: CNBProvider.defaultBaseURL + "/denni_kurz.txt")!.path

    @Test("a provider that hangs, one that throttles and one that sends garbage neither delay nor corrupt a healthy one or the ECB")
    func faultsStayWithTheirProvider() async throws {
        let upstream = ProvidersTests.upstream()   // the NBP's tables, healthy
        upstream.serve("/cbr/scripts/XML_daily.asp", .hang)
        upstream.serve("/cnb" + Self.cnbDailyPath, .status(429))
        upstream.serve("/boc/valet/observations/group/FX_RATES_DAILY/json", .body("{\"observations\": [{\"d\": \"2026-03-04\", \"FXUSDCAD\": {\"v\": \"x\"}}]"))
        try await upstream.run { root in
            try await TestServer.withSeededDatabase { database in
                var configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
                configuration.schedule = true
                configuration.providers = ["CBR", "CNB", "BOC", "NBP"]
                configuration.upstreamOverrides = FakeProviderUpstream.overrides(root: root, configuration.providers)
                configuration.providerBackfillDays = 0
                // Longer than the test: the hanging source ends only when the test lets it.
                configuration.upstreamTimeout = .seconds(600)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    let ecbBefore = try await client.request("/v1/rates/2026-03-04?symbols=USD,JPY,PLN").text
                    try await waitUntil("the NBP's tables are merged") {
                        try await client.poll("/v1/rates/2026-03-04?symbols=AFN").status == .ok
                    }
                    // Merged while the Bank of Russia still hangs: nobody waited for it.
                    let russia = try await Self.provider("CBR", client)
                    #expect(russia["lastFetch"] is NSNull, "the hanging fetch has not ended: \(russia)")
                    #expect(upstream.requestCount("/cbr/scripts/XML_daily.asp") == 1)
                    try await waitUntil("the throttled and the garbled fetches are recorded") {
                        let czech = try await Self.provider("CNB", client)["lastFetch"] as? [String: Any]
                        let canada = try await Self.provider("BOC", client)["lastFetch"] as? [String: Any]
                        return czech != nil && canada != nil
                    }
                    let czech = try #require(try await Self.provider("CNB", client)["lastFetch"] as? [String: Any])
                    #expect(czech["outcome"] as? String == "failed" && czech["httpStatus"] as? Int == 429)
                    let canada = try #require(try await Self.provider("BOC", client)["lastFetch"] as? [String: Any])
                    #expect(canada["outcome"] as? String == "rejected", "\(canada)")
                    #expect(try await Self.provider("BOC", client)["latestDate"] is NSNull, "nothing of a rejected answer is stored")
                    #expect(try await Self.provider("NBP", client)["latestDate"] as? String == "2026-03-05")
                    // The ECB's figures are untouched.
                    #expect(try await client.request("/v1/rates/2026-03-04?symbols=USD,JPY,PLN").text == ecbBefore)

                    upstream.release()
                    try await waitUntil("the hanging fetch fails once the source answers 503") {
                        (try await Self.provider("CBR", client)["lastFetch"] as? [String: Any])?["outcome"] as? String == "failed"
                    }
                    #expect(try await client.request("/v1/rates/2026-03-04?symbols=USD,JPY,PLN").text == ecbBefore)
                }
            }
        }
    }

    static func provider(_ key: String, _ client: some TestClientProtocol) async throws -> [String: Any] {
        try await client.poll("/v1/providers/\(key)").json
    }
}
