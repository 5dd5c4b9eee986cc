import RatesCore

extension PublishedText {
    /// The exact midpoint of a buying and a selling rate (``RatesCore/RateText/midpoint(_:_:)``), the figure a
    /// buy/sell-only source contributes; a rate that is not a decimal rejects the answer, naming the first such.
    static func midpoint(buying: String, selling: String, currency: CurrencyCode, day: Day) throws(UpstreamDataError) -> String {
        guard let middle = RateText.midpoint(buying, selling) else {
            throw .invalidRate(currency: currency, day: day, text: RateText.isValid(buying) ? selling : buying)
        }
        return middle
    }
}
