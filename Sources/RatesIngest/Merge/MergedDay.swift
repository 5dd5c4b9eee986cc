import RatesCore

/// The merge of one day: each currency's value per EUR with the provider it came from, and the
/// values the consensus check left out.
public struct MergedDay: Hashable, Sendable {
    /// The merged day.
    public var day: Day
    /// One rate per currency, in currency order; EUR, the base, is not among them.
    public var rates: [PerEuroRate]
    /// The values the same-day consensus flagged and the merge did not serve, by currency then provider.
    public var exclusions: [ConsensusExclusion]
    /// Every value the merge weighed, by currency: each provider's freshest (those older than the
    /// freshness tolerance take no part), the chosen and the flagged among them; pegs are not.
    public var weighed: [PerEuroRate]

    public init(day: Day, rates: [PerEuroRate], exclusions: [ConsensusExclusion], weighed: [PerEuroRate] = []) {
        self.day = day
        self.rates = rates
        self.exclusions = exclusions
        self.weighed = weighed
    }

    /// The merged rate of `currency`, if any provider valued it.
    public subscript(currency: CurrencyCode) -> PerEuroRate? {
        rates.first { $0.currency == currency }
    }
}

/// A provider's value the merge flagged and did not serve: further from the median of the same-day
/// values of that currency than the policy allows (``MergePolicy/consensusThreshold`` for a source that
/// speaks for the currency, ``MergePolicy/consensusSpreadBounds`` for the others): an inverted or
/// shifted quote (lineofflight/frankfurter#297), or an indicative rate far from the others.
public struct ConsensusExclusion: Hashable, Sendable {
    /// The merged day the check was made for.
    public var day: Day
    /// The value left out, with its provider, its own day and its published figure.
    public var rate: PerEuroRate
    /// The median of the values judged (the same day's, or all fresh ones when that day has too few), units per EUR
    /// (the mean of the middle two for an even count).
    public var median: Double
    /// How far the value is from the median, as a fraction of the median (0.9 for 90%).
    public var deviation: Double
    /// How many providers' values the median is of.
    public var providerCount: Int

    public var currency: CurrencyCode { rate.currency }
    public var provider: String { rate.provider }

    public init(day: Day, rate: PerEuroRate, median: Double, deviation: Double, providerCount: Int) {
        self.day = day
        self.rate = rate
        self.median = median
        self.deviation = deviation
        self.providerCount = providerCount
    }
}
