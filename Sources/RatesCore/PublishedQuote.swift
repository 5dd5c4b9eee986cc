/// One figure exactly as a provider published it: the value text, how many units of the
/// currency it is for, and which way round it is quoted.
///
/// Nothing is computed on the way in: `value` is the published decimal text with only its
/// decimal separator normalised to `.` (and grouping spaces removed), so it passes
/// ``RateText/isValid(_:)``. A buy/sell-only source contributes the exact midpoint
/// (``RateText/midpoint(_:_:)``).
public struct PublishedQuote: Hashable, Sendable {
    /// Which way round a figure is quoted, relative to the provider's pivot currency.
    public enum Direction: String, Hashable, Sendable {
        /// `value` pivot for `unit` units of the currency: the Bank of Russia's 75.5273 RUB per 1 USD,
        /// the Czech National Bank's 14.568 CZK per 100 JPY.
        case pivotPerUnits = "pivot-per-units"
        /// `value` units of the currency for `unit` pivot: the ECB's 1.1650 USD per 1 EUR.
        case unitsPerPivot = "units-per-pivot"
    }

    /// The quoted currency.
    public var currency: CurrencyCode
    /// The published decimal text (``RateText/isValid(_:)``).
    public var value: String
    /// How many units the figure is for (1, 10, 100, 1000, …): of the currency for
    /// ``Direction/pivotPerUnits``, of the pivot for ``Direction/unitsPerPivot``.
    public var unit: Int
    /// Which way round `value` is quoted.
    public var direction: Direction

    public init(currency: CurrencyCode, value: String, unit: Int = 1, direction: Direction) {
        self.currency = currency
        self.value = value
        self.unit = unit
        self.direction = direction
    }
}

/// Everything one provider published for one day.
public struct ProviderPublication: Hashable, Sendable {
    /// The day the figures are for (the provider's own publication or validity day).
    public var day: Day
    /// The figures, at most one per currency.
    public var quotes: [PublishedQuote]

    public init(day: Day, quotes: [PublishedQuote]) {
        self.day = day
        self.quotes = quotes
    }
}
