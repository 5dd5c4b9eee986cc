import RatesCore

/// The merge of one day: each currency's value per EUR with the provider it came from, and the
/// values the consensus check left out.
public struct MergedDay: Hashable, Sendable {
    /// The merged day.
    public var day: Day
    /// One rate per currency, in currency order; EUR, the base, is not among them.
    public var rates: [PerEuroRate]
    /// The values left out for being too far from the others, by currency then provider.
    public var exclusions: [ConsensusExclusion]
    /// Every value the merge weighed, by currency: each provider's freshest (those older than the
    /// freshness tolerance take no part), the chosen and the excluded among them; pegs are not.
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

/// A provider's value the merge left out: more than the policy's threshold from the median of the
/// values of all providers of that currency (an inverted or shifted quote, lineofflight/frankfurter#297).
public struct ConsensusExclusion: Hashable, Sendable {
    /// The merged day the check was made for.
    public var day: Day
    /// The value left out, with its provider, its own day and its published figure.
    public var rate: PerEuroRate
    /// The median of all providers' values of the currency, units per EUR (the mean of the middle two for an even count).
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
