import RatesCore

extension PublishedText {
    /// The exact midpoint of a buying and a selling rate written as JSON numbers or strings (``ProviderJSON/publishedDecimal``),
    /// for a buy/sell-only figure of a JSON answer; a side that is no published decimal rejects the answer, naming what it holds.
    static func midpoint(buying: ProviderJSON, selling: ProviderJSON, currency: CurrencyCode, day: Day) throws(UpstreamDataError) -> String {
        guard let buy = buying.publishedDecimal else { throw .invalidRate(currency: currency, day: day, text: buying.shown) }
        guard let sell = selling.publishedDecimal else { throw .invalidRate(currency: currency, day: day, text: selling.shown) }
        return try midpoint(buying: buy, selling: sell, currency: currency, day: day)
    }
}
