import RatesCore

/// The merge of providers' publications into one value per currency and day: pure, no I/O.
///
/// For a day D, each provider contributes its newest publication of [D − carry-forward, D]. Each
/// publication values its currencies per EUR (``ProviderDay/perEuroRates(ecb:)``); for each
/// currency one value is chosen, with its provider, its own day and its published figure. Every
/// served number is one provider's published figure (or a declared peg), traceably converted,
/// never a blend. For a currency C the order is (``MergePolicy/precedence``):
///
/// 1. the ECB, for the currencies it publishes;
/// 2. C's issuer (``ProviderDay/issues``), whatever its pivot;
/// 3. C's declared peg, where neither speaks: the anchor's merged value times the declared rate;
/// 4. the other sources, tier by tier, a source whose figures for C typically sit far from the
///    others' (``SourceStanding``, ``MergePolicy/rankingBound``) below every source that does not.
///
/// - Freshness before precedence: of a currency's values, those more than
///   ``MergePolicy/freshnessToleranceDays`` older than its freshest take no part.
/// - Consensus on the same-day values (those of the currency's freshest day, or all fresh ones when
///   that day has too few), from the euro's first day (``RatesCore/FixedParity/euroIntroduction``): a
///   value too far from their median — ``MergePolicy/consensusThreshold``
///   for a source that speaks for the currency, 3 robust standard deviations within
///   ``MergePolicy/consensusSpreadBounds`` for the others — is flagged: it ranks below every value
///   that is not, and is reported (``ConsensusExclusion``). It never deletes a currency.
/// - A figure stays in its own pivot until it is used: a periodic source's figure carried forward
///   (its ``ProviderDay/validityDays`` past the carry-forward limit), or a publication that has no
///   way to EUR of its own (a part of a publication that arrives alone), is expressed per EUR through
///   the merged day's own value of its pivot.
public enum RatesMerge {
    /// A value in the running for a currency, with what decides its place.
    private struct Candidate {
        var rate: PerEuroRate
        /// The place of its rank in the precedence (``MergePolicy/place(of:issues:for:)``).
        var rank: Int
        /// The tie-break between two of one rank: the place of the provider's key.
        var keyRank: Int
        /// Whether its rank speaks for the currency (the ECB, the issuer).
        var speaksFor: Bool
        /// Whether its source's figures for the currency typically sit far from the others'.
        var demoted: Bool
        var isPeg: Bool { rate.provider == FixedParity.pegProvider }
    }

