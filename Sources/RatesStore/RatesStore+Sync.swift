import Foundation
import GRDB
import RatesCore

/// One page of the delta feed: what changed after a sequence number, coalesced per (day, currency).
public struct ChangePage: Sendable, Equatable {
    /// New or changed values: day → currency → rate text.
    public var upserts: [Day: [CurrencyCode: String]] = [:]
    /// Withdrawn values: day → currencies.
    public var deletes: [Day: [CurrencyCode]] = [:]
    /// Where each upserted value came from, when not from the ECB on that very day: day → currency → source.
    public var sources: [Day: [CurrencyCode: RateSource]] = [:]
    /// The sequence number this page brings a client up to.
    public var throughSequence: Int64
    /// Whether more changes follow this page.
    public var more: Bool
}

/// One page of the full state: complete days in ascending order.
public struct StatePage: Sendable, Equatable {
    public var days: [DailyRates]
    /// Whether more days follow the last one in this page.
    public var more: Bool
}

/// One row of the change log: a value set (or withdrawn, `value == nil`) at a sequence number.
public struct ChangeLogEntry: Sendable, Equatable {
    public var sequence: Int64
    public var day: Day
    public var currency: CurrencyCode
    /// The new rate text, or `nil` when the value was withdrawn.
    public var value: String?
    /// Where the value came from, when not from the ECB on that very day (`nil` too when withdrawn).
    public var source: RateSource?

    public init(sequence: Int64, day: Day, currency: CurrencyCode, value: String?, source: RateSource? = nil) {
        self.sequence = sequence
        self.day = day
        self.currency = currency
        self.value = value
        self.source = source
    }
}

extension RateSource {
    /// The source stored in a row's `provider` and `providerDay` columns for a value of `day`, or
    /// `nil` when it is the default: the ECB on that very day (or a row written before providers).
    static func stored(provider: String?, providerDay: String?, of day: Day) -> RateSource? {
        let provider = provider ?? ProviderKey.ecb
        let ownDay = providerDay.flatMap(Day.init) ?? day
        return provider == ProviderKey.ecb && ownDay == day ? nil : RateSource(provider: provider, day: ownDay)
    }
}

