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
///
/// - Freshness before precedence: of a currency's values, those more than
///   ``MergePolicy/freshnessToleranceDays`` older than its freshest take no part, in the consensus
///   check or the choice.
/// - Consensus never deletes a currency: when every value is too far from the median (two clusters
///   with the median between them), the precedence winner stays and the others are reported.
/// - A currency no provider values gets its declared peg (``MergePolicy/pegs``), last.
public enum RatesMerge {
    /// Merges `publications` for `day`.
    ///
    /// - Parameters:
    ///   - day: The merged day D.
    ///   - publications: Providers' publications, at most one per provider and day; for each
    ///     provider the newest with a day in [D − ``MergePolicy/carryForwardDays``, D] (or as long
    ///     as its figures hold, ``ProviderDay/validityDays``) is used, the
    ///     others ignored (for a provider publishing in parts, ``ProviderDay/inParts``, each
    ///     currency comes from the newest of them that has it).
    ///   - policy: Precedence, carry-forward and consensus.
    ///   - ecb: The ECB's publications of the days of the others, for providers that quote no EUR
    ///     on their day (the bridge uses the ECB's publication of the provider's own day). The ECB
    ///     publications among `publications` serve too.
    public static func merge(day: Day, publications: [ProviderDay], policy: MergePolicy = .default, ecb: [ProviderDay] = []) -> MergedDay {
        // Per provider, its newest publication in the window; all of them, newest first, for a provider publishing in parts.
        var used: [String: [ProviderDay]] = [:]
        for publication in publications.sorted(by: { $0.day > $1.day })
        where publication.day >= day.adding(days: -(publication.validityDays ?? policy.carryForwardDays)) && publication.day <= day {
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
        var weighed: [PerEuroRate] = []
        for currency in candidates.keys.sorted() {
            // Freshness first: a value more than the tolerance older than the currency's freshest takes no part.
            let all = candidates[currency]!
            let freshest = all.map(\.rate.day).max()!
            var values = all.filter { $0.rate.day >= freshest.adding(days: -policy.freshnessToleranceDays) }
            weighed += values.map(\.rate)
            if values.count >= policy.consensusMinimumProviders {
                let approximations = values.map(\.rate.value.approximation)
                let median = Self.median(approximations)
                var kept: [(rate: PerEuroRate, publication: ProviderDay)] = []
                var excluded: [ConsensusExclusion] = []
                for (candidate, approximation) in zip(values, approximations) {
                    let deviation = abs(approximation - median) / median
                    let exclusion = ConsensusExclusion(day: day, rate: candidate.rate, median: median, deviation: deviation, providerCount: values.count)
                    if deviation > policy.consensusThreshold { excluded.append(exclusion) } else { kept.append(candidate) }
                }
                if kept.isEmpty {
                    // No value is near the median (two clusters): the currency keeps its precedence winner, and every other is reported.
                    let winner = values.min { policy.precedes($0.publication, $1.publication, for: currency) }!
                    excluded.removeAll { $0.rate == winner.rate }
                    kept = [winner]
                }
                exclusions += excluded
                values = kept
            }
            let winner = values.min { policy.precedes($0.publication, $1.publication, for: currency) }
            if let winner { rates.append(winner.rate) }
        }
        rates += pegged(day: day, published: rates, pegs: policy.pegs)
        return MergedDay(day: day, rates: rates.sorted { $0.currency < $1.currency }, exclusions: exclusions, weighed: weighed)
    }

    /// The values `pegs` give currencies that no provider valued on `day`: the anchor's value (1 for
    /// the euro) times the declared rate, rounded once to ``PerEuroRate/significantDigits``; none
    /// where the anchor has no value that day.
    static func pegged(day: Day, published: [PerEuroRate], pegs: [FixedParity]) -> [PerEuroRate] {
        guard !published.isEmpty else { return [] }  // a day no provider published has no pegs either
        let valued = Dictionary(published.map { ($0.currency, $0) }, uniquingKeysWith: { first, _ in first })
        return pegs.compactMap { peg in
            guard peg.since <= day, valued[peg.currency] == nil, let rate = ExactDecimal(peg.rate) else { return nil }
            if peg.anchor == .euro {
                return PerEuroRate(currency: peg.currency, value: rate, provider: FixedParity.pegProvider, day: day, source: peg.quote, route: .pegged(anchor: nil))
            }
            guard let anchor = valued[peg.anchor], let value = anchor.value.multiplied(by: rate)?.rounded(significantDigits: PerEuroRate.significantDigits)
            else { return nil }
            return PerEuroRate(
                currency: peg.currency, value: value, provider: FixedParity.pegProvider, day: anchor.day, source: peg.quote, route: .pegged(anchor: anchor.value))
        }
    }

    /// The median of `values` (not empty): the middle one, or the mean of the middle two.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
