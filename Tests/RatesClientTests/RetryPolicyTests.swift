import Foundation
import RatesTestSupport
import Testing
@testable import RatesClient

@Suite("Backoff with full jitter")
struct RetryPolicyTests {
    @Test("the ceiling doubles from the base and stops at the cap")
    func ceilings() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(500), maxDelay: .seconds(10))
        let ceilings = (0..<7).map { policy.delayCeiling(afterAttempt: $0) }
        #expect(ceilings == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
        #expect(policy.delayCeiling(afterAttempt: 1_000) == .seconds(10))
    }

    @Test("delays are uniformly spread over 0 ... ceiling")
    func fullJitter() {
        let policy = RetryPolicy()
        var generator = SplitMix64(seed: 7)
        for attempt in 0..<6 {
            let ceiling = policy.delayCeiling(afterAttempt: attempt)
            let delays = (0..<400).map { _ in policy.delay(afterAttempt: attempt, using: &generator) }
            #expect(delays.allSatisfy { $0 >= .zero && $0 <= ceiling })
            // Full jitter, not "equal jitter": some waits are short, some long.
            #expect(delays.contains { $0 < ceiling * 0.25 })
            #expect(delays.contains { $0 > ceiling * 0.75 })
        }
    }

    @Test("at least one attempt is always made")
    func atLeastOneAttempt() {
        #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
    }

    @Test("Retry-After is read in seconds")
    func retryAfter() {
        #expect(HTTPExchange(status: 503, headers: ["Retry-After": "30"]).retryAfter == .seconds(30))
        #expect(HTTPExchange(status: 503, headers: ["retry-after": " 5 "]).retryAfter == .seconds(5))
        #expect(HTTPExchange(status: 503, headers: ["Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"]).retryAfter == nil)
        #expect(HTTPExchange(status: 503).retryAfter == nil)
    }
}
