import RatesCore
import RatesStore
import RatesUpstream

/// The providers' quotes as published, for answers the merged dataset alone cannot give: rates
/// computed from some providers only (`providers=`), and the published figure behind a served
/// value (`expand=sources`).
///
/// Both read the store (the in-memory dataset holds merged values only), so such answers are
/// built by the application, never on the event loop, and cached per dataset version like any other.
public struct ProviderQuotes: Sendable {
    /// Where the quotes are read.
    public let store: RatesStore
    let policy: MergePolicy

    public init(store: RatesStore, policy: MergePolicy = .default) {
        self.store = store
        self.policy = policy
    }

    /// The dataset of `dataset`'s epoch and version computed from the quotes of `providers` only,
    /// by the same merge as the full one: the days from the newest publication of `providers` on or
    /// before `start` through `end`. An ECB quote bridges a provider that quotes no EUR, as in the full merge.
    ///
    /// - Throws: `DatabaseError` when the store cannot be read.
    public func dataset(of providers: Set<String>, from start: Day, through end: Day, like dataset: RatesSnapshot) throws -> RatesSnapshot {
        let first = try store.latestPublicationDay(of: providers, onOrBefore: start) ?? start
        guard first <= end else { return RatesSnapshot(epoch: dataset.epoch, version: dataset.version, days: [], base: dataset.base) }
        let reader = try store.quotes(
            from: first.adding(days: -policy.carryForwardDays), through: end, providers: providers.union([ProviderKey.ecb]))
        let keys = providers.sorted()
        let days = reader.publicationDays(of: providers).filter { $0 >= first && $0 <= end }.compactMap { day in
            Ingestor.mergedDay(day, of: keys, reader: reader, policy: policy).rates.map {
                DayTable(day: $0.day, rates: $0.rates, sources: $0.sources)
            }
        }
        return RatesSnapshot(epoch: dataset.epoch, version: dataset.version, days: days, base: dataset.base)
    }

    /// The figure `source` published that a value of `currency` comes from: its quote of `currency`,
    /// or for the provider's own pivot currency its quote of EUR (which prices the pivot); `nil`
    /// when the store no longer holds it.
    ///
    /// - Throws: `DatabaseError` when the store cannot be read.
    public func publishedFigure(of currency: CurrencyCode, from source: RateSource) throws -> PublishedFigure? {
        guard let publication = try store.publication(of: source.provider, on: source.day) else { return nil }
        let pivot = ProviderRegistry.entry(source.provider)?.pivot ?? .euro
        let quote = publication.quotes.first { $0.currency == currency } ?? (currency == pivot ? publication.quotes.first { $0.currency == .euro } : nil)
        return quote.map { PublishedFigure(quote: $0, pivot: pivot) }
    }
}

/// One figure exactly as a provider published it, with the currency it is quoted against.
public struct PublishedFigure: Hashable, Sendable {
    /// The figure: currency, decimal text, unit and direction.
    public var quote: PublishedQuote
    /// The provider's pivot currency.
    public var pivot: CurrencyCode
}
