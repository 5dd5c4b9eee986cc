import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOHTTP1
import RatesCore
@testable import RatesServer
import RatesTestSupport
import Testing

@Suite("Access: API keys, rate limits, request limits and IDs")
struct AccessTests {
    static let apiKey = HTTPField.Name("X-API-Key")!
    static let requestID = HTTPField.Name("X-Request-ID")!

    @Test("with API keys configured, /v1/ data needs a valid X-API-Key; health, metrics and operators do not")
    func apiKeys() async throws {
        try await withSeededServer(configure: { $0.apiKeys = ["key-one", "key-two"] }) { client in
            for headers: HTTPFields in [[:], [Self.apiKey: "key-three"], [Self.apiKey: ""]] {
                let refused = try await client.request("/v1/latest", headers: headers)
                #expect(refused.status == .unauthorized)
                // A doubled slash reaches the same route, so it meets the same check.
                for path in ["//v1/latest", "/v1//latest", "//v1//sync?from=2026-10-01"] {
                    #expect(try await client.request(path, headers: headers).status == .unauthorized, "\(path)")
                }
                #expect(refused.headers[.contentType] == "application/problem+json")
                #expect(refused.json["type"] as? String == "urn:rates-relay:problem:unauthorized")
            }
            #expect(try await client.request("/v1/latest", headers: [Self.apiKey: "key-two"]).status == .ok)
            #expect(try await client.request("/v1/sync?from=2026-10-01", headers: [Self.apiKey: "key-one"]).status == .ok)
            for open in ["/healthz", "/readyz", "/metrics", "/openapi.yaml"] {
                #expect(try await client.request(open).status == .ok, "\(open)")
            }
            #expect(try await client.refresh(token: "wrong").status == .unauthorized, "operators use their own token")
        }
    }

    @Test("a client over its rate gets 429 with Retry-After; other endpoints and other clients are not limited")
    func rateLimit() async throws {
        let rate = 0.01   // one request per 100 s after the burst
        try await withSeededServer(configure: {
            $0.rateLimit = rate
            $0.rateLimitBurst = 3
        }) { client in
            let started = ContinuousClock.now
            for _ in 0..<3 { #expect(try await client.request("/v1/latest").status == .ok) }
            let limited = try await client.request("/v1/latest?base=USD")
            let elapsed = ContinuousClock.now - started
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.contentType] == "application/problem+json")
            // The bucket refilled at most `rate × elapsed` of the token the fourth request needs, so the
            // wait is 1/rate (100 s) less at most the time these requests took, however slow the machine.
            let oneToken = Int(1 / rate), refilled = Int(elapsed.components.seconds) + 1
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap(Int.init))
            #expect((max(1, oneToken - refilled)...oneToken).contains(retryAfter), "Retry-After \(retryAfter) after \(elapsed)")
            #expect(limited.json["type"] as? String == "urn:rates-relay:problem:too-many-requests")
            #expect(try await client.request("/healthz").status == .ok)
        }
    }

    @Test("a token bucket grants its burst, then asks to wait for exactly one token's refill, and refills at its rate")
    func rateLimiterClock() throws {
        let limiter = RateLimiter(rate: 0.01, burst: 3)
        let start = ContinuousClock.now
        func wait(_ client: String, at offset: Duration) -> Double? {
            limiter.acquire(for: client, now: start + offset).map(\.seconds)
        }
        for _ in 0..<3 { #expect(wait("a", at: .zero) == nil) }
        #expect(try abs(#require(wait("a", at: .zero)) - 100) < 1e-6)
        #expect(try abs(#require(wait("a", at: .seconds(40))) - 60) < 1e-6)
        #expect(wait("b", at: .seconds(40)) == nil, "another client has its own bucket")
        #expect(wait("a", at: .seconds(101)) == nil, "a token is back once 1/rate has passed")
        #expect(try abs(#require(wait("a", at: .seconds(101))) - 99) < 1e-6)
    }

    @Test("an overlong request target is 414 problem+json; an oversized header block is refused without a 5xx")
    func requestLimits() async throws {
        try await withSeededServer { client in
            let long = try await client.request("/v1/latest?symbols=" + String(repeating: "USD,", count: 600))
            #expect(long.status == .uriTooLong)
            #expect(long.headers[.contentType] == "application/problem+json")

            // A fresh connection each: a refused header block may close the connection it came on.
            try await withHTTPClient(HTTPClient(eventLoopGroupProvider: .singleton)) { http in
                let base = "http://127.0.0.1:\(try #require(client.port))"
                var oversized = HTTPClientRequest(url: base + "/v1/latest")
                oversized.headers.add(name: "X-Padding", value: String(repeating: "a", count: 20_000))
                if let response = try? await http.execute(oversized, timeout: .seconds(10)) {
                    #expect((400..<500).contains(Int(response.status.code)), "\(response.status)")
                }   // else: the connection was closed without an answer, which is a refusal too
                let health = try await http.execute(HTTPClientRequest(url: base + "/healthz"), timeout: .seconds(10))
                #expect(health.status == .ok, "the server still answers")
            }
        }
    }

    @Test("every answer carries a request ID; a sane incoming one is kept, anything else replaced")
    func requestIDs() async throws {
        try await withSeededServer { client in
            let fresh = try await client.request("/v1/latest")
            #expect(fresh.headers[Self.requestID]?.isEmpty == false)
            let kept = try await client.request("/v1/latest?base=XXX", headers: [Self.requestID: "trace-42.a:b_c"])
            #expect(kept.headers[Self.requestID] == "trace-42.a:b_c")
            // A prepared answer, from the fast path (the first request above prepared it), keeps it too.
            let keptByFastPath = try await client.request("/v1/latest", headers: [Self.requestID: "trace-43"])
            #expect(keptByFastPath.headers[Self.requestID] == "trace-43")
            let replaced = try await client.request("/v1/latest", headers: [Self.requestID: "bad id\"\\n"])
            #expect(replaced.headers[Self.requestID].map { $0 != "bad id\"\\n" && !$0.isEmpty } == true)
        }
    }
}
