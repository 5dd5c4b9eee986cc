import RatesCore

extension PublishedQuote {
    /// The quote of `currency` whose figure the source writes as `text`, read with ``PublishedText/rate(_:currency:day:)``
    /// (a decimal comma made a point, grouping spaces dropped); what is not a decimal rejects the answer, naming the
    /// currency, the day and the text.
    static func reading(_ text: String, of currency: CurrencyCode, unit: Int = 1, direction: Direction, day: Day) throws(UpstreamDataError)
        -> PublishedQuote
    {
        PublishedQuote(currency: currency, value: try PublishedText.rate(text, currency: currency, day: day), unit: unit, direction: direction)
    }
}