extension RatesStore {
    /// Every change logged after `sequence`, oldest first: what an in-memory copy at `sequence` lacks.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func changeLog(after sequence: Int64) throws -> [ChangeLogEntry] {
        try database.read { db in
            var entries: [ChangeLogEntry] = []
            let rows = try Row.fetchCursor(
                db, sql: "SELECT seq, day, currency, value, provider, providerDay FROM change WHERE seq > ? ORDER BY seq", arguments: [sequence])
            while let row = try rows.next() {
                guard let day = Day(row[1] as String), let currency = CurrencyCode(row[2] as String) else { continue }
                let value: String? = row[3]
                let source = value == nil ? nil : RateSource.stored(provider: row[4], providerDay: row[5], of: day)
                entries.append(ChangeLogEntry(sequence: row[0], day: day, currency: currency, value: value, source: source))
            }
            return entries
        }
    }

    /// Changes with a sequence number above `sequence` and at most `version`, for days on or after
    /// `from`, oldest first, at most `limit` change rows per page, coalesced so each (day, currency)
    /// appears once.
    ///
    /// Pinned to `version` (the dataset version the caller answers for), a page is the same
    /// whenever it is read, and its cursor (``ChangePage/throughSequence``) never runs ahead of
    /// or behind its rows, even while an ingest commits newer changes.
    /// - Throws: `DatabaseError` when the read fails.
    public func changes(after sequence: Int64, through version: Int64, from: Day?, limit: Int) throws -> ChangePage {
        try database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, day, currency, value, provider, providerDay FROM change
                    WHERE seq > ? AND seq <= ? AND day >= ? ORDER BY seq LIMIT ?
                    """,
                arguments: [sequence, version, from?.description ?? "", limit + 1])
            let more = rows.count > limit
            var latest: [Day: [CurrencyCode: Row]] = [:]
            for row in rows.prefix(limit) {
                guard let day = Day(row[1] as String), let currency = CurrencyCode(row[2] as String) else { continue }
                latest[day, default: [:]][currency] = row
            }
            var page = ChangePage(throughSequence: more ? rows[limit - 1][0] : version, more: more)
            for (day, values) in latest {
                for (currency, row) in values {
                    guard let value = row[3] as String? else {
                        page.deletes[day, default: []].append(currency)
                        continue
                    }
                    page.upserts[day, default: [:]][currency] = value
                    if let source = RateSource.stored(provider: row[4], providerDay: row[5], of: day) { page.sources[day, default: [:]][currency] = source }
                }
            }
            for day in page.deletes.keys { page.deletes[day]?.sort() }
            return page
        }
    }

    /// Complete days after `afterDay` (and on or after `from`) as they stood at dataset `version`,
    /// ascending, about `limit` values per page.
    ///
    /// Values changed after `version` are read back from the change log, so every page of a
    /// snapshot shows the same moment, the one its cursor names, however long the client takes
    /// to page through it and whatever is ingested meanwhile. A page always ends at a day
    /// boundary, so it may hold up to one day more than `limit` values.
    /// - Throws: `DatabaseError` when the read fails.
    public func state(asOf version: Int64, after afterDay: Day?, from: Day?, limit: Int) throws -> StatePage {
        try database.read { db in
            let lowerBound = max(afterDay.map { $0.adding(days: 1) } ?? Day(dayNumber: .min / 2), from ?? Day(dayNumber: .min / 2))
            let lower = afterDay == nil && from == nil ? "" : lowerBound.description
            // Nearly always nothing was logged after `version`, and the rate table is that state itself.
            let pinned = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM change WHERE seq > ?)", arguments: [version]) ?? false
            let source =
                pinned
                ? """
                WITH later (day, currency) AS (SELECT DISTINCT day, currency FROM change WHERE seq > :version AND day >= :lower),
                asOf (day, currency, value, provider, providerDay) AS (
                    SELECT day, currency, value, provider, providerDay FROM rate WHERE day >= :lower AND seq <= :version
                    UNION ALL
                    SELECT c.day, c.currency, c.value, c.provider, c.providerDay FROM later l JOIN change c
                        ON c.seq = (SELECT MAX(p.seq) FROM change p WHERE p.day = l.day AND p.currency = l.currency AND p.seq <= :version)
                    WHERE c.value IS NOT NULL)
                SELECT day, currency, value, provider, providerDay FROM asOf
                """
                : "SELECT day, currency, value, provider, providerDay FROM rate"
            let arguments: StatementArguments = ["version": version, "lower": lower]
            // The day holding the limit-th value: the page runs through the end of that day.
            let lastDay = try String.fetchOne(
                db, sql: "\(source) WHERE day >= :lower ORDER BY day LIMIT 1 OFFSET :offset",
                arguments: arguments + ["offset": max(limit - 1, 0)])
            let rows = try Row.fetchCursor(
                db, sql: "\(source) WHERE day >= :lower AND day <= :last ORDER BY day", arguments: arguments + ["last": lastDay ?? "9999-12-31"])
            var days: [DailyRates] = []
            while let row = try rows.next() {
                guard let day = Day(row[0] as String), let currency = CurrencyCode(row[1] as String) else { continue }
                if days.last?.day != day { days.append(DailyRates(day: day, rates: [:])) }
                days[days.count - 1].rates[currency] = row[2] as String
                if let source = RateSource.stored(provider: row[3], providerDay: row[4], of: day) { days[days.count - 1].sources[currency] = source }
            }
            let more = try lastDay.map { last in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (\(source) WHERE day > :last)", arguments: arguments + ["last": last]) ?? false
            } ?? false
            return StatePage(days: days, more: more)
        }
    }

    /// The lowest sequence number a cursor may hold: changes at or below it may have been compacted away.
    ///
    /// - Throws: `DatabaseError` when the read fails.
    public func retentionFloor() throws -> Int64 {
        try database.read { db in try Int64.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'retentionFloor'") ?? 0 }
    }

    /// Deletes every rate for days before `day`, logging each deletion as a tombstone, in one transaction.
    ///
    /// - Returns: The recorded run (`rowsChanged` is the number of values removed).
    /// - Throws: `DatabaseError` when the transaction fails; nothing is removed then.
    @discardableResult
    public func prune(before day: Day, now: Date = Date()) throws -> FetchRun {
        try database.write { db in
            var run = FetchRun(startedAt: now, source: .maintenance, file: "prune --before \(day)", outcome: .unchanged)
            try run.insert(db)
            try db.execute(
                sql: "INSERT INTO change (day, currency, value, fetchRunId) SELECT day, currency, NULL, ? FROM rate WHERE day < ? ORDER BY day, currency",
                arguments: [run.id, day.description])
            try db.execute(sql: "DELETE FROM rate WHERE day < ?", arguments: [day.description])
            run.rowsChanged = db.changesCount
            if run.rowsChanged > 0 {
                run.outcome = .updated
                try run.update(db)
            }
            return run
        }
    }
}
