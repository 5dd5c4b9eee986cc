import AsyncHTTPClient
import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream

/// Which sources are fetched, from where, and how: what a server's schedulers, `POST /v1/admin/refresh`
/// and `rates-relay fetch` share.
public struct FetchSettings: Sendable {
    /// The sources fetched besides the reference tier's (the ECB, which is always fetched: the
    /// merged dataset's freshness follows it), by key, in the order wanted.
    public var providers: [String]
    /// API keys of the sources that need one, by key (secrets).
    public var apiKeys: [String: String]
    /// Replacements of sources' default endpoint bases, by key (a mirror).
    public var baseURLs: [String: String]
    /// Where each source's requests go instead of its own servers, by key.
    public var overrides: [String: UpstreamOverride]
    /// Limit for one upstream request, body included.
    public var timeout: Duration
    /// Largest upstream body accepted.
    public var maxBodyBytes: Int
    /// How many days back a source with nothing stored is fetched the first time (0: only its newest publication).
    public var backfillDays: Int
    /// How many sources are fetched at once, at most (``RatesUpstream/FetchPermits``).
    public var maxConcurrentFetches: Int
    /// The clock.
    public var now: @Sendable () -> Date

    public init(
        providers: [String] = [], apiKeys: [String: String] = [:], baseURLs: [String: String] = [:], overrides: [String: UpstreamOverride] = [:],
        timeout: Duration = .seconds(60), maxBodyBytes: Int = 32 << 20, backfillDays: Int = 30, maxConcurrentFetches: Int = 8,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maxConcurrentFetches = maxConcurrentFetches
        self.providers = providers
        self.apiKeys = apiKeys
        self.baseURLs = baseURLs
        self.overrides = overrides
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.backfillDays = backfillDays
        self.now = now
    }
}

/// The fetch of every source the settings enable, each with its publication schedule, made in one
/// place for the server and for `rates-relay fetch`.
public struct UpstreamFetches: Sendable {
    /// Each source's fetch with its schedule, the reference tier's first, then in the order asked.
    public let all: [(fetch: ProviderFetch, schedule: PublicationSchedule)]

    /// Every key fetched.
    public var keys: [String] { all.map(\.fetch.provider) }

    /// Logs each source left off (a key it needs is missing) as it makes the others.
    ///
    /// - Parameter recordOutcome: Told the outcome of every fetch (metrics), when given.
    public init(
        _ settings: FetchSettings, ingestor: Ingestor, httpClient: HTTPClient, logger: Logger,
        recordOutcome: (@Sendable (FetchRun.Outcome) -> Void)? = nil
    ) {
        let selection = ProviderRegistry.select(enabled: ProviderRegistry.referenceKeys + settings.providers, apiKeys: settings.apiKeys, baseURLs: settings.baseURLs)
        for (key, reason) in selection.off { logger.warning("provider left off", metadata: ["rates.provider": "\(key)", "rates.reason": "\(reason)"]) }
        let permits = FetchPermits(limit: settings.maxConcurrentFetches)
        all = selection.providers.map { provider in
            let client = ProviderClient(
                provider: provider, httpClient: httpClient, timeout: settings.timeout, maxBodyBytes: settings.maxBodyBytes,
                today: { [now = settings.now] in Day(containing: now()) }, override: settings.overrides[provider.key], permits: permits)
            let fetch = ProviderFetch(
                client: client, ingestor: ingestor, backfillDays: settings.backfillDays, now: settings.now, logger: logger, recordOutcome: recordOutcome)
            return (fetch, provider.schedule)
        }
    }
}
