import RatesCore
import RatesUpstream

/// How the merge chooses among providers: precedence, how old a publication may be, and when a
/// value is too far from the others to be trusted.
public struct MergePolicy: Hashable, Sendable {
    /// One place in the precedence list.
    public enum Rank: Hashable, Sendable, ExpressibleByStringLiteral {
        /// The provider with this key (`"ECB"`); a string literal means this.
        case provider(String)
        /// For a currency C, the providers that issue C (``ProviderDay/issues``: the NBP for PLN, the
        /// CBC for TWD though it quotes per USD). Where several do, they keep their order from the rest of the list.
        case issuer
        /// For a currency C, its declared peg (``pegs``): the anchor's merged value times the declared rate.
        case peg

        public init(stringLiteral key: String) { self = .provider(key) }
    }

    /// Who wins a currency: the first rank a candidate matches; candidates of providers the list does not
    /// name come after all named ones, by key, and a peg the list does not place after those.
    ///
    /// The ranks up to and including ``Rank/issuer`` **speak for** the currency: their figures are
    /// judged by ``consensusThreshold`` only (an inverted or shifted quote), and never demoted by the
    /// rank a source earns (``rankingBound``). Every other source is judged by the same-day spread
    /// and by its standing.
    public var precedence: [Rank] { didSet { ranks = RankIndex(precedence) } }
    /// How many days old a publication may be and still count for a merged day: a provider's newest
    /// publication with a day in [D − carryForwardDays, D] counts for D, with its own day.
    public var carryForwardDays: Int
    /// How far from the median of the same-day values a value of a source that speaks for the
    /// currency (the ECB, the issuer) may be before it is flagged, as a fraction (0.05: 5%): only an
    /// inverted or shifted quote is that far.
    public var consensusThreshold: Double
    /// How far from the median any other source's value may be before it is flagged: 3 robust standard
    /// deviations of the same-day values (1.4826 × their median absolute deviation), but never less
    /// than the first bound nor more than the second (0.75% and 1%): figures fixed a few hours apart
    /// differ by up to about 1% when a currency moves.
    public var consensusSpreadBounds: ClosedRange<Double>
    /// How many providers must value a currency for the consensus check to apply.
    public var consensusMinimumProviders: Int
    /// How far a source's figures for a currency may typically sit from the same-day figures of the
    /// others (``SourceStanding``) before it ranks below every source that does not, for that
    /// currency: 0.01 (1%).
    public var rankingBound: Double
    /// How many days older than the freshest value of a currency another value may be and still take
    /// part (in the consensus check and the choice by precedence): 3, so that Friday's figures still
    /// meet Monday's, while a six-day-old figure of a higher tier no longer beats a same-day one.
    public var freshnessToleranceDays: Int
    /// The declared pegs (``RatesCore/FixedParity/pegs``; none for an answer asked of some providers only).
    public var pegs: [FixedParity]
    /// Where each key, the issuer and the peg first stand in ``precedence``: a comparison is a few
    /// lookups, not a walk along the list.
    fileprivate var ranks: RankIndex

    fileprivate struct RankIndex: Hashable, Sendable {
        var byKey: [String: Int] = [:]
        var issuer: Int?
        var peg: Int?
        let count: Int

        init(_ precedence: [Rank]) {
            count = precedence.count
            for (index, rank) in precedence.enumerated() {
                switch rank {
                case .provider(let key): byKey[key] = byKey[key] ?? index
                case .issuer: issuer = issuer ?? index
                case .peg: peg = peg ?? index
                }
            }
        }
    }

    public init(
        precedence: [Rank] = MergePolicy.defaultPrecedence, carryForwardDays: Int = 7, consensusThreshold: Double = 0.05,
        consensusSpreadBounds: ClosedRange<Double> = 0.0075...0.01, consensusMinimumProviders: Int = 3, rankingBound: Double = 0.01,
        freshnessToleranceDays: Int = 3, pegs: [FixedParity] = FixedParity.pegs
    ) {
        self.precedence = precedence
        ranks = RankIndex(precedence)
        self.carryForwardDays = carryForwardDays
        self.consensusThreshold = consensusThreshold
        self.consensusSpreadBounds = consensusSpreadBounds
        self.consensusMinimumProviders = consensusMinimumProviders
        self.rankingBound = rankingBound
        self.freshnessToleranceDays = freshnessToleranceDays
        self.pegs = pegs
    }

