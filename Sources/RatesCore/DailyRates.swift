/// One day's published reference rates, relative to the provider's base currency.
///
/// Values are the provider's decimal text, kept exactly as published (`"0.83380"` stays
/// `"0.83380"`): they are never parsed into binary floating point.
public struct DailyRates: Hashable, Sendable {
    /// The publication day.
    public var day: Day
    /// Rate text per currency: one unit of the base buys this much of the currency.
    public var rates: [CurrencyCode: String]
    /// Where each merged rate came from, when it did not come from the batch's own provider on
    /// this very day (``RatesBatch/provider``): the provider and that provider's own day.
    public var sources: [CurrencyCode: RateSource]

    public init(day: Day, rates: [CurrencyCode: String], sources: [CurrencyCode: RateSource] = [:]) {
        self.day = day
        self.rates = rates
        self.sources = sources
    }
}

/// The provider a merged rate came from, and the day that provider published it.
public struct RateSource: Hashable, Sendable {
    /// The provider's key (`ECB`, `NBP`, …).
    public var provider: String
    /// The provider's own publication day (earlier than the merged day when carried forward).
    public var day: Day

    public init(provider: String, day: Day) {
        self.provider = provider
        self.day = day
    }
}

/// Everything one upstream file said: the days it covers, each complete.
///
/// A batch is authoritative for each day it contains: a currency stored for such a day
/// but absent from the batch was withdrawn by the provider.
public struct RatesBatch: Sendable {
    /// The provider's base currency (EUR for the ECB).
    public var base: CurrencyCode
    /// The provider of every rate without a ``DailyRates/sources`` entry.
    public var provider: String
    /// The days, in ascending order, without duplicates.
    public var days: [DailyRates]

    public init(base: CurrencyCode, provider: String = ProviderKey.ecb, days: [DailyRates]) {
        self.base = base
        self.provider = provider
        self.days = days.sorted { $0.day < $1.day }
    }

    /// The newest day in the batch.
    public var latestDay: Day? { days.last?.day }

    /// How many (day, currency) values the batch holds.
    public var valueCount: Int { days.reduce(0) { $0 + $1.rates.count } }
}
