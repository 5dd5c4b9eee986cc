import Foundation
import RatesCore

extension RatesClient {
    // MARK: - Rate tables

    /// The newest cached rates for `base`, or `nil` when the cache is empty. No network.
    ///
    /// Like `GET /v1/latest`: without `symbols` every currency but `base`; with them exactly
    /// those. Throws ``RatesClientError/unknownCurrency(_:)`` or ``RatesClientError/noRate(_:on:)``
    /// when `base` or a symbol has no rate that day.
    ///
    /// ```swift
    /// let table = try client.latest(base: CurrencyCode("USD")!, symbols: [.euro, CurrencyCode("JPY")!])
    /// print(table?.date, table?[.euro])
    /// ```
    public func latest(base: CurrencyCode = .euro, symbols: [CurrencyCode]? = nil) throws -> RateTable? {
        guard let publication = try cache.latestPublication() else { return nil }
        return try table(publication, requested: nil, base: base, symbols: symbols)
    }

    /// The rates of `day`, or of the nearest earlier publication (weekends, holidays) with
    /// ``RateTable/requestedDate`` set; `nil` when the cache has nothing on or before `day`.
    ///
    /// ```swift
    /// let saturday = Day("2026-10-31")!
    /// let table = try client.rates(on: saturday)   // date 2026-10-30, requestedDate 2026-10-31
    /// ```
    public func rates(on day: Day, base: CurrencyCode = .euro, symbols: [CurrencyCode]? = nil) throws -> RateTable? {
        try checkNotFuture(day)
        guard let publication = try cache.publication(onOrBefore: day) else { return nil }
        return try table(publication, requested: day, base: base, symbols: symbols)
    }

    /// Every publication from `start` through `end` (inclusive) for `base`, by day.
    ///
    /// Days without a rate for `base` are left out. Throws when `start > end`, or when `base`
    /// or a symbol has no rate anywhere in the range.
    ///
    /// ```swift
    /// let series = try client.timeseries(from: Day("2026-10-01")!, through: Day("2026-10-30")!, symbols: [CurrencyCode("USD")!])
    /// for day in series.keys.sorted() { print(day, series[day]![CurrencyCode("USD")!]!) }
    /// ```
    public func timeseries(
        from start: Day, through end: Day, base: CurrencyCode = .euro, symbols: [CurrencyCode]? = nil
    ) throws -> [Day: [CurrencyCode: RateValue]] {
        guard start <= end else { throw RatesClientError.invalidRange(from: start, through: end) }
        guard try cache.dayRange() != nil else { throw RatesClientError.noData }
        let publications = try cache.publications(from: start, through: end)
        let seen = publications.reduce(into: Set<CurrencyCode>()) { $0.formUnion($1.rates.currencies) }
        if let code = RatesRules.firstMissing(base: base, symbols: symbols, isAvailable: seen.contains) {
            throw try unknown(code, orMissingOn: publications.last?.day ?? end)
        }
        var series: [Day: [CurrencyCode: RateValue]] = [:]
        for publication in publications where publication.rates.contains(base) {
            series[publication.day] = Dictionary(uniqueKeysWithValues: publication.rates.table(base: base, symbols: symbols).map { ($0.code, $0.rate) })
        }
        return series
    }

    // MARK: - Conversion

    /// Converts `amount` of `from` into `to` with the newest rates, or those of `day` (nearest
    /// earlier publication). `result = amount × rate`, exactly. No network; served from memory.
    ///
    /// Throws ``RatesClientError/noData`` on an empty cache,
    /// ``RatesClientError/dateBeforeData(requested:firstDate:)`` before the first cached day,
    /// ``RatesClientError/unknownCurrency(_:)`` / ``RatesClientError/noRate(_:on:)`` for a code
    /// without a rate that day.
    ///
    /// ```swift
    /// let c = try client.convert(100, from: CurrencyCode("USD")!, to: .euro, on: Day("2026-10-30"))
    /// print(c.rate, c.result)   // 0.89509488 89.509488
    /// ```
    public func convert(_ amount: Decimal, from: CurrencyCode, to: CurrencyCode, on day: Day? = nil) throws -> Conversion {
        if let day { try checkNotFuture(day) }
        guard let (publication, found) = try cache.rate(on: day, from: from, to: to) else {
            guard let day, let first = try cache.dayRange()?.lowerBound else { throw RatesClientError.noData }
            throw RatesClientError.dateBeforeData(requested: day, firstDate: first)
        }
        guard let rate = found else {
            let missing = publication.rates.contains(from) ? to : from
            throw try unknown(missing, orMissingOn: publication.day)
        }
        return Conversion(
            amount: amount, from: from, to: to, rate: rate, result: rate.decimal * amount, date: publication.day,
            requestedDate: day == publication.day ? nil : day, sources: publication.sources(of: [from, to]))
    }

    /// Every currency with a rate in the cache, the provider's base included, with its ISO 4217
    /// English name (the code itself when ISO 4217 does not list it). Empty when never synced.
    ///
    /// ```swift
    /// let names = try client.currencies()
    /// print(names[CurrencyCode("JPY")!] ?? "?")   // Yen
    /// ```
    public func currencies() throws -> [CurrencyCode: String] {
        guard try cache.dayRange() != nil else { return [:] }
        let codes = try cache.currencies().union([cache.base()])
        return Dictionary(uniqueKeysWithValues: codes.map { ($0, $0.name ?? $0.rawValue) })
    }

    // MARK: - Helpers

    /// A table by the same rules as the server's answers (``RatesCore/RatesRules``): every currency but `base`, or exactly `symbols`.
    func table(_ publication: RatesCache.Publication, requested: Day?, base: CurrencyCode, symbols: [CurrencyCode]?) throws -> RateTable {
        try Self.table(publication, requested: requested, base: base, symbols: symbols) { code throws in
            try self.unknown(code, orMissingOn: publication.day)
        }
    }

    static func table(
        _ publication: RatesCache.Publication, requested: Day?, base: CurrencyCode, symbols: [CurrencyCode]?,
        missing: (CurrencyCode) throws -> RatesClientError
    ) throws -> RateTable {
        if let code = RatesRules.firstMissing(base: base, symbols: symbols, isAvailable: publication.rates.contains) { throw try missing(code) }
        let rates = Dictionary(uniqueKeysWithValues: publication.rates.table(base: base, symbols: symbols).map { ($0.code, $0.rate) })
        return RateTable(
            date: publication.day, requestedDate: requested == publication.day ? nil : requested, base: base, rates: rates,
            sources: publication.sources(of: rates.keys + [base]))
    }

    /// ``RatesClientError/noRate(_:on:)`` when `code` is elsewhere in the cache, else ``RatesClientError/unknownCurrency(_:)``.
    func unknown(_ code: CurrencyCode, orMissingOn day: Day) throws -> RatesClientError {
        try cache.currencies().contains(code) || code == cache.base() ? .noRate(code, on: day) : .unknownCurrency(code)
    }

    /// Rejects a day that has not begun anywhere on Earth (UTC+14).
    func checkNotFuture(_ day: Day) throws {
        if day > Day(containing: now(), utcOffset: 14 * 3600) { throw RatesClientError.dateInFuture(day) }
    }
}
