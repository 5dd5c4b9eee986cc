import GRDB
import RatesCore

extension QuoteReader {
    /// Reads the quotes of the days of `span`, of `providers` only when given.
    ///
    /// - Parameter batches: Batches to apply to what is read (``init(byProvider:applying:)``).
    init(_ db: Database, _ span: Span, providers: Set<String>? = nil, applying batches: [QuoteBatch] = []) throws {
        var byProvider: [String: [Day: [PublishedQuote]]] = [:]
        var arguments: StatementArguments = [span.from.description, span.through.description]
        var days = "day BETWEEN ? AND ?"
        if !span.longLived.isEmpty {
            days = "(\(days) OR (provider IN (\(databaseQuestionMarks(count: span.longLived.count))) AND day BETWEEN ? AND ?))"
            arguments += StatementArguments(span.longLived)
            arguments += [span.longLivedFrom.description, span.through.description]
        }
        var filter = ""
        if let providers {
            filter = " AND provider IN (\(databaseQuestionMarks(count: providers.count)))"
            arguments += StatementArguments(providers.sorted())
        }
        let rows = try Row.fetchCursor(
            db, sql: "SELECT provider, day, currency, value, unit, direction FROM quote WHERE \(days)\(filter)", arguments: arguments)
        while let row = try rows.next() {
            guard let day = Day(row[1] as String), let currency = CurrencyCode(row[2] as String),
                  let direction = PublishedQuote.Direction(rawValue: row[5])
            else { continue }
            byProvider[row[0] as String, default: [:]][day, default: []].append(
                PublishedQuote(currency: currency, value: row[3], unit: row[4], direction: direction))
        }
        self.init(byProvider: byProvider, applying: batches)
    }
}
