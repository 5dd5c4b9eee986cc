import RatesCore

/// Who a source is and how its figures are taken: one row of ``ProviderRegistry/entries``, the one
/// table every source's facts are declared in.
///
/// `/v1/providers`, `/v2/providers`, docs/PROVIDERS.md (a test compares it), the merge's precedence
/// and what a fetch asks and checks all read these rows; an adapter (``RatesProvider``) keeps only
/// the requests it makes and the parser of its publisher's answers.
public struct ProviderIdentity: Sendable {
    /// Frankfurter's key for the source (`ECB`, `NBP`, `CBR`, …): what `providers=` names.
    public let key: String
    /// The publisher's name in English (`"National Bank of Poland"`).
    public let name: String
    /// ISO 3166 alpha-2 code of the publisher's country (`"EU"` for the ECB), or `nil` for a
    /// supranational body (the IMF, the BIS).
    public let country: String?
    /// Where it stands in the merge's precedence, before its place within the tier.
    public let tier: ProviderRegistry.Tier
    /// The currencies its publisher issues, as the central bank or monetary authority of the country
    /// or union that issues them (the NBP: PLN; the CBC: TWD, though it quotes per USD; the BCEAO:
    /// XOF; the ECB: EUR). Declared, never inferred from the pivot: for these currencies its figures
    /// come first after the reference tier's (docs/MERGE.md).
    public let issues: [CurrencyCode]
    /// The currency every figure is quoted against (PLN for the NBP, EUR for the ECB).
    public let pivot: CurrencyCode
    /// What its figures are, in the publisher's terms (`"official rate"`), or `"midpoint of the
    /// published buying and selling rates"` for a source that publishes no middle rate.
    public let rateType: String
    /// When a new publication is expected; its time zone is also the adapter's clock (``ProviderSource/today``).
    public let schedule: PublicationSchedule
    /// The base of its public endpoints, which the adapter's requests extend (a test server or a
    /// mirror replaces it: ``ProviderSource/baseURL``).
    public let baseURL: String
    /// The first day its figures may be dated: an answer holding an earlier day is rejected
    /// (``UpstreamDataError/dayOutOfRange(_:)``). ``ProviderValidation/firstDay`` (1999-01-04, the
    /// euro's first reference rates) unless the source's history starts earlier (the Bundesbank's
    /// Deutsche Mark since 1948).
    public let historyStart: Day
    /// Whether it needs an API key; such a provider is off unless one is configured.
    public let needsAPIKey: Bool
    /// How many days from its date a publication's figures stay current: 31 for a monthly source
    /// dated the first day of the month its figures are valid for, 92 for a quarterly one. `nil`:
    /// the merge's carry-forward limit, as for every daily source.
    public let validityDays: Int?
    /// Whether a day's figures come in several publications on their own cadences (the NBP's daily
    /// table A and Wednesday table B): a publication then adds to its day's stored figures instead of
    /// replacing them, and the merge takes each currency from the provider's newest publication that
    /// has it, within the carry-forward limit. `false`: each publication is the provider's whole word
    /// on its day, and a currency missing from it was withdrawn.
    public let publishesInParts: Bool
    /// Whether the merge expresses the source's figures per EUR through the ECB's rate of a currency
    /// both quote (USD first), as for a source that quotes no EUR, instead of through the source's own
    /// EUR figure: for a source whose EUR figure is not a market rate (the CBTT's is an average of few
    /// dealers' EUR deals, up to 18% from the ECB's, while its USD average is deep). On a day the ECB
    /// did not publish, such a source's figures are not used.
    public let bridgesThroughECB: Bool
    /// How far, as a factor either way, a figure may move from the source's previous one before a
    /// fetch is rejected whole as implausible; a fetch older than what is stored is rejected too
    /// (``ProviderValidation/checkContinuity(_:after:maxMove:)``). `nil`: no such check, implausible
    /// figures are left to the merge's consensus check, which leaves out one currency's value rather
    /// than the source's whole publication.
    public let maxRateMove: Double?

    /// The adapter that reads the source's answers.
    let adapterType: any RatesProvider.Type

    /// A row of the table: the adapter's type, the source's key and name, and its facts; what most
    /// sources share is the default.
    init(
        _ adapterType: any RatesProvider.Type, _ key: String, _ name: String, country: String?, _ tier: ProviderRegistry.Tier,
        issues: [String], pivot: String, rateType: String = "reference rate", schedule: PublicationSchedule, baseURL: String,
        historyStart: Day = ProviderValidation.firstDay, needsAPIKey: Bool = false, validityDays: Int? = nil, publishesInParts: Bool = false,
        bridgesThroughECB: Bool = false, maxRateMove: Double? = nil
    ) {
        self.adapterType = adapterType
        self.key = key
        self.name = name
        self.country = country
        self.tier = tier
        self.issues = issues.map { CurrencyCode($0)! }
        self.pivot = CurrencyCode(pivot)!
        self.rateType = rateType
        self.schedule = schedule
        self.baseURL = baseURL
        self.historyStart = historyStart
        self.needsAPIKey = needsAPIKey
        self.validityDays = validityDays
        self.publishesInParts = publishesInParts
        self.bridgesThroughECB = bridgesThroughECB
        self.maxRateMove = maxRateMove
    }
}

/// What an adapter is made with: its row of the table, where it sends its requests, its API key
/// and its clock.
public struct ProviderSource: Sendable {
    /// Its row of ``ProviderRegistry/entries``.
    public let identity: ProviderIdentity
    /// The base its requests extend: ``ProviderIdentity/baseURL`` unless replaced (a test server, a mirror).
    public let baseURL: String
    /// Its API key (a secret), empty for a source that needs none.
    public let apiKey: String
    /// Today's day where the source publishes: by default the system clock in its schedule's time
    /// zone; a test passes a fixed day.
    public let today: @Sendable () -> Day

    /// - Parameters:
    ///   - identity: The source's row.
    ///   - baseURL: Replaces the row's endpoint base; `nil` for the real one.
    ///   - apiKey: The source's API key, empty for none.
    ///   - today: A fixed clock (tests); `nil` for the system clock in the schedule's time zone.
    public init(identity: ProviderIdentity, baseURL: String? = nil, apiKey: String = "", today: (@Sendable () -> Day)? = nil) {
        self.identity = identity
        self.baseURL = baseURL ?? identity.baseURL
        self.apiKey = apiKey
        let schedule = identity.schedule
        self.today = today ?? { schedule.today() }
    }

    /// For a source with a second host: `host` while the table's base is used, the replaced base
    /// otherwise (a test server or a mirror serves every path under one base).
    public func base(otherwise host: String) -> String {
        baseURL == identity.baseURL ? host : baseURL
    }
}
