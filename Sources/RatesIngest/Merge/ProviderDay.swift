import RatesCore
import RatesUpstream

/// One provider's publication of one day as the merge sees it: who published it, against
/// which currency, for which day, and the figures exactly as published.
public struct ProviderDay: Hashable, Sendable {
    /// The provider's key (`ECB`, `NBP`, …): what precedence lists and `providers=` name.
    public var provider: String
    /// The currency every figure is quoted against (PLN for the NBP, EUR for the ECB).
    public var pivot: CurrencyCode
    /// The provider's own day for these figures.
    public var day: Day
    /// The figures, at most one per currency, exactly as published.
    public var quotes: [PublishedQuote]
    /// Whether the provider publishes a day in parts (``RatesUpstream/RatesProvider/publishesInParts``):
    /// the merge then also takes, from its older publications, the currencies its newest lacks.
    public var inParts: Bool
    /// How many days after ``day`` its figures still count for a merged day; `nil`: the merge's carry-forward limit.
    public var validityDays: Int?
    /// Whether its figures go per EUR through the ECB even when it quotes EUR (``RatesUpstream/RatesProvider/bridgesThroughECB``).
    public var bridgesThroughECB: Bool
    /// The currencies the provider issues (``RatesUpstream/ProviderRegistry/Entry/issues``): for these its
    /// figures speak first after the reference tier's.
    public var issues: Set<CurrencyCode>

    /// - Parameter issues: The currencies the provider issues; `nil` for those the registry declares for `provider`.
    public init(
        provider: String, pivot: CurrencyCode, day: Day, quotes: [PublishedQuote], inParts: Bool = false, validityDays: Int? = nil,
        bridgesThroughECB: Bool = false, issues: Set<CurrencyCode>? = nil
    ) {
        self.provider = provider
        self.pivot = pivot
        self.day = day
        self.quotes = quotes
        self.inParts = inParts
        self.validityDays = validityDays
        self.bridgesThroughECB = bridgesThroughECB
        self.issues = issues ?? ProviderRegistry.issuedCurrencies[provider] ?? []
    }

    /// `publication` of `provider`.
    public init(_ publication: ProviderPublication, of provider: some RatesProvider) {
        self.init(
            provider: provider.key, pivot: provider.pivot, day: publication.day, quotes: publication.quotes, inParts: provider.publishesInParts,
            validityDays: provider.validityDays, bridgesThroughECB: provider.bridgesThroughECB)
    }

    /// The figure for `currency`, if this publication has one.
    public func quote(of currency: CurrencyCode) -> PublishedQuote? {
        quotes.first { $0.currency == currency }
    }
}