    /// Merges `publications` for `day`.
    ///
    /// - Parameters:
    ///   - day: The merged day D.
    ///   - publications: Providers' publications, at most one per provider and day; for each
    ///     provider the newest with a day in [D − ``MergePolicy/carryForwardDays``, D] (or as long
    ///     as its figures hold, ``ProviderDay/validityDays``) is used, the
    ///     others ignored (for a provider publishing in parts, ``ProviderDay/inParts``, each
    ///     currency comes from the newest of them that has it).
    ///   - policy: Precedence, carry-forward, consensus and pegs.
    ///   - ecb: The ECB's publications of the days of the others, for providers that quote no EUR
    ///     on their day (the bridge uses the ECB's publication of the provider's own day). The ECB
    ///     publications among `publications` serve too.
    ///   - standing: The rank each source has earned for each currency (``SourceStanding/none``: none judged).
    ///   - weighing: Whether the merged day lists every value it weighed (``MergedDay/weighed``); an ingest, which
    ///     stores the chosen ones only, does without.
    public static func merge(
        day: Day, publications: [ProviderDay], policy: MergePolicy = .default, ecb: [ProviderDay] = [], standing: SourceStanding = .none,
        weighing: Bool = true
    ) -> MergedDay {
        // Per provider, its newest publication in the window; all of them, newest first, for a provider publishing in parts.
        var used: [String: [ProviderDay]] = [:]
        for publication in publications.sorted(by: { $0.day > $1.day })
        where publication.day >= day.adding(days: -(publication.validityDays ?? policy.carryForwardDays)) && publication.day <= day {
            if let kept = used[publication.provider], !publication.inParts || kept.contains(where: { $0.day == publication.day }) { continue }
            used[publication.provider, default: []].append(publication)
        }
        let ecbByDay = ecbPublications(ecb + publications)

        func candidate(_ rate: PerEuroRate, of publication: ProviderDay, keyRank: Int) -> Candidate {
            let place = policy.place(keyRank: keyRank, issues: publication.issues, for: rate.currency)
            let demoted = policy.demotes(standing.measure(of: publication.provider, for: rate.currency, on: day), speaksFor: place.speaksFor)
            return Candidate(rate: rate, rank: place.rank, keyRank: keyRank, speaksFor: place.speaksFor, demoted: demoted)
        }

        // Every provider's values, by currency: one per provider, from its newest publication that has it. A
        // publication that goes through the merged value of its pivot waits for that value.
        var candidates: [CurrencyCode: [Candidate]] = [:]
        var throughPivot: [ProviderDay] = []
        var valued: [String: Set<CurrencyCode>] = [:]
        for provider in used.keys.sorted() {
            let keyRank = policy.keyRank(of: provider)
            var seen: Set<CurrencyCode> = []
            for publication in used[provider]! {
                let rates = publication.goesThroughMergedPivot(on: day, policy: policy) ? [] : publication.perEuroRates(ecb: ecbByDay[publication.day])
                if rates.isEmpty, publication.pivot != .euro { throughPivot.append(publication) }
                for rate in rates where rate.currency != .euro && seen.insert(rate.currency).inserted {
                    candidates[rate.currency, default: []].append(candidate(rate, of: publication, keyRank: keyRank))
                }
            }
            valued[provider] = seen
        }

        // The published figures first; then the values that need a merged value (a pivot's, a peg's
        // anchor's) join, and their currencies are chosen again.
        var exclusions: [CurrencyCode: [ConsensusExclusion]] = [:]
        var weighed: [CurrencyCode: [PerEuroRate]] = [:]
        var chosen: [CurrencyCode: PerEuroRate] = [:]
        func choose(_ currency: CurrencyCode) {
            let choice = Self.choose(currency, among: candidates[currency]!, on: day, policy: policy, weighing: weighing)
            chosen[currency] = choice.rate
            exclusions[currency] = choice.exclusions
            if weighing { weighed[currency] = choice.weighed }
        }
        for currency in candidates.keys { choose(currency) }
        guard !chosen.isEmpty else { return MergedDay(day: day, rates: [], exclusions: []) }  // a day no provider published has no pegs either

        var joined: Set<CurrencyCode> = []
        for publication in throughPivot {
            guard let pivot = chosen[publication.pivot] else { continue }
            let keyRank = policy.keyRank(of: publication.provider)
            var seen = valued[publication.provider] ?? []
            for rate in publication.perEuroRates(throughMergedPivot: pivot.value)
            where rate.currency != .euro && seen.insert(rate.currency).inserted {
                candidates[rate.currency, default: []].append(candidate(rate, of: publication, keyRank: keyRank))
                joined.insert(rate.currency)
            }
            valued[publication.provider] = seen
        }
        for peg in policy.pegs where peg.since <= day {
            let anchor = peg.anchor == .euro ? nil : chosen[peg.anchor]
            guard peg.anchor == .euro || anchor != nil, let rate = pegged(peg, anchor: anchor, on: day) else { continue }
            candidates[peg.currency, default: []].append(
                Candidate(rate: rate, rank: policy.pegRank, keyRank: policy.pegRank, speaksFor: false, demoted: false))
            joined.insert(peg.currency)
        }
        for currency in joined { choose(currency) }

        let currencies = chosen.keys.sorted()
        return MergedDay(
            day: day, rates: currencies.map { chosen[$0]! }, exclusions: currencies.flatMap { exclusions[$0] ?? [] },
            weighed: currencies.flatMap { weighed[$0] ?? [] })
    }

