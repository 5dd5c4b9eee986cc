import AsyncHTTPClient
import Foundation
import Logging
import RatesCore
import RatesIngest
import RatesStore
import RatesUpstream

/// The fetch of every source the configuration enables, made in one place for the server (its
/// schedulers and `POST /v1/admin/refresh`) and for `rates-relay fetch`: the ECB's, then each
/// other provider's with its publication schedule.
struct UpstreamFetches {
    let ecb: ECBFetch
    let providers: [(fetch: ProviderFetch, schedule: PublicationSchedule)]
    /// Every provider key fetched, the ECB's included.
    let keys: Set<String>

    /// Logs each provider left off (a key it needs is missing) as it selects the others.
    init(
        _ configuration: ServerConfiguration, ingestor: Ingestor, httpClient: HTTPClient, calendar: PublicationCalendar, logger: Logger,
        recordOutcome: (@Sendable (FetchRun.Outcome) -> Void)? = nil
    ) {
        let ecbClient = ECBClient(
            baseURL: configuration.upstreamURL, httpClient: httpClient, timeout: configuration.upstreamTimeout,
            maxBodyBytes: configuration.upstreamMaxBodyBytes, override: configuration.upstreamOverrides[ProviderKey.ecb])
        ecb = ECBFetch(ingestor: ingestor, client: ecbClient, calendar: calendar, now: configuration.now, logger: logger, recordOutcome: recordOutcome)
        let selection = ProviderRegistry.select(enabled: configuration.providers, apiKeys: configuration.providerAPIKeys)
        for (key, reason) in selection.off { logger.warning("provider left off", metadata: ["rates.provider": "\(key)", "rates.reason": "\(reason)"]) }
        providers = selection.providers.filter { $0.key != ProviderKey.ecb }.map { provider in
            let client = ProviderClient(
                provider: provider, httpClient: httpClient, timeout: configuration.upstreamTimeout, maxBodyBytes: configuration.upstreamMaxBodyBytes,
                today: { Day(containing: configuration.now()) }, override: configuration.upstreamOverrides[provider.key])
            let fetch = ProviderFetch(
                client: client, ingestor: ingestor, backfillDays: configuration.providerBackfillDays, now: configuration.now, logger: logger)
            return (fetch, provider.schedule)
        }
        keys = Set(selection.providers.map(\.key)).union([ProviderKey.ecb])
    }
}
