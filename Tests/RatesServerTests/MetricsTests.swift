import Foundation
import Hummingbird
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesTestSupport
import Testing

@Suite("Prometheus metrics")
struct MetricsTests {
    /// The value of the sample `series` (name and labels exactly as exposed) in a text exposition.
    static func sample(_ series: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Runs `body` with a client of a server on an empty database whose ECB (a fake) has published
    /// through 2026-10-30, its configuration changed by `configure`.
    static func withServer(
        _ configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let upstream = FakeUpstream(publishedThrough: Day("2026-10-30")!, firstDay: Day("2026-06-01")!)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                var configuration = TestServer.configuration(database: database, upstream: url)
                configure(&configuration)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live, body)
            }
        }
    }

    @Test("requests by route and status, fetches by outcome, cache lookups once per request, sync answers and data age are exposed")
    func exposition() async throws {
        try await Self.withServer { client in
            let empty = try await client.request("/metrics")
            #expect(empty.status == .ok)
            #expect(empty.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(Self.sample(#"rates_relay_upstream_fetches_total{outcome="updated"}"#, in: empty.text) == 0)

            try await client.refresh()
            try await client.request("/v1/latest")
            try await client.request("/v1/latest")
            try await client.request("/no/such/path")
            try await client.request("/v1/latest?base=XXX")
            try await client.request("/v1/rates/2026-10-29")   // built by the application
            try await client.request("/v1/rates/2026-10-29")   // answered by the fast path: the same label
            let page = try await client.request("/v1/sync?from=2026-10-01")
            try await client.request("/v1/sync?from=2026-10-01", headers: [.ifNoneMatch: try #require(page.headers[.eTag])])

            let text = try await client.request("/metrics").text
            #expect(Self.sample(#"rates_relay_http_requests_total{route="/v1/latest",method="GET",status="200"}"#, in: text) == 2)
            #expect(Self.sample(#"rates_relay_http_requests_total{route="/v1/latest",method="GET",status="404"}"#, in: text) == 1)
            #expect(Self.sample(#"rates_relay_http_requests_total{route="NotFound",method="GET",status="404"}"#, in: text) == 1)
            #expect(Self.sample(#"rates_relay_http_requests_total{route="/v1/admin/refresh",method="POST",status="200"}"#, in: text) == 1)
            #expect(Self.sample(#"rates_relay_http_request_duration_seconds_count{route="/v1/latest"}"#, in: text) == 3)
            #expect(Self.sample(#"rates_relay_upstream_fetches_total{outcome="updated"}"#, in: text) == 1)
            #expect(Self.sample(#"rates_relay_upstream_fetches_total{outcome="failed"}"#, in: text) == 0)
            #expect(Self.sample(#"rates_relay_http_requests_total{route="/v1/rates/{date}",method="GET",status="200"}"#, in: text) == 2)
            #expect(!text.contains("/v1/rates/:date"), "one label per route")
            // One lookup per request to a prepared route; scrapes of /metrics are none.
            #expect(Self.sample(#"rates_relay_response_cache_lookups_total{result="hit"}"#, in: text) == 3)
            #expect(Self.sample(#"rates_relay_response_cache_lookups_total{result="miss"}"#, in: text) == 4)
            #expect(Self.sample(#"rates_relay_sync_responses_total{result="page"}"#, in: text) == 1)
            #expect(Self.sample(#"rates_relay_sync_responses_total{result="not_modified"}"#, in: text) == 1)
            #expect(Self.sample("rates_relay_event_streams", in: text) == 0, "no client listens to /v1/events")
            // The clock says 2026-10-30 18:00 UTC; that day was published at 16:00 CET (15:00 UTC).
            #expect(Self.sample("rates_relay_data_age_seconds", in: text) == 10_800)
            let published = try Date("2026-10-30T15:00:00Z", strategy: .iso8601)
            #expect(Self.sample("rates_relay_latest_publication_timestamp_seconds", in: text) == published.timeIntervalSince1970)
            #expect(Self.sample("rates_relay_last_successful_fetch_timestamp_seconds", in: text)
                == TestServer.afterLastPublication.timeIntervalSince1970)
        }
    }

    @Test("answers.cache.bytes bounds the answer cache: with 0 a repeated request is built again, a miss each time")
    func answerCacheBound() async throws {
        try await Self.withServer({ $0.answerCacheBytes = 0 }) { client in
            try await client.refresh()
            let first = try await client.request("/v1/latest")
            let second = try await client.request("/v1/latest")
            #expect(first.status == .ok && first.text == second.text)
            let text = try await client.request("/metrics").text
            #expect(Self.sample(#"rates_relay_response_cache_lookups_total{result="hit"}"#, in: text) == 0)
            #expect(Self.sample(#"rates_relay_response_cache_lookups_total{result="miss"}"#, in: text) == 2)
        }
    }
}
