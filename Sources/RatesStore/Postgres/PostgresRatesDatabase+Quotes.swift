import PostgresNIO
import RatesCore

// MARK: - Quotes as published

extension PostgresRatesDatabase {
    func quotes(_ span: QuoteReader.Span, providers: Set<String>?) throws -> QuoteReader {
        try session.transaction(readOnly: true) { statements in try Self.quotes(span, providers: providers, statements) }
    }

    /// Reads the quotes of the days of `span`, of `providers` only when given, with `batches`
    /// applied to them (``QuoteReader/init(byProvider:applying:)``).
    static func quotes(
        _ span: QuoteReader.Span, providers: Set<String>?, applying batches: [QuoteBatch] = [], _ statements: PostgresSession.Statements
    ) throws -> QuoteReader {
        var byProvider: [String: [Day: [PublishedQuote]]] = [:]
        let names = providers.map { Array($0).sorted() }
        let rows = try statements.rows(
            """
            SELECT provider, day, currency, value, unit, direction FROM quote
            WHERE (day BETWEEN \(span.from.description) AND \(span.through.description)
                   OR (provider = ANY(\(span.longLived)) AND day BETWEEN \(span.longLivedFrom.description) AND \(span.through.description)))
              AND (\(names)::text[] IS NULL OR provider = ANY(\(names)))
            """)
        for row in rows {
            let (provider, dayText, code, value, unit, directionText) = try row.decode((String, String, String, String, Int32, String).self)
            guard let day = Day(dayText), let currency = CurrencyCode(code), let direction = PublishedQuote.Direction(rawValue: directionText)
            else { continue }
            byProvider[provider, default: [:]][day, default: []].append(PublishedQuote(currency: currency, value: value, unit: Int(unit), direction: direction))
        }
        return QuoteReader(byProvider: byProvider, applying: batches)
    }

    func latestPublicationDay(of providers: Set<String>, onOrBefore day: Day?) throws -> Day? {
        try session.withConnection { statements in
            try statements.value(
                "SELECT MAX(day) FROM quote WHERE provider = ANY(\(Array(providers).sorted())) AND day <= \(day?.description ?? "9999-12-31")",
                as: String.self)
        }.flatMap(Day.init)
    }

    func publication(of provider: String, on day: Day) throws -> ProviderPublication? {
        try session.withConnection { statements in
            let quotes = try statements.rows(
                "SELECT currency, value, unit, direction FROM quote WHERE provider = \(provider) AND day = \(day.description) ORDER BY currency"
            ).compactMap { row -> PublishedQuote? in
                let (code, value, unit, directionText) = try row.decode((String, String, Int32, String).self)
                guard let currency = CurrencyCode(code), let direction = PublishedQuote.Direction(rawValue: directionText) else { return nil }
                return PublishedQuote(currency: currency, value: value, unit: Int(unit), direction: direction)
            }
            return quotes.isEmpty ? nil : ProviderPublication(day: day, quotes: quotes)
        }
    }

    func providerHoldings() throws -> [String: RatesStore.ProviderHoldings] {
        try session.transaction(readOnly: true) { statements in
            var holdings: [String: RatesStore.ProviderHoldings] = [:]
            for row in try statements.rows("SELECT provider, MIN(day), MAX(day), COUNT(DISTINCT day) FROM quote GROUP BY provider") {
                let (provider, firstText, latestText, count) = try row.decode((String, String, String, Int64).self)
                guard let first = Day(firstText), let latest = Day(latestText) else { continue }
                let currencies = try statements.rows(
                    "SELECT currency FROM quote WHERE provider = \(provider) AND day = \(latest.description) ORDER BY currency"
                ).compactMap { CurrencyCode(try $0.decode(String.self)) }
                holdings[provider] = RatesStore.ProviderHoldings(
                    firstDay: first, latestDay: latest, publicationCount: Int(count), latestCurrencies: currencies)
            }
            return holdings
        }
    }
}
