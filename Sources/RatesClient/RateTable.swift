import Foundation
import RatesCore

/// One day's rates for a base currency, computed locally from the cache.
///
/// Values are exact: a rate from the provider's base (EUR) is the published text itself
/// (``RatesCore/RateValue/published(_:)``); any other base is a cross rate computed exactly and
/// rounded to 8 significant digits (``RatesCore/RateValue/computed(_:)``) — what the server computes.
///
/// Every rate is traceable: the server's dataset holds one value per currency and day, per EUR,
/// each from one official source; ``sources`` names the source of each value a rate is computed
/// from.
///
/// ```swift
/// if let table = try client.latest(base: CurrencyCode("USD")!, symbols: [.euro]) {
///     print(table.date, table[.euro]?.description ?? "-")   // 2026-10-30 0.89509488
/// }
/// ```
public struct RateTable: Sendable, Hashable {
    /// The publication day the rates come from.
    public var date: Day
    /// The day asked for, when it had no publication and the nearest earlier one (``date``) was used.
    public var requestedDate: Day?
    /// The currency the rates are relative to: one unit of it buys `rates[code]` of `code`.
    public var base: CurrencyCode
    /// Rate per currency.
    public var rates: [CurrencyCode: RateValue]
    /// Where the values behind the rates came from: for each currency of ``rates``, and for
    /// ``base``, the provider and that provider's own publication day of its value per EUR (a day
    /// before ``date`` when the provider had not published since; see ``RatesCore/RateSource``).
    /// The rate of `code` is its value divided by the base's, so both sources count. The euro has
    /// no entry: every value is per EUR. Empty while the cache holds rates from before the SDK
    /// kept sources, until the next sync brings them.
    ///
    /// ```swift
    /// if let source = table.sources[CurrencyCode("UAH")!] { print("UAH from \(source.provider), \(source.day)") }
    /// ```
    public var sources: [CurrencyCode: RateSource]

    /// Creates a table; the client builds these, tests may too.
    ///
    /// ```swift
    /// let table = RateTable(date: Day("2026-10-30")!, base: .euro, rates: [CurrencyCode("USD")!: .published("1.1172")])
    /// ```
    public init(
        date: Day, requestedDate: Day? = nil, base: CurrencyCode, rates: [CurrencyCode: RateValue], sources: [CurrencyCode: RateSource] = [:]
    ) {
        self.date = date
        self.requestedDate = requestedDate
        self.base = base
        self.rates = rates
        self.sources = sources
    }

    /// The rate for `code`, or `nil` when the table has none.
    ///
    /// ```swift
    /// let usd = table[CurrencyCode("USD")!]?.decimal
    /// ```
    public subscript(code: CurrencyCode) -> RateValue? { rates[code] }
}

/// The answer of ``RatesClient/convert(_:from:to:on:)``: `result = amount × rate`, exactly.
///
/// ```swift
/// let conversion = try client.convert(100, from: CurrencyCode("USD")!, to: .euro)
/// print("\(conversion.amount) USD = \(conversion.result) EUR on \(conversion.date)")
/// ```
public struct Conversion: Sendable, Hashable {
    /// The amount converted, in `from`.
    public var amount: Decimal
    /// The source currency.
    public var from: CurrencyCode
    /// The target currency.
    public var to: CurrencyCode
    /// The value of one unit of `from` in `to` (published text when `from` is the provider's base).
    public var rate: RateValue
    /// `amount × rate`, computed with `Decimal` and not rounded further.
    public var result: Decimal
    /// The publication day the rate comes from.
    public var date: Day
    /// The day asked for, when it had no publication and the nearest earlier one (``date``) was used.
    public var requestedDate: Day?
    /// Where the values behind ``rate`` came from: for ``from`` and ``to``, the provider and that
    /// provider's own publication day of the currency's value per EUR (``RateTable/sources``).
    /// The euro has no entry; empty while the cache holds rates from before the SDK kept sources.
    ///
    /// ```swift
    /// let uah = try client.convert(100, from: CurrencyCode("USD")!, to: CurrencyCode("UAH")!)
    /// print(uah.sources[uah.to].map { "from \($0.provider), \($0.day)" } ?? "")   // from NBU, 2026-03-02
    /// ```
    public var sources: [CurrencyCode: RateSource]

