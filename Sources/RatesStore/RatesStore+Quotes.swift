import GRDB
import RatesCore
import Synchronization

/// Reads of the providers' quotes as published, for answers that need more than the merged
/// table: an answer computed from some providers only, the published figure behind a value,
/// and each provider's holdings in `/v1/providers`.
extension RatesStore {
    /// What the store holds of one provider.
    public struct ProviderHoldings: Sendable, Equatable {
        /// Its first and newest stored publication days.
        public var firstDay: Day
        public var latestDay: Day
        /// How many publications are stored.
        public var publicationCount: Int
        /// The currencies of its newest publication, in code order.
        public var latestCurrencies: [CurrencyCode]
    }

    /// The quotes of the days from `start` through `end`, of `providers` only when given.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func quotes(from start: Day, through end: Day, providers: Set<String>? = nil) throws -> QuoteReader {
        try database.read { db in try QuoteReader(db, from: start, through: end, providers: providers) }
    }

    /// The newest day on or before `day` that one of `providers` published, or `nil` when none did.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func latestPublicationDay(of providers: Set<String>, onOrBefore day: Day) throws -> Day? {
        guard !providers.isEmpty else { return nil }
        return try database.read { db in
            try String.fetchOne(
                db, sql: "SELECT MAX(day) FROM quote WHERE day <= ? AND provider IN (\(databaseQuestionMarks(count: providers.count)))",
                arguments: [day.description] + StatementArguments(providers.sorted())
            ).flatMap(Day.init)
        }
    }

    /// `provider`'s publication of `day`, or `nil` when it has none stored for that day.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func publication(of provider: String, on day: Day) throws -> ProviderPublication? {
        try database.read { db in try Self.publication(of: provider, on: day, db) }
    }

    /// The day of `provider`'s newest stored publication, or `nil` when it has none.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func latestPublicationDay(of provider: String) throws -> Day? {
        try database.read { db in try Self.latestPublicationDay(of: provider, db) }
    }

    /// `provider`'s newest stored publication, or `nil` when it has none.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func latestPublication(of provider: String) throws -> ProviderPublication? {
        try database.read { db in
            guard let day = try Self.latestPublicationDay(of: provider, db) else { return nil }
            return try Self.publication(of: provider, on: day, db)
        }
    }

    private static func latestPublicationDay(of provider: String, _ db: Database) throws -> Day? {
        try String.fetchOne(db, sql: "SELECT MAX(day) FROM quote WHERE provider = ?", arguments: [provider]).flatMap(Day.init)
    }

    private static func publication(of provider: String, on day: Day, _ db: Database) throws -> ProviderPublication? {
        var quotes: [PublishedQuote] = []
        let rows = try Row.fetchCursor(
            db, sql: "SELECT currency, value, unit, direction FROM quote WHERE provider = ? AND day = ? ORDER BY currency",
            arguments: [provider, day.description])
        while let row = try rows.next() {
            guard let currency = CurrencyCode(row[0] as String), let direction = PublishedQuote.Direction(rawValue: row[3]) else { continue }
            quotes.append(PublishedQuote(currency: currency, value: row[1], unit: row[2], direction: direction))
        }
        return quotes.isEmpty ? nil : ProviderPublication(day: day, quotes: quotes)
    }

    /// What the store holds of each provider with quotes, by key.
    ///
    /// Counting reads every quote, so the answer is kept until the next recorded run: every ingest,
    /// import and prune records one in the transaction that writes its quotes, whichever process writes.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func providerHoldings() throws -> [String: ProviderHoldings] {
        try database.read { db in
            let run = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM fetchRun") ?? 0
            if let cached = holdingsCache.withLock({ $0 }), cached.run == run { return cached.holdings }
            var holdings: [String: ProviderHoldings] = [:]
            let rows = try Row.fetchAll(db, sql: "SELECT provider, MIN(day), MAX(day), COUNT(DISTINCT day) FROM quote GROUP BY provider")
            for row in rows {
                guard let first = Day(row[1] as String), let latest = Day(row[2] as String) else { continue }
                let provider: String = row[0]
                let currencies = try String.fetchAll(
                    db, sql: "SELECT currency FROM quote WHERE provider = ? AND day = ? ORDER BY currency", arguments: [provider, latest.description])
                holdings[provider] = ProviderHoldings(
                    firstDay: first, latestDay: latest, publicationCount: row[3], latestCurrencies: currencies.compactMap(CurrencyCode.init))
            }
            holdingsCache.withLock { $0 = (run, holdings) }
            return holdings
        }
    }
}
