/// One day's published reference rates, relative to the provider's base currency.
///
/// Values are the provider's decimal text, kept exactly as published (`"0.83380"` stays
/// `"0.83380"`): they are never parsed into binary floating point.
public struct DailyRates: Hashable, Sendable {
    /// The publication day.
    public var day: Day
    /// Rate text per currency: one unit of the base buys this much of the currency.
    public var rates: [CurrencyCode: String]

    public init(day: Day, rates: [CurrencyCode: String]) {
        self.day = day
        self.rates = rates
    }
}

/// Everything one upstream file said: the days it covers, each complete.
///
/// A batch is authoritative for each day it contains: a currency stored for such a day
/// but absent from the batch was withdrawn by the provider.
public struct RatesBatch: Sendable {
    /// The provider's base currency (EUR for the ECB).
    public var base: CurrencyCode
    /// The days, in ascending order, without duplicates.
    public var days: [DailyRates]

    public init(base: CurrencyCode, days: [DailyRates]) {
        self.base = base
        self.days = days.sorted { $0.day < $1.day }
    }

    /// The newest day in the batch.
    public var latestDay: Day? { days.last?.day }

    /// How many (day, currency) values the batch holds.
    public var valueCount: Int { days.reduce(0) { $0 + $1.rates.count } }
}
