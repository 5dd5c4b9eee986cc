import RatesCore
import RatesStore
import RatesUpstream

extension Ingestor {
    /// Validates a provider's publications, stores them as published and the merged days they
    /// touch, in one transaction, and applies what changed to the in-memory dataset.
    ///
    /// The merged days recomputed are every day some provider published from the first day
    /// of `publications` through ``MergePolicy/carryForwardDays`` after the last: a value
    /// carried forward from these publications may reach them.
    ///
    /// - Parameters:
    ///   - provider: The provider's key and pivot.
    ///   - run: The record of this ingest; stored with the data, with its outcome and count filled in.
    ///   - notAfter: The newest day a valid publication may hold (tomorrow, to allow for time zones).
    /// - Returns: The recorded run: `.updated` with the merged rows changed, or `.unchanged`.
    /// - Throws: `UpstreamDataError` when a publication is invalid (nothing is stored), `DatabaseError` when the write fails.
    @discardableResult
    public func ingest(
        _ publications: [ProviderPublication], of provider: (key: String, pivot: CurrencyCode), run: FetchRun, notAfter: Day
    ) throws -> FetchRun {
        try exclusively {
            let valid = try ProviderValidation.validate(publications, notAfter: notAfter)
            let policy = mergePolicy
            var exclusions: [ConsensusExclusion] = []
            let recorded = try store.ingest(provider: provider.key, publications: valid, run: run) { reader in
                let merged = Self.mergedDays(after: valid, reader: reader, policy: policy)
                exclusions = merged.exclusions
                return merged.batch
            }
            record(exclusions, of: valid.map(\.day))
            if recorded.outcome == .updated { state.updateFetchStatus { $0.dataOrigin = recorded.source } }
            try applyLoggedChanges()
            return recorded
        }
    }

    /// The merged days `publications` touch, recomputed from every provider's quotes.
    static func mergedDays(
        after publications: [ProviderPublication], reader: QuoteReader, policy: MergePolicy
    ) -> (batch: RatesBatch, exclusions: [ConsensusExclusion]) {
        guard let first = publications.first?.day, let last = publications.last?.day else { return (RatesBatch(base: .euro, days: []), []) }
        let through = last.adding(days: policy.carryForwardDays)
        let pivots = Dictionary(uniqueKeysWithValues: reader.providers.map { ($0, ProviderRegistry.entry($0)?.pivot ?? .euro) })
        var days: [DailyRates] = []
        var exclusions: [ConsensusExclusion] = []
        for day in reader.publicationDays where day >= first && day <= through {
            let inputs = reader.providers.compactMap { key in
                reader.publication(of: key, onOrBefore: day, maxAge: policy.carryForwardDays).map {
                    ProviderDay(provider: key, pivot: pivots[key] ?? .euro, day: $0.day, quotes: $0.quotes)
                }
            }
            // A day only the ECB published is its figures as they are: the merge would keep each one's digits.
            if inputs.count == 1, let ecb = inputs.first, ecb.provider == ProviderDay.ecbKey, ecb.day == day {
                days.append(DailyRates(day: day, rates: Dictionary(ecb.quotes.map { ($0.currency, $0.value) }) { first, _ in first }))
                continue
            }
            // The ECB's publication of each provider's own day, for providers that quote no EUR.
            let ecb = Set(inputs.map(\.day)).compactMap { providerDay in
                reader.publication(of: ProviderDay.ecbKey, onOrBefore: providerDay, maxAge: 0).map {
                    ProviderDay(provider: ProviderDay.ecbKey, pivot: .euro, day: $0.day, quotes: $0.quotes)
                }
            }
            let merged = RatesMerge.merge(day: day, publications: inputs, policy: policy, ecb: ecb)
            exclusions += merged.exclusions
            guard !merged.rates.isEmpty else { continue }
            var rates: [CurrencyCode: String] = [:]
            var sources: [CurrencyCode: RateSource] = [:]
            for rate in merged.rates {
                rates[rate.currency] = rate.value.description
                sources[rate.currency] = RateSource(provider: rate.provider, day: rate.day)
            }
            days.append(DailyRates(day: day, rates: rates, sources: sources))
        }
        return (RatesBatch(base: .euro, provider: ProviderDay.ecbKey, days: days), exclusions)
    }
}
