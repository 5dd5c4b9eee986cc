import RatesCore

/// The quotes of an answer that lists some figures again (a day repeated whole, a record sent twice, a currency listed
/// once per country that uses it), gathered by day: a quote the same as one before it of its day and currency counts
/// once; one that differs rejects the answer.
struct RepeatedQuotes {
    private var rows: [(day: Day, quote: PublishedQuote)] = []
    private var seen: [Day: [CurrencyCode: PublishedQuote]] = [:]

    /// Adds `quote` on `day`, unless the day has the same quote of its currency already.
    ///
    /// - Throws: ``UpstreamDataError/duplicateCurrency(_:day:)`` when the day has another figure of the currency.
    mutating func add(_ quote: PublishedQuote, on day: Day) throws(UpstreamDataError) {
        if let earlier = seen[day]?[quote.currency] {
            guard earlier == quote else { throw .duplicateCurrency(quote.currency, day: day) }
            return
        }
        seen[day, default: [:]][quote.currency] = quote
        rows.append((day, quote))
    }

    /// One publication per day, days in the order first seen, each day's quotes in the order added
    /// (``ProviderPublication/byDay(_:)``).
    var publications: [ProviderPublication] { ProviderPublication.byDay(rows) }
}
