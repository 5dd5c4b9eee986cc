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
    /// before `start` through `end`. An ECB quote bridges a provider that quotes no EUR, as in the full
    /// merge; no peg is added.
    ///
    /// - Throws: `DatabaseError` when the store cannot be read.
    public func dataset(of providers: Set<String>, from start: Day, through end: Day, like dataset: RatesSnapshot) throws -> RatesSnapshot {
        let first = try store.latestPublicationDay(of: providers, onOrBefore: start) ?? start
        guard first <= end else { return RatesSnapshot(epoch: dataset.epoch, version: dataset.version, days: [], base: dataset.base) }
        let span = QuoteReader.Span(from: first.adding(days: -policy.carryForwardDays), through: end, validity: ProviderRegistry.validityDays)
        let reader = try store.quotes(span, providers: providers.union([ProviderKey.ecb]))
        var policy = policy
        policy.pegs = []  // the providers' own figures only
        let keys = Ingestor.MergedProvider.all(providers.sorted(), policy: policy)
        let days = reader.publicationDays(of: providers).filter { $0 >= first && $0 <= end }.compactMap { day in
            Ingestor.mergedDay(day, of: keys, reader: reader, policy: policy).rates.map {
                DayTable(day: $0.day, rates: $0.rates, sources: $0.sources)
            }
        }
        return RatesSnapshot(epoch: dataset.epoch, version: dataset.version, days: days, base: dataset.base)
    }

    /// The figure `source` published that a value of `currency` comes from: its quote of `currency`,
    /// or for the provider's own pivot currency its quote of EUR (which prices the pivot) or the
    /// pivot's fixed rate to the euro; for a peg's value, the declared peg. `nil` when the store no
    /// longer holds it.
    ///
    /// - Throws: `DatabaseError` when the store cannot be read.
    public func publishedFigure(of currency: CurrencyCode, from source: RateSource) throws -> PublishedFigure? {
        if source.provider == FixedParity.pegProvider {
            return FixedParity.peg(of: currency).map { PublishedFigure(quote: $0.quote, pivot: $0.anchor, parity: $0) }
        }
        guard let publication = try store.publication(of: source.provider, on: source.day) else { return nil }
        let pivot = ProviderRegistry.entry(source.provider)?.pivot ?? .euro
        if let quote = publication.quotes.first(where: { $0.currency == currency }) { return PublishedFigure(quote: quote, pivot: pivot) }
        guard currency == pivot else { return nil }
        if let euro = publication.quotes.first(where: { $0.currency == .euro }) { return PublishedFigure(quote: euro, pivot: pivot) }
        return FixedParity.perEuro(pivot).map { PublishedFigure(quote: $0.quote, pivot: .euro, parity: $0) }
    }
}

/// One figure exactly as a provider published it, with the currency it is quoted against.
public struct PublishedFigure: Hashable, Sendable {
    /// The figure: currency, decimal text, unit and direction.
    public var quote: PublishedQuote
    /// The provider's pivot currency (a peg's anchor).
    public var pivot: CurrencyCode
    /// The fixed rate the figure is, for a peg or a conversion rate to the euro: its authority and the day it holds from.
    public var parity: FixedParity?

    public init(quote: PublishedQuote, pivot: CurrencyCode, parity: FixedParity? = nil) {
        self.quote = quote
        self.pivot = pivot
        self.parity = parity
    }
}