    /// The value served for `currency`: freshness first, then the same-day consensus, then the order of
    /// ``Candidate``s (flagged last, then demoted, then rank); with the values it weighed and those it flagged.
    private static func choose(
        _ currency: CurrencyCode, among all: [Candidate], on day: Day, policy: MergePolicy, weighing: Bool
    ) -> (rate: PerEuroRate, exclusions: [ConsensusExclusion], weighed: [PerEuroRate]) {
        // Freshness first: a published value more than the tolerance older than the currency's freshest takes no part.
        let freshest = all.filter { !$0.isPeg }.map(\.rate.day).max()
        let values = all.filter { $0.isPeg || $0.rate.day >= freshest!.adding(days: -policy.freshnessToleranceDays) }
        let fresh = values.indices.filter { !values[$0].isPeg }
        let approximations = values.map { $0.isPeg ? .nan : $0.rate.value.approximation }

        // The same-day consensus: the values of the freshest day, or every fresh one when that day has too few.
        var flagged: [Int: ConsensusExclusion] = [:]
        let sameDay = fresh.filter { values[$0].rate.day == freshest }
        let judging = sameDay.count >= policy.consensusMinimumProviders ? sameDay : fresh
        if judging.count >= policy.consensusMinimumProviders, day >= FixedParity.euroIntroduction {
            let judged = judging.map { approximations[$0] }
            let median = Self.median(judged)
            let spread = 1.4826 * Self.median(judged.map { abs($0 - median) }) / median
            let bound = min(max(3 * spread, policy.consensusSpreadBounds.lowerBound), policy.consensusSpreadBounds.upperBound)
            for index in fresh {
                let value = values[index]
                let deviation = abs(approximations[index] - median) / median
                if deviation > (value.speaksFor ? policy.consensusThreshold : bound) {
                    flagged[index] = ConsensusExclusion(day: day, rate: value.rate, median: median, deviation: deviation, providerCount: judging.count)
                }
            }
        }
        let order = values.indices.min { left, right in
            let a = values[left], b = values[right]
            return (flagged[left] == nil ? 0 : 1, a.demoted ? 1 : 0, a.rank, a.keyRank, a.rate.provider)
                < (flagged[right] == nil ? 0 : 1, b.demoted ? 1 : 0, b.rank, b.keyRank, b.rate.provider)
        }!
        flagged[order] = nil
        return (values[order].rate, flagged.sorted { $0.key < $1.key }.map(\.value), weighing ? fresh.map { values[$0].rate } : [])
    }

    /// The value `peg` gives its currency on `day`, from the anchor's merged value (`nil` for a peg to
    /// the euro): ``RatesCore/FixedParity/perEuro(anchorPerEuro:)``.
    static func pegged(_ peg: FixedParity, anchor: PerEuroRate?, on day: Day) -> PerEuroRate? {
        guard let value = peg.perEuro(anchorPerEuro: anchor?.value) else { return nil }
        return PerEuroRate(
            currency: peg.currency, value: value, provider: FixedParity.pegProvider, day: anchor?.day ?? day, source: peg.quote,
            route: .pegged(anchor: anchor?.value))
    }

    /// The ECB's publications among `publications`, by day.
    private static func ecbPublications(_ publications: [ProviderDay]) -> [Day: ProviderDay] {
        let ecb = publications.filter { $0.provider == ProviderKey.ecb && $0.pivot == .euro }
        return Dictionary(ecb.map { ($0.day, $0) }) { first, _ in first }
    }

    /// How far each provider's value of each currency sits from the median of the other providers'
    /// values of the same day, where ``MergePolicy/consensusMinimumProviders`` or more value it that
    /// day: what ``SourceStanding`` measures a source's rank with. Only the publications of `day`
    /// itself count (a figure carried forward is not a figure of that day), and only from the euro's
    /// first day (before it, sources' values per EUR are per different euros).
    public static func sameDayDeviations(
        day: Day, publications: [ProviderDay], policy: MergePolicy = .default, ecb: [ProviderDay] = []
    ) -> [SameDayDeviation] {
        var seen: Set<String> = []
        let sameDay = publications.filter { $0.day == day && seen.insert($0.provider).inserted }
        // Most days of a long history are the ECB's alone; before the euro, sources' values per EUR are not comparable.
        guard sameDay.count >= policy.consensusMinimumProviders, day >= FixedParity.euroIntroduction else { return [] }
        let ecbByDay = ecbPublications(ecb + publications)
        var values: [CurrencyCode: [(provider: String, value: Double)]] = [:]
        for publication in sameDay {
            for rate in publication.perEuroRates(ecb: ecbByDay[day]) where rate.currency != .euro {
                values[rate.currency, default: []].append((publication.provider, rate.value.approximation))
            }
        }
        var deviations: [SameDayDeviation] = []
        for (currency, all) in values where all.count >= policy.consensusMinimumProviders {
            for (index, own) in all.enumerated() {
                let others = all.enumerated().filter { $0.offset != index }.map(\.element.value)
                let median = Self.median(others)
                deviations.append(SameDayDeviation(provider: own.provider, currency: currency, day: day, deviation: abs(own.value - median) / median))
            }
        }
        return deviations
    }

    /// The median of `values` (not empty): the middle one, or the mean of the middle two.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
