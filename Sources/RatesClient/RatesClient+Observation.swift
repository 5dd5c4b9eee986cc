import Dispatch
import GRDB
import RatesCore

extension RatesClient {
    /// The latest rate table for `base`, now and after every cache change that alters it.
    ///
    /// The stream yields the current table first (`nil` while the cache is empty), then once
    /// per sync that changes it — a change to an older day, or to a currency outside
    /// `symbols`, yields nothing. A consumer slower than the changes gets the newest table.
    /// It finishes with an error when `base` or a symbol has no rate on the latest day.
    /// Stop observing by ending the iteration (or cancelling its task). With
    /// ``Configuration/autoRefresh`` the client also keeps the cache fresh while any
    /// observation runs (see ``run(onSync:)``).
    ///
    /// Only writes made by this client are observed (a sync by another process sharing the
    /// file is not).
    ///
    /// ```swift
    /// for try await table in client.observe(base: CurrencyCode("USD")!, symbols: [.euro]) {
    ///     label.text = table.map { "1 USD = \($0[.euro]!) EUR (\($0.date))" } ?? "no rates yet"
    /// }
    /// ```
    public func observe(base: CurrencyCode = .euro, symbols: [CurrencyCode]? = nil) -> AsyncThrowingStream<RateTable?, any Error> {
        // An explicit region — all of `rate` and `syncState` — rather than the one recorded from the
        // fetch: recording it from `MAX(day)` alone missed the first snapshot into an empty cache.
        let observation = ValueObservation.tracking(region: Table("rate"), Table("syncState")) { db -> RateTable? in
            guard let publication = try RatesCache.latestPublication(db) else { return nil }
            return try Self.table(publication, requested: nil, base: base, symbols: symbols) { code in
                let known = try FixedParity.peg(of: code) != nil
                    || Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM rate WHERE currency = ?)", arguments: [code.rawValue]) ?? false
                return known || code == publication.rates.providerBase ? .noRate(code, on: publication.day) : .unknownCurrency(code)
            }
        }.removeDuplicates()
        let lease = configuration.autoRefresh ? refreshLeases.acquire(self) : nil
        let pool = cache.pool
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let cancellable = observation.start(
                in: pool, scheduling: .async(onQueue: DispatchQueue(label: "RatesClient.observe")),
                onError: { error in continuation.finish(throwing: error) },
                onChange: { table in continuation.yield(table) })
            continuation.onTermination = { _ in
                cancellable.cancel()
                lease?.release()
            }
        }
    }
}
