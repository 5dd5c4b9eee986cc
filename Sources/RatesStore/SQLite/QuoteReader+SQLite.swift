import GRDB
import RatesCore

extension QuoteReader {
    /// Reads the quotes of the days of `span`, of `providers` only when given.
    ///
    /// - Parameter ingested: Publications being stored in this transaction, by provider: their
    ///   providers' quotes of their days are taken from them instead of read back.
    init(_ db: Database, _ span: Span, providers: Set<String>? = nil, ingested: [String: [ProviderPublication]] = [:]) throws {
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
        if !ingested.isEmpty {
            filter += " AND provider || ' ' || day NOT IN (SELECT value FROM json_each(?))"
            arguments += [IngestDocuments.strings(QuoteBatch.keys(of: ingested))]
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
        self.init(byProvider: byProvider, ingested: ingested)
    }
}
