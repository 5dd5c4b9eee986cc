import RatesCore
import Synchronization

/// Token buckets per client: `burst` requests at once, refilled at `rate` per second.
///
/// Memory is bounded: past `maxClients` buckets, those that have refilled completely (clients
/// that went quiet) are dropped; a full bucket and a missing one behave the same.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    let rate: Double
    let burst: Double
    let maxClients: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    init(rate: Double, burst: Int, maxClients: Int = 100_000) {
        self.rate = rate
        self.burst = Double(max(1, burst))
        self.maxClients = maxClients
    }

    /// "10 requests per second (bursts of 60)".
    var describe: String {
        "\(rate == rate.rounded() ? String(Int(rate)) : String(rate)) requests per second (bursts of \(Int(burst)))"
    }

    /// Takes a token for `client`: `nil` when granted, else how long until one is available.
    func acquire(for client: String, now: ContinuousClock.Instant = .now) -> Duration? {
        buckets.withLock { buckets in
            var bucket = buckets[client] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, tokens(of: bucket, at: now))
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[client] = bucket
                return .seconds((1 - bucket.tokens) / rate)
            }
            bucket.tokens -= 1
            if buckets[client] == nil && buckets.count >= maxClients { buckets = buckets.filter { tokens(of: $0.value, at: now) < burst } }
            buckets[client] = bucket
            return nil
        }
    }

    /// The tokens `bucket` holds at `now`, refill included, before the `burst` cap.
    private func tokens(of bucket: Bucket, at now: ContinuousClock.Instant) -> Double {
        let elapsed = bucket.updated.duration(to: now)
        return bucket.tokens + rate * elapsed.seconds
    }
}