    /// The defaults: ``defaultPrecedence``, 7 days of carry-forward, 5% from the median for the sources
    /// that speak for a currency and 0.75–1% for the others among 3 or more providers, a 1% ranking
    /// bound, 3 days of freshness tolerance, the declared pegs.
    public static let `default` = MergePolicy()

    /// The registry's order (``RatesUpstream/ProviderRegistry/entries``): the reference tier (the
    /// ECB) for its currencies; then the currency's issuer; then its declared peg; then the other
    /// tiers in turn — Banca d'Italia, the European central banks, those elsewhere, the USD-pivot
    /// series, history, the periodic figures — each in its order in the registry.
    public static let defaultPrecedence: [Rank] = {
        let ordered = ProviderRegistry.entries.enumerated().sorted { ($0.element.tier, $0.offset) < ($1.element.tier, $1.offset) }.map(\.element)
        let reference = ordered.prefix { $0.tier == .reference }
        return reference.map { .provider($0.key) } + [.issuer, .peg] + ordered.dropFirst(reference.count).map { .provider($0.key) }
    }()

    /// How many days old a publication of `provider` may be and still count for a merged day: as
    /// long as its figures hold (``RatesUpstream/ProviderRegistry/validityDays``: a monthly source's
    /// month), else ``carryForwardDays``.
    public func validity(of provider: String) -> Int {
        ProviderRegistry.validityDays[provider] ?? carryForwardDays
    }

    /// Where `provider` stands for `currency`: the index of the first rank it matches (the list's
    /// length when none does), and whether that rank speaks for the currency (it is at or before
    /// ``Rank/issuer``). `issues` are the currencies the provider issues.
    func place(of provider: String, issues: Set<CurrencyCode>, for currency: CurrencyCode) -> (rank: Int, speaksFor: Bool) {
        place(keyRank: keyRank(of: provider), issues: issues, for: currency)
    }

    /// ``place(of:issues:for:)`` of a provider whose ``keyRank(of:)`` is known: a merge looks it up once per
    /// publication, not once per figure.
    func place(keyRank: Int, issues: Set<CurrencyCode>, for currency: CurrencyCode) -> (rank: Int, speaksFor: Bool) {
        var rank = keyRank
        if let issuer = ranks.issuer, issues.contains(currency) { rank = min(rank, issuer) }
        return (rank, ranks.issuer.map { rank <= $0 } ?? false)
    }

    /// Whether a source ranks below every source that is not, for a currency: it does not speak for the
    /// currency and its figures typically sit further than ``rankingBound`` from the others' (`measure`,
    /// read only then).
    func demotes(_ measure: @autoclosure () -> SourceStanding.Measure?, speaksFor: Bool) -> Bool {
        !speaksFor && (measure()?.deviation ?? 0) > rankingBound
    }

    /// Where a peg stands: its place in the list, or after every provider when the list has none.
    var pegRank: Int { ranks.peg ?? ranks.count + 1 }

    /// The place of `provider`'s key in the list, the tie-break between two providers of one rank (two issuers).
    func keyRank(of provider: String) -> Int { ranks.byKey[provider] ?? ranks.count }
}

extension MergePolicy {
    /// Why a value of a provider serves a currency: the rank that put it first.
    public enum Precedence: String, Sendable {
        /// A rank before the issuer's (the ECB for the currencies it publishes).
        case reference
        /// The currency's issuer.
        case issuer
        /// The currency's declared peg.
        case peg
        /// Another source, by its tier and the rank it earned for the currency.
        case rank
    }

    /// The rank that puts a value of `provider` (which issues `issues`) first for `currency`.
    public func precedence(of provider: String, issues: Set<CurrencyCode>, for currency: CurrencyCode) -> Precedence {
        if provider == FixedParity.pegProvider { return .peg }
        let found = place(of: provider, issues: issues, for: currency)
        guard found.speaksFor else { return .rank }
        return found.rank == ranks.issuer ? .issuer : .reference
    }
}
