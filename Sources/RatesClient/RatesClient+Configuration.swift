import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RatesCore

extension RatesClient {
    /// Where the client syncs from, where it caches, and how patiently it retries.
    ///
    /// - Configuration keys:
    ///   - `server` (URL, required): root of the Rates Relay server (`https://rates.example.com/`).
    ///   - `cacheURL` (file URL, required): the SQLite cache file; created with its folder if missing.
    ///   - `apiKey` (string, optional, secret, default: none): sent as `apiKeyHeader` on every request.
    ///   - `apiKeyHeader` (string, default: `X-API-Key`).
    ///   - `session` (URLSession, default: `.shared`): inject one for proxies, TLS pinning or tests.
    ///   - `window` (day, optional, default: all history): the oldest day to keep.
    ///   - `retry` (``RetryPolicy``, default: 3 attempts, 0.5 s base, 10 s cap).
    ///   - `requestTimeout` (duration, default: 30 s).
    ///   - `autoRefresh` (bool, default: false): keep the cache fresh while ``RatesClient/observe(base:symbols:)`` streams are consumed.
    ///   - `maxRefreshInterval` (duration, default: 1 h): longest sleep of the refresh loop between two syncs.
    ///   - `bundledRates` (data, default: ``RatesClient/shippedRates``): the snapshot an empty cache answers
    ///     from until its first sync (`rates-relay export --snapshot`); `nil` for none.
    ///
    /// ```swift
    /// var configuration = RatesClient.Configuration(
    ///     server: URL(string: "https://rates.example.com")!,
    ///     cacheURL: URL.cachesDirectory.appending(path: "rates.sqlite"))
    /// configuration.window = Day("2025-01-01")   // keep two years, not 27
    /// let client = try RatesClient(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Root URL of the server; `/v1/sync` and `/v1/events` are resolved against it.
        public var server: URL
        /// The SQLite cache file.
        public var cacheURL: URL
        /// API key sent in ``apiKeyHeader``; `nil` sends none.
        public var apiKey: String?
        /// Header carrying ``apiKey``.
        public var apiKeyHeader: String
        /// The session every request goes through.
        public var session: URLSession
        /// Oldest day to keep (the sync's `from`); `nil` keeps all history. Changing it re-snapshots on the next sync.
        public var window: Day?
        /// Attempts and backoff for one request.
        public var retry: RetryPolicy
        /// Time limit for one request.
        public var requestTimeout: Duration
        /// Whether consuming an ``RatesClient/observe(base:symbols:)`` stream also runs ``RatesClient/run()`` (shared, stopped with the last stream).
        public var autoRefresh: Bool
        /// Longest time the refresh loop sleeps between two syncs, whatever `nextUpdateAfter` says (publications can be late).
        public var maxRefreshInterval: Duration
        /// The snapshot a cache that never synced answers from at once, offline, until its first sync
        /// replaces it (``CacheStatus/isBundled``): a `/v1/sync` page of one publication, as
        /// `rates-relay export --snapshot` writes it. ``RatesClient/shippedRates`` by default (an app
        /// may bundle a newer one); `nil` for none.
        public var bundledRates: Data?

        /// A configuration with defaults for everything but the two locations.
        ///
        /// ```swift
        /// let configuration = RatesClient.Configuration(server: URL(string: "http://127.0.0.1:8080")!, cacheURL: URL(fileURLWithPath: "/tmp/rates.sqlite"))
        /// ```
        public init(
            server: URL, cacheURL: URL, apiKey: String? = nil, apiKeyHeader: String = "X-API-Key", session: URLSession = .shared,
            window: Day? = nil, retry: RetryPolicy = RetryPolicy(), requestTimeout: Duration = .seconds(30), autoRefresh: Bool = false,
            maxRefreshInterval: Duration = .seconds(3600), bundledRates: Data? = RatesClient.shippedRates
        ) {
            self.server = server
            self.cacheURL = cacheURL
            self.apiKey = apiKey
            self.apiKeyHeader = apiKeyHeader
            self.session = session
            self.window = window
            self.retry = retry
            self.requestTimeout = requestTimeout
            self.autoRefresh = autoRefresh
            self.maxRefreshInterval = maxRefreshInterval
            self.bundledRates = bundledRates
        }
    }
}

/// Bounded retries with exponential backoff and full jitter, honouring `Retry-After`.
///
/// After failed attempt `n` (0-based) the client waits a random time in
/// `0 ... min(maxDelay, baseDelay · 2ⁿ)` ("full jitter"), so many clients that failed
/// together do not come back together. A `Retry-After` from the server replaces the random
/// delay; one longer than `maxDelay` ends the attempts (the sync reports offline) rather than
/// blocking the caller.
///
/// ```swift
/// let patient = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(1), maxDelay: .seconds(30))
/// let impatient = RetryPolicy(maxAttempts: 1)   // no retries
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts per request, the first included (at least 1).
    public var maxAttempts: Int
    /// Upper bound of the first random delay.
    public var baseDelay: Duration
    /// Cap of the random delay, and the longest `Retry-After` the client waits for.
    public var maxDelay: Duration

    /// A policy; the defaults are 3 attempts, 0.5 s base, 10 s cap.
    ///
    /// ```swift
    /// let forTests = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(5))
    /// ```
    public init(maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(10)) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The ceiling of the random delay after failed attempt `attempt` (0-based): `min(maxDelay, baseDelay · 2^attempt)`.
    ///
    /// ```swift
    /// RetryPolicy().delayCeiling(afterAttempt: 2)   // 2 seconds
    /// ```
    public func delayCeiling(afterAttempt attempt: Int) -> Duration {
        backoff.step(afterFailures: attempt + 1)
    }

    /// A full-jitter delay after failed attempt `attempt`: uniform in `0 ... delayCeiling(afterAttempt:)`.
    ///
    /// ```swift
    /// var generator = SystemRandomNumberGenerator()
    /// let wait = RetryPolicy().delay(afterAttempt: 0, using: &generator)   // 0 ... 0.5 s
    /// ```
    public func delay(afterAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        backoff.delay(afterFailures: attempt + 1, jitter: .full, random: Double.random(in: 0...1, using: &generator))
    }

    /// The backoff the delays follow.
    var backoff: Backoff { Backoff(initial: baseDelay, maximum: maxDelay) }
}
