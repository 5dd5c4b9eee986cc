import RatesCore

extension PublishedQuote {
    /// The quote of a buy/sell-only source: the exact midpoint of `buying` and `selling` of `currency`
    /// (``PublishedText/midpoint(buying:selling:currency:day:)``), quoted `direction` for one unit.
    static func midpoint(buying: String, selling: String, of currency: CurrencyCode, direction: Direction, day: Day)
        throws(UpstreamDataError) -> PublishedQuote
    {
        let value = try PublishedText.midpoint(buying: buying, selling: selling, currency: currency, day: day)
        return PublishedQuote(currency: currency, value: value, direction: direction)
    }
}
