import RatesCore

/// The merge of providers' publications into one value per currency and day: pure, no I/O.
///
/// For a day D, each provider contributes its newest publication of [D − carry-forward, D]. Each
/// publication values its currencies per EUR (``ProviderDay/perEuroRates(ecb:)``); where at least
/// ``MergePolicy/consensusMinimumProviders`` providers value a currency, a value more than
/// ``MergePolicy/consensusThreshold`` from their median is left out and reported; of the rest, the
/// first by ``MergePolicy/precedence`` is the merged rate, with its provider, its own day and its
/// published figure. Every served number is one provider's published figure, traceably converted,
/// never a blend.
public enum RatesMerge {
    /// Merges `publications` for `day`.
    ///
    /// - Parameters:
    ///   - day: The merged day D.
    ///   - publications: Providers' publications, at most one per provider and day; for each
    ///     provider the newest with a day in [D − ``MergePolicy/carryForwardDays``, D] is used, the
    ///     others ignored (for a provider publishing in parts, ``ProviderDay/inParts``, each
    ///     currency comes from the newest of them that has it).
    ///   - policy: Precedence, carry-forward and consensus.
    ///   - ecb: The ECB's publications of the days of the others, for providers that quote no EUR
    ///     on their day (the bridge uses the ECB's publication of the provider's own day). The ECB
    ///     publications among `publications` serve too.
    public static func merge(day: Day, publications: [ProviderDay], policy: MergePolicy = .default, ecb: [ProviderDay] = []) -> MergedDay {
        let earliest = day.adding(days: -policy.carryForwardDays)
        // Per provider, its newest publication in the window; all of them, newest first, for a provider publishing in parts.
        var used: [String: [ProviderDay]] = [:]
        for publication in publications.sorted(by: { $0.day > $1.day }) where publication.day >= earliest && publication.day <= day {
            if let kept = used[publication.provider], !publication.inParts || kept.contains(where: { $0.day == publication.day }) { continue }
            used[publication.provider, default: []].append(publication)
        }
        var ecbByDay: [Day: ProviderDay] = [:]
        for publication in ecb + publications where publication.provider == ProviderKey.ecb && publication.pivot == .euro {
            ecbByDay[publication.day] = ecbByDay[publication.day] ?? publication
        }

        // Every provider's values, by currency: one per provider, from its newest publication that has it.
        var candidates: [CurrencyCode: [(rate: PerEuroRate, publication: ProviderDay)]] = [:]
        for provider in used.keys.sorted() {
            var valued: Set<CurrencyCode> = []
            for publication in used[provider]! {
                for rate in publication.perEuroRates(ecb: ecbByDay[publication.day]) where rate.currency != .euro && valued.insert(rate.currency).inserted {
                    candidates[rate.currency, default: []].append((rate, publication))
                }
            }
        }

        var rates: [PerEuroRate] = []
        var exclusions: [ConsensusExclusion] = []
        for currency in candidates.keys.sorted() {
            var values = candidates[currency]!
            if values.count >= policy.consensusMinimumProviders {
                let approximations = values.map(\.rate.value.approximation)
                let median = Self.median(approximations)
                var kept: [(rate: PerEuroRate, publication: ProviderDay)] = []
                for (candidate, approximation) in zip(values, approximations) {
                    let deviation = abs(approximation - median) / median
                    if deviation > policy.consensusThreshold {
                        exclusions.append(
                            ConsensusExclusion(day: day, rate: candidate.rate, median: median, deviation: deviation, providerCount: values.count))
                    } else {
                        kept.append(candidate)
                    }
                }
                values = kept
            }
            let winner = values.min { policy.precedes($0.publication, $1.publication, for: currency) }
            if let winner { rates.append(winner.rate) }
        }
        return MergedDay(day: day, rates: rates, exclusions: exclusions)
    }

    /// The median of `values` (not empty): the middle one, or the mean of the middle two.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
