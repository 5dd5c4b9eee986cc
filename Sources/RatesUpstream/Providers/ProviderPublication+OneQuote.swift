import RatesCore

extension ProviderPublication {
    /// A day's publication of one figure, for a source of one currency or an answer of one currency per
    /// record: `value` of `currency` for `unit` units, quoted `direction`.
    init(day: Day, currency: CurrencyCode, value: String, unit: Int = 1, direction: PublishedQuote.Direction) {
        self.init(day: day, quotes: [PublishedQuote(currency: currency, value: value, unit: unit, direction: direction)])
    }
}
