import RatesCore
import RatesUpstream

/// How the merge chooses among providers: precedence, how old a publication may be, and when a
/// value is too far from the others to be trusted.
public struct MergePolicy: Hashable, Sendable {
    /// One place in the precedence list.
    public enum Rank: Hashable, Sendable, ExpressibleByStringLiteral {
        /// The provider with this key (`"ECB"`); a string literal means this.
        case provider(String)
        /// For a currency C, the provider whose pivot is C: its own central bank (the NBP for PLN, the CBR for
        /// RUB). Where several providers have the pivot C (USD: FRED, BOJ, IMF), they keep their order
        /// from the rest of the list.
        case currencysOwnBank

        public init(stringLiteral key: String) { self = .provider(key) }
    }

    /// Who wins a currency: the first rank a candidate matches; candidates of providers the list does not
    /// name come after all named ones, by key.
    public var precedence: [Rank] { didSet { ranks = RankIndex(precedence) } }
    /// How many days old a publication may be and still count for a merged day: a provider's newest
    /// publication with a day in [D − carryForwardDays, D] counts for D, with its own day.
    public var carryForwardDays: Int
    /// How far from the median of the candidates a value may be and still count, as a fraction (0.05: 5%).
    public var consensusThreshold: Double
    /// How many providers must value a currency for the consensus check to apply.
    public var consensusMinimumProviders: Int
    /// How many days older than the freshest value of a currency another value may be and still take
    /// part (in the consensus check and the choice by precedence): 3, so that Friday's figures still
    /// meet Monday's, while a six-day-old figure of a higher tier no longer beats a same-day one.
    public var freshnessToleranceDays: Int
    /// The declared pegs that value a currency no provider values (``RatesCore/FixedParity/pegs``;
    /// none for an answer asked of some providers only).
    public var pegs: [FixedParity]
    /// Where each key, and the own bank, first stand in ``precedence``: a comparison is two lookups,
    /// not a walk along the list.
    private var ranks: RankIndex

    private struct RankIndex: Hashable, Sendable {
        var byKey: [String: Int] = [:]
        var ownBank: Int?
        let count: Int

        init(_ precedence: [Rank]) {
            count = precedence.count
            for (index, rank) in precedence.enumerated() {
                switch rank {
                case .provider(let key): byKey[key] = byKey[key] ?? index
                case .currencysOwnBank: ownBank = ownBank ?? index
                }
            }
        }
    }

    public init(
        precedence: [Rank] = MergePolicy.defaultPrecedence, carryForwardDays: Int = 7, consensusThreshold: Double = 0.05,
        consensusMinimumProviders: Int = 3, freshnessToleranceDays: Int = 3, pegs: [FixedParity] = FixedParity.pegs
    ) {
        self.precedence = precedence
        ranks = RankIndex(precedence)
        self.carryForwardDays = carryForwardDays
        self.consensusThreshold = consensusThreshold
        self.consensusMinimumProviders = consensusMinimumProviders
        self.freshnessToleranceDays = freshnessToleranceDays
        self.pegs = pegs
    }

    /// The defaults: ``defaultPrecedence``, 7 days of carry-forward, 5% from the median among 3 or more
    /// providers, 3 days of freshness tolerance, the declared pegs.
    public static let `default` = MergePolicy()

    /// The registry's order (``RatesUpstream/ProviderRegistry/entries``): the reference tier (the
    /// ECB) for its currencies; then the currency's own central bank; then the other tiers in
    /// turn — Banca d'Italia, the European central banks, those elsewhere, the USD-pivot series
    /// last — each in its order in the registry.
    public static let defaultPrecedence: [Rank] = {
        let ordered = ProviderRegistry.entries.enumerated().sorted { ($0.element.tier, $0.offset) < ($1.element.tier, $1.offset) }.map(\.element)
        let reference = ordered.prefix { $0.tier == .reference }
        return reference.map { .provider($0.key) } + [.currencysOwnBank] + ordered.dropFirst(reference.count).map { .provider($0.key) }
    }()

    /// How many days old a publication of `provider` may be and still count for a merged day: as
    /// long as its figures hold (``RatesUpstream/ProviderRegistry/validityDays``: a monthly source's
    /// month), else ``carryForwardDays``.
    public func validity(of provider: String) -> Int {
        ProviderRegistry.validityDays[provider] ?? carryForwardDays
    }

    /// Whether `candidate` comes before `other` for their currency: the first rank each matches, then
    /// (between two own banks) the place of their keys in the list, then the keys.
    func precedes(_ candidate: ProviderDay, _ other: ProviderDay, for currency: CurrencyCode) -> Bool {
        let left = (rank(of: candidate, for: currency), rank(of: candidate, for: nil), candidate.provider)
        let right = (rank(of: other, for: currency), rank(of: other, for: nil), other.provider)
        return left < right
    }

    /// The index of the first rank `publication` matches for `currency` (for `nil`, by key only); the
    /// list's length when none does.
    private func rank(of publication: ProviderDay, for currency: CurrencyCode?) -> Int {
        let byKey = ranks.byKey[publication.provider] ?? ranks.count
        guard let ownBank = ranks.ownBank, publication.pivot == currency else { return byKey }
        return min(byKey, ownBank)
    }
}