    /// Creates a conversion; the client builds these, tests may too.
    ///
    /// ```swift
    /// let c = Conversion(amount: 2, from: .euro, to: CurrencyCode("USD")!, rate: .published("1.1172"), result: 2.2344, date: Day("2026-10-30")!)
    /// ```
    public init(
        amount: Decimal, from: CurrencyCode, to: CurrencyCode, rate: RateValue, result: Decimal, date: Day, requestedDate: Day? = nil,
        sources: [CurrencyCode: RateSource] = [:]
    ) {
        self.amount = amount
        self.from = from
        self.to = to
        self.rate = rate
        self.result = result
        self.date = date
        self.requestedDate = requestedDate
        self.sources = sources
    }
}

/// How fresh the cache is, from ``RatesClient/status()``. Reading it never touches the network.
///
/// Two questions, two answers: ``isStale`` says whether a sync is worth doing now; ``isBehind``
/// says whether the cached rates are older than they should be — which a sync cannot fix while
/// the server itself is behind its source (``serverReportedStale``).
///
/// ```swift
/// let status = try client.status()
/// if status.isStale { _ = try await client.sync() }
/// if status.isBehind { banner.text = "Rates of \(status.latestDate?.description ?? "-") may be out of date" }
/// ```
public struct CacheStatus: Sendable, Hashable {
    /// When a sync last completed (every page applied, or the server said 304); `nil` if never.
    public var lastSuccessfulSync: Date?
    /// The newest publication day in the cache; `nil` when it is empty.
    public var latestDate: Day?
    /// The first publication day in the cache; `nil` when it is empty.
    public var firstDate: Day?
    /// When the server expects its next publication (as of the last sync); `nil` if never synced.
    public var nextUpdateAfter: Date?
    /// Whether a sync is worth doing: never synced, a sync was interrupted, or `now ≥ nextUpdateAfter`.
    public var isStale: Bool
    /// The server's dataset epoch the cache follows; changes when the server's database is rebuilt.
    public var epoch: String?
    /// Whether a multi-page snapshot was interrupted; the next sync resumes it (old data stays readable meanwhile).
    public var snapshotInProgress: Bool
    /// The oldest day the cache keeps (`Configuration.window`); `nil` for all history.
    public var window: Day?
    /// The newest publication that should be out by now: the ECB's publication schedule's by this
    /// device's clock, or the server's own expectation at the last sync when that is later.
    /// ``RatesClient/status()`` always sets it.
    public var expectedLatestDate: Day?
    /// The server's verdict on its own data at the last sync: `true` when a publication was
    /// missing there or its data was never confirmed by the upstream source. `nil` when never
    /// synced, or when the server does not say (servers older than this field).
    public var serverReportedStale: Bool?
    /// Whether the cached rates are older than they should be: nothing is cached, the server
    /// reported its data stale at the last sync, or ``latestDate`` is before ``expectedLatestDate``.
    public var isBehind: Bool
    /// Whether the cached rates are the bundled snapshot (``RatesClient/Configuration/bundledRates``),
    /// not yet replaced by a sync: ``latestDate`` is the snapshot's day, and ``isStale`` is `true`.
    public var isBundled: Bool

    /// Creates a status; the client builds these.
    ///
    /// ```swift
    /// let never = CacheStatus(isStale: true, isBehind: true)
    /// ```
    public init(
        lastSuccessfulSync: Date? = nil, latestDate: Day? = nil, firstDate: Day? = nil, nextUpdateAfter: Date? = nil,
        isStale: Bool, epoch: String? = nil, snapshotInProgress: Bool = false, window: Day? = nil, expectedLatestDate: Day? = nil,
        serverReportedStale: Bool? = nil, isBehind: Bool = false, isBundled: Bool = false
    ) {
        self.lastSuccessfulSync = lastSuccessfulSync
        self.latestDate = latestDate
        self.firstDate = firstDate
        self.nextUpdateAfter = nextUpdateAfter
        self.isStale = isStale
        self.epoch = epoch
        self.snapshotInProgress = snapshotInProgress
        self.window = window
        self.expectedLatestDate = expectedLatestDate
        self.serverReportedStale = serverReportedStale
        self.isBehind = isBehind
        self.isBundled = isBundled
    }
}
