import Foundation
import Hummingbird
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesStore
import RatesTestSupport
import Testing

/// One way the upstream can fail, and what the server must record about it.
struct UpstreamFault: Sendable, CustomTestStringConvertible {
    var name: String
    /// How the fake ECB misbehaves; `nil`: nothing listens at the upstream address (connection refused).
    var fault: FakeUpstream.Fault?
    /// `failed` (no usable answer) or `rejected` (an answer that is not acceptable data).
    var outcome: String
    /// Words the recorded reason must contain.
    var reason: String
    /// The upstream's `Retry-After` in seconds, when the wait must be exactly that.
    var retryAfter: Int?
    /// The server's upstream timeout: short only where the timeout is the fault, generous elsewhere,
    /// so that a loaded machine never turns another fault into a timeout.
    var upstreamTimeout: Duration = .seconds(120)

    var testDescription: String { name }

    /// The last day's real publication, with `change` applied to its rates.
    static func lastDay(_ change: (inout [CurrencyCode: String]) -> Void) -> String {
        var rates = FakeUpstream.history.last!.rates
        change(&rates)
        return FakeUpstream.document(days: [DailyRates(day: UpstreamFaultTests.lastDay, rates: rates)])
    }

    static let all: [UpstreamFault] = {
        let usd = CurrencyCode("USD")!
        let realLastDay = lastDay { _ in }
        let realUSD = "<Cube currency='USD' rate='\(FakeUpstream.history.last!.rates[usd]!)'/>"
        let older = FakeUpstream.history.first { $0.day == Day("2026-10-28")! }!
        return [
            UpstreamFault(name: "connection refused", fault: nil, outcome: "failed", reason: "upstream unreachable: Connection refused"),
            // The server gives up after `upstreamTimeout` (2 s); the stall lasts until the test lifts the fault.
            UpstreamFault(name: "timeout mid-body", fault: .stallMidBody(.seconds(600)), outcome: "failed", reason: "timed out", upstreamTimeout: .seconds(2)),
            UpstreamFault(name: "HTTP 500", fault: .status(500), outcome: "failed", reason: "HTTP 500"),
            UpstreamFault(name: "HTTP 503 with Retry-After", fault: .status(503, retryAfter: "120"), outcome: "failed", reason: "HTTP 503", retryAfter: 120),
            UpstreamFault(name: "HTTP 429 with Retry-After", fault: .status(429, retryAfter: "120"), outcome: "failed", reason: "HTTP 429", retryAfter: 120),
            UpstreamFault(name: "truncated body", fault: .truncated, outcome: "rejected", reason: "malformed XML"),
            UpstreamFault(
                name: "malformed XML",
                fault: .body("<?xml version='1.0'?><gesmes:Envelope><Cube><Cube time='2026-10-30'><Cube currency='USD' rate='1.2'/></Cube>"),
                outcome: "rejected", reason: "malformed XML"),
            UpstreamFault(
                name: "HTML error page with status 200", fault: .body("<html><body>Service temporarily unavailable</body></html>"),
                outcome: "rejected", reason: "not an ECB eurofxref document"),
            UpstreamFault(name: "empty body", fault: .body(""), outcome: "rejected", reason: "the payload holds no day"),
            UpstreamFault(name: "negative rate", fault: .body(lastDay { $0[usd] = "-1.1172" }), outcome: "rejected", reason: "invalid rate \"-1.1172\" for USD"),
            UpstreamFault(name: "zero rate", fault: .body(lastDay { $0[usd] = "0" }), outcome: "rejected", reason: "invalid rate \"0\" for USD"),
            UpstreamFault(name: "NaN rate", fault: .body(lastDay { $0[usd] = "NaN" }), outcome: "rejected", reason: "invalid rate \"NaN\" for USD"),
            UpstreamFault(name: "absurd rate (decimal point shifted)", fault: .body(lastDay { $0[usd] = "11.172" }), outcome: "rejected", reason: "implausible rate \"11.172\" for USD"),
            UpstreamFault(
                name: "duplicated currency", fault: .body(realLastDay.replacingOccurrences(of: realUSD, with: realUSD + realUSD)),
                outcome: "rejected", reason: "currency USD appears more than once"),
            UpstreamFault(
                name: "a day older than what is stored", fault: .body(FakeUpstream.document(days: [older])),
                outcome: "rejected", reason: "older than the newest day stored"),
            UpstreamFault(name: "body over the size limit", fault: .body(String(repeating: " ", count: 2 << 20)), outcome: "failed", reason: "larger than 1048576 bytes"),
            UpstreamFault(name: "redirect loop", fault: .redirectLoop, outcome: "failed", reason: "upstream unreachable: redirected in a loop"),
        ]
    }()
}

