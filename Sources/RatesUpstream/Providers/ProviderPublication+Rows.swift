import RatesCore

extension ProviderPublication {
    /// The publications of quotes read one row at a time, each row one currency on one day (a
    /// JSON array of `{date, currency, rate}` records): one publication per day, days in the order
    /// first seen, each day's quotes in row order. A currency given twice on a day stays twice, for
    /// ``ProviderValidation/validate(_:notAfter:)`` to reject.
    static func byDay(_ rows: [(day: Day, quote: PublishedQuote)]) -> [ProviderPublication] {
        var order: [Day] = []
        var quotes: [Day: [PublishedQuote]] = [:]
        for row in rows {
            if quotes[row.day] == nil { order.append(row.day) }
            quotes[row.day, default: []].append(row.quote)
        }
        return order.map { ProviderPublication(day: $0, quotes: quotes[$0]!) }
    }
}
