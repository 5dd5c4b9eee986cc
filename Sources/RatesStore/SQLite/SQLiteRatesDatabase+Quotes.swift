import GRDB
import RatesCore

extension SQLiteRatesDatabase {
    func quotes(_ span: QuoteReader.Span, providers: Set<String>?) throws -> QuoteReader {
        try database.read { db in try QuoteReader(db, span, providers: providers) }
    }

    func latestPublicationDay(of providers: Set<String>, onOrBefore day: Day?) throws -> Day? {
        try database.read { db in
            try String.fetchOne(
                db, sql: "SELECT MAX(day) FROM quote WHERE day <= ? AND provider IN (\(databaseQuestionMarks(count: providers.count)))",
                arguments: [day?.description ?? "9999-12-31"] + StatementArguments(providers.sorted())
            ).flatMap(Day.init)
        }
    }

    func publication(of provider: String, on day: Day) throws -> ProviderPublication? {
        try database.read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT currency, value, unit, direction FROM quote WHERE provider = ? AND day = ? ORDER BY currency",
                arguments: [provider, day.description])
            let quotes = try Array(rows.compactMap { row -> PublishedQuote? in
                guard let currency = CurrencyCode(row[0] as String), let direction = PublishedQuote.Direction(rawValue: row[3]) else { return nil }
                return PublishedQuote(currency: currency, value: row[1], unit: row[2], direction: direction)
            })
            return quotes.isEmpty ? nil : ProviderPublication(day: day, quotes: quotes)
        }
    }

    func latestRunID() throws -> Int64 {
        try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM fetchRun") ?? 0 }
    }

    func providerHoldings() throws -> [String: RatesStore.ProviderHoldings] {
        try database.read { db in
            var holdings: [String: RatesStore.ProviderHoldings] = [:]
            let rows = try Row.fetchAll(db, sql: "SELECT provider, MIN(day), MAX(day), COUNT(DISTINCT day) FROM quote GROUP BY provider")
            for row in rows {
                guard let first = Day(row[1] as String), let latest = Day(row[2] as String) else { continue }
                let provider: String = row[0]
                let currencies = try String.fetchAll(
                    db, sql: "SELECT currency FROM quote WHERE provider = ? AND day = ? ORDER BY currency", arguments: [provider, latest.description])
                holdings[provider] = RatesStore.ProviderHoldings(
                    firstDay: first, latestDay: latest, publicationCount: row[3], latestCurrencies: currencies.compactMap(CurrencyCode.init))
            }
            return holdings
        }
    }
}