@Suite("Upstream faults")
struct UpstreamFaultTests {
    static let dayBefore = Day("2026-10-29")!
    static let lastDay = Day("2026-10-30")!

    /// For each fault, while the server fetches the last day's publication with its scheduler on:
    /// the last good data is served unchanged, nothing partial is stored, the fetch is recorded
    /// with its reason, the next attempt backs off, metrics count it, and once the upstream
    /// behaves the new publication is picked up.
    @Test("a faulty upstream changes nothing, is recorded with its reason, backed off from and counted; the next good publication is picked up",
          arguments: UpstreamFault.all)
    func faultyUpstream(_ fault: UpstreamFault) async throws {
        let upstream = FakeUpstream(publishedThrough: Self.dayBefore, firstDay: Day("2026-06-01")!)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                var configuration = TestServer.configuration(database: database, upstream: url)
                configuration.retryDelay = .seconds(60)   // the first wait after a failure: 30 to 60 s
                configuration.upstreamMaxBodyBytes = 1 << 20

                // The last good data: everything through the day before.
                let (latest, feed, version) = try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    let setup = try await client.refresh().json
                    try #require(setup["outcome"] as? String == "updated", "\(setup)")
                    let version = try #require(try await client.request("/v1/status").json["datasetVersion"] as? Int)
                    return (try await client.request("/v1/latest").text, try await client.request("/v1/sync?from=2026-10-01").text, version)
                }
                let rows = try Self.storedRows(database)

                // The last day is published, but the upstream misbehaves; the scheduler fetches at start.
                if let misbehaviour = fault.fault { upstream.inject(misbehaviour) } else { configuration.upstreamURL = "http://127.0.0.1:9/" }
                upstream.publish(through: Self.lastDay)
                configuration.schedule = true
                let requestsBefore = upstream.requests.count
                configuration.upstreamTimeout = fault.upstreamTimeout
                defer { upstream.inject(nil) }   // ends a stall, however the test ends
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    let status = try await waitForStatus(client) { $0["nextFetchAt"] is String }
                    let lastFetch = try #require(status["lastFetch"] as? [String: Any])
                    #expect(lastFetch["outcome"] as? String == fault.outcome)
                    let reason = try #require(lastFetch["detail"] as? String)
                    #expect(reason.contains(fault.reason), "\(reason)")

                    // Backed off: the test clock stands still, so the next fetch is exactly now + the wait.
                    let next = try #require((status["nextFetchAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
                    let wait = next.timeIntervalSince(TestServer.afterLastPublication)
                    if let retryAfter = fault.retryAfter {
                        #expect(wait == Double(retryAfter))
                    } else {
                        #expect((30...60).contains(wait), "\(wait) s")
                    }
                    if case .status = fault.fault {
                        #expect(upstream.requests.count - requestsBefore == 1, "one request, then the wait: no retry storm")
                    }
                    let metrics = try await client.request("/metrics").text
                    #expect(MetricsTests.sample(#"rates_relay_upstream_fetches_total{outcome="\#(fault.outcome)"}"#, in: metrics) == 1)

                    // The last good data, unchanged; nothing stored; the run recorded.
                    #expect(try await client.request("/v1/latest").text == latest)
                    #expect(try await client.request("/v1/sync?from=2026-10-01").text == feed)
                    #expect(try await client.request("/v1/status").json["datasetVersion"] as? Int == version)
                    #expect(try Self.storedRows(database) == rows)
                    let recorded = try #require(try RatesStore(path: database).lastRun(source: .upstream))
                    #expect(recorded.outcome.rawValue == fault.outcome && recorded.detail == reason)

                    guard fault.fault != nil else { return }
                    upstream.inject(nil)
                    try await Self.expectPickedUp(client, version: version)
                }
                // Nothing listened: the next start, with the upstream back, picks the publication up.
                if fault.fault == nil {
                    configuration.upstreamURL = url
                    configuration.schedule = false
                    try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                        try await Self.expectPickedUp(client, version: version)
                    }
                }
            }
        }
    }

    /// A refresh stores the last day: a newer dataset version, and `/v1/latest` on that day.
    static func expectPickedUp(_ client: some TestClientProtocol, version: Int) async throws {
        #expect(try await client.refresh().json["outcome"] as? String == "updated")
        #expect(try await client.request("/v1/latest").json["date"] as? String == "2026-10-30")
        #expect(try #require(try await client.request("/v1/status").json["datasetVersion"] as? Int) > version)
    }

    /// Every rate row the database file holds.
    static func storedRows(_ path: String) throws -> Int {
        try RatesStore(path: path).snapshot().days.reduce(0) { $0 + $1.count }
    }
}
