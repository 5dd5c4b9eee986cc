import RatesCore

/// Every source, by its key (Frankfurter's: `ECB`, `NBP`, …): the one list of sources.
///
/// Everything else that needs the sources derives from ``entries``: the merge's precedence (each
/// entry's ``Tier``, then its place in the list), what a server fetches, `/v1/providers`, the
/// metrics' labels, and the schedule the merged dataset's freshness follows (``referenceSchedule``);
/// a test checks docs/PROVIDERS.md against it. Adding a source is its adapter, its recordings, its
/// tests and one entry here (docs/NEW_PROVIDER.md).
///
/// FRED, BANXICO, BOT, BAM and BCCH need an API key: without one they are off (``select(enabled:apiKeys:)``)
/// and ``make(key:baseURL:apiKey:)`` refuses them; reading their answers needs none (``Entry/identity``).
public enum ProviderRegistry {
    /// Where a source stands in the merge's precedence, before its place within the tier.
    ///
    /// For a currency, the first tier wins; the currency's issuer (``Entry/issues``) and then its
    /// declared peg come right after ``reference``, whatever the issuer's own tier; a source whose
    /// figures for a currency are typically far from the others' ranks below every source that is
    /// not (docs/MERGE.md).
    public enum Tier: Int, Comparable, Sendable {
        /// The ECB's euro reference rates: first for every currency it quotes.
        case reference
        /// Banca d'Italia: about 150 currencies per EUR, fixed from the same ECB concertation.
        case broad
        /// Other European central banks, whose daily fixings are taken around the ECB's 14:15 CET
        /// concertation and quote EUR themselves.
        case europe
        /// Central banks elsewhere.
        case elsewhere
        /// USD-pivot series: they price other currencies only through the dollar or with a lag.
        case dollarSeries
        /// Sources of retired currencies' history (the Bundesbank's DEM since 1948): the days before
        /// the euro, and currencies no daily source quotes any more.
        case historical
        /// Monthly and quarterly figures (HMRC, the US Treasury, the BIS), served for the period they
        /// are valid for: below every daily figure.
        case periodic
        /// Declared fixed parities (pegs): last, and never in the consensus check.
        case peg

        public static func < (left: Tier, right: Tier) -> Bool { left.rawValue < right.rawValue }
    }

    /// One adapter the registry knows.
    public struct Entry: Sendable {
        /// Frankfurter's key for it.
        public let key: String
        /// Its tier in the merge's precedence.
        public let tier: Tier
        /// The currencies its publisher issues, as the central bank or monetary authority of the
        /// country or union that issues them (the NBP: PLN; the CBC: TWD, though it quotes per USD;
        /// the BCEAO: XOF; the ECB: EUR). Declared, never inferred from the pivot: for these
        /// currencies its figures come first after the reference tier's (docs/MERGE.md).
        public let issues: [CurrencyCode]
        /// Whether it needs an API key (and is off without one).
        public let needsAPIKey: Bool
        /// Makes the adapter; `apiKey` is non-nil whenever `needsAPIKey`.
        let make: @Sendable (_ baseURL: String?, _ apiKey: String?) -> any RatesProvider

        /// The adapter with its default endpoints and no API key: who publishes, against which currency,
        /// when. Made once with the entry: the merge reads it for every provider of every day it computes.
        public let identity: any RatesProvider

        /// The currency its figures are quoted against.
        public var pivot: CurrencyCode { identity.pivot }

        /// ``RatesProvider/publishesInParts``.
        public var publishesInParts: Bool { identity.publishesInParts }

        init(
            _ key: String, _ tier: Tier, issues: [String], needsAPIKey: Bool = false,
            _ make: @escaping @Sendable (_ baseURL: String?, _ apiKey: String?) -> any RatesProvider
        ) {
            self.key = key
            self.tier = tier
            self.issues = issues.map { CurrencyCode($0)! }
            self.needsAPIKey = needsAPIKey
            self.make = make
            self.identity = make(nil, nil)
        }
    }

    /// Every source, tier by tier, in the order of precedence within each (also the order of listing and fetching).
    public static let entries: [Entry] = [
        Entry("ECB", .reference, issues: ["EUR"]) { url, _ in ECBProvider(baseURL: url) },
        Entry("BDI", .broad, issues: []) { url, _ in BDIProvider(baseURL: url) },
        Entry("NBP", .europe, issues: ["PLN"]) { url, _ in NBPProvider(baseURL: url) },
        Entry("CNB", .europe, issues: ["CZK"]) { url, _ in CNBProvider(baseURL: url) },
        Entry("DNB", .europe, issues: ["DKK"]) { url, _ in DNBProvider(baseURL: url) },
        Entry("NB", .europe, issues: ["NOK"]) { url, _ in NBProvider(baseURL: url) },
        Entry("RB", .europe, issues: ["SEK"]) { url, _ in RBProvider(baseURL: url) },
        Entry("MNB", .europe, issues: ["HUF"]) { url, _ in MNBProvider(baseURL: url) },
        Entry("BNR", .europe, issues: ["RON"]) { url, _ in BNRProvider(baseURL: url) },
        Entry("SBI", .europe, issues: ["ISK"]) { url, _ in SBIProvider(baseURL: url) },
        Entry("NBU", .europe, issues: ["UAH"]) { url, _ in NBUProvider(baseURL: url) },
        Entry("NBRB", .europe, issues: ["BYN"]) { url, _ in NBRBProvider(baseURL: url) },
        Entry("CBR", .europe, issues: ["RUB"]) { url, _ in CBRProvider(baseURL: url) },
        Entry("TCMB", .europe, issues: ["TRY"]) { url, _ in TCMBProvider(baseURL: url) },
        Entry("NBG", .europe, issues: ["GEL"]) { url, _ in NBGProvider(baseURL: url) },
        Entry("BOE", .europe, issues: ["GBP"]) { url, _ in BOEProvider(baseURL: url) },
        Entry("NBRM", .europe, issues: ["MKD"]) { url, _ in NBRMProvider(baseURL: url) },
        Entry("CBBH", .europe, issues: ["BAM"]) { url, _ in CBBHProvider(baseURL: url) },
        Entry("BNB", .europe, issues: ["BGN"]) { url, _ in BNBProvider(baseURL: url) },
        Entry("NBM", .europe, issues: ["MDL"]) { url, _ in NBMProvider(baseURL: url) },
        Entry("BSH", .europe, issues: ["ALL"]) { url, _ in BSHProvider(baseURL: url) },
        Entry("HNB", .europe, issues: ["HRK"]) { url, _ in HNBProvider(baseURL: url) },
        Entry("BANXICO", .elsewhere, issues: ["MXN"], needsAPIKey: true) { url, key in BANXICOProvider(baseURL: url, apiKey: key ?? "") },
        Entry("BCB", .elsewhere, issues: ["BRL"]) { url, _ in BCBProvider(baseURL: url) },
        Entry("BNM", .elsewhere, issues: ["MYR"]) { url, _ in BNMProvider(baseURL: url) },
        Entry("BOC", .elsewhere, issues: ["CAD"]) { url, _ in BOCProvider(baseURL: url) },
        Entry("BOI", .elsewhere, issues: ["ILS"]) { url, _ in BOIProvider(baseURL: url) },
        Entry("BOT", .elsewhere, issues: ["THB"], needsAPIKey: true) { url, key in BOTProvider(baseURL: url, apiKey: key ?? "") },
        Entry("CBU", .elsewhere, issues: ["UZS"]) { url, _ in CBUProvider(baseURL: url) },
        Entry("FBIL", .elsewhere, issues: ["INR"]) { url, _ in FBILProvider(baseURL: url) },
        Entry("HKMA", .elsewhere, issues: ["HKD"]) { url, _ in HKMAProvider(baseURL: url) },
        Entry("NBK", .elsewhere, issues: ["KZT"]) { url, _ in NBKProvider(baseURL: url) },
        Entry("RBA", .elsewhere, issues: ["AUD"]) { url, _ in RBAProvider(baseURL: url) },
        Entry("AMCM", .elsewhere, issues: ["MOP"]) { url, _ in AMCMProvider(baseURL: url) },
        Entry("BAM", .elsewhere, issues: ["MAD"], needsAPIKey: true) { url, key in BAMProvider(baseURL: url, apiKey: key ?? "") },
        Entry("BANREP", .elsewhere, issues: ["COP"]) { url, _ in BANREPProvider(baseURL: url) },
        Entry("BCC", .elsewhere, issues: ["CUP"]) { url, _ in BCCProvider(baseURL: url) },
        Entry("BCCH", .elsewhere, issues: ["CLP"], needsAPIKey: true) { url, key in BCCHProvider(baseURL: url, apiKey: key ?? "") },
        Entry("BCRA", .elsewhere, issues: ["ARS"]) { url, _ in BCRAProvider(baseURL: url) },
        Entry("BNA", .elsewhere, issues: ["AOA"]) { url, _ in BNAProvider(baseURL: url) },
        Entry("BNRRW", .elsewhere, issues: ["RWF"]) { url, _ in BNRRWProvider(baseURL: url) },
        Entry("BOM", .elsewhere, issues: ["MNT"]) { url, _ in BOMProvider(baseURL: url) },
        Entry("CBG", .elsewhere, issues: ["GMD"]) { url, _ in CBGProvider(baseURL: url) },
        Entry("CBM", .elsewhere, issues: ["MMK"]) { url, _ in CBMProvider(baseURL: url) },
        Entry("CBN", .elsewhere, issues: ["NGN"]) { url, _ in CBNProvider(baseURL: url) },
        Entry("MMA", .elsewhere, issues: ["MVR"]) { url, _ in MMAProvider(baseURL: url) },
        Entry("NBE", .elsewhere, issues: ["ETB"]) { url, _ in NBEProvider(baseURL: url) },
        Entry("NRB", .elsewhere, issues: ["NPR"]) { url, _ in NRBProvider(baseURL: url) },
        Entry("SARB", .elsewhere, issues: ["ZAR"]) { url, _ in SARBProvider(baseURL: url) },
        Entry("BCRP", .elsewhere, issues: ["PEN"]) { url, _ in BCRPProvider(baseURL: url) },
        Entry("CBTT", .elsewhere, issues: ["TTD"]) { url, _ in CBTTProvider(baseURL: url) },
        Entry("BFM", .elsewhere, issues: ["MGA"]) { url, _ in BFMProvider(baseURL: url) },
        Entry("CFETS", .elsewhere, issues: ["CNY"]) { url, _ in CFETSProvider(baseURL: url) },
        Entry("CBA", .elsewhere, issues: ["AMD"]) { url, _ in CBAProvider(baseURL: url) },
        Entry("BANGUAT", .elsewhere, issues: ["GTQ"]) { url, _ in BANGUATProvider(baseURL: url) },
        Entry("BCN", .elsewhere, issues: ["NIO"]) { url, _ in BCNProvider(baseURL: url) },
        Entry("BCU", .elsewhere, issues: ["UYU"]) { url, _ in BCUProvider(baseURL: url) },
        Entry("CBT", .elsewhere, issues: ["TMT"]) { url, _ in CBTProvider(baseURL: url) },
        Entry("CBAR", .elsewhere, issues: ["AZN"]) { url, _ in CBARProvider(baseURL: url) },
        Entry("NBT", .elsewhere, issues: ["TJS"]) { url, _ in NBTProvider(baseURL: url) },
        Entry("NBKR", .elsewhere, issues: ["KGS"]) { url, _ in NBKRProvider(baseURL: url) },
        Entry("BCP", .elsewhere, issues: ["PYG"]) { url, _ in BCPProvider(baseURL: url) },
        Entry("CBK", .elsewhere, issues: ["KES"]) { url, _ in CBKProvider(baseURL: url) },
        Entry("RBV", .elsewhere, issues: ["VUV"]) { url, _ in RBVProvider(baseURL: url) },
        Entry("NBC", .elsewhere, issues: ["KHR"]) { url, _ in NBCProvider(baseURL: url) },
        Entry("CBLLR", .elsewhere, issues: ["LRD"]) { url, _ in CBLLRProvider(baseURL: url) },
        Entry("SBP", .elsewhere, issues: ["PKR"]) { url, _ in SBPProvider(baseURL: url) },
        Entry("NRBT", .elsewhere, issues: ["TOP"]) { url, _ in NRBTProvider(baseURL: url) },
        Entry("BOA", .elsewhere, issues: ["DZD"]) { url, _ in BOAProvider(baseURL: url) },
        Entry("RBF", .elsewhere, issues: ["FJD"]) { url, _ in RBFProvider(baseURL: url) },
        Entry("CBS", .elsewhere, issues: ["WST"]) { url, _ in CBSProvider(baseURL: url) },
        Entry("CBI", .elsewhere, issues: ["IQD"]) { url, _ in CBIProvider(baseURL: url) },
        Entry("BOTA", .elsewhere, issues: ["TZS"]) { url, _ in BOTAProvider(baseURL: url) },
        Entry("CBE", .elsewhere, issues: ["EGP"]) { url, _ in CBEProvider(baseURL: url) },
        Entry("CBSL", .elsewhere, issues: ["LKR"]) { url, _ in CBSLProvider(baseURL: url) },
        Entry("MAS", .elsewhere, issues: ["SGD"]) { url, _ in MASProvider(baseURL: url) },
        Entry("BI", .elsewhere, issues: ["IDR"]) { url, _ in BIProvider(baseURL: url) },
        Entry("BEAC", .elsewhere, issues: ["XAF"]) { url, _ in BEACProvider(baseURL: url) },
        Entry("BOB", .elsewhere, issues: ["BWP"]) { url, _ in BOBProvider(baseURL: url) },
        Entry("BCCR", .elsewhere, issues: ["CRC"]) { url, _ in BCCRProvider(baseURL: url) },
        Entry("BOJA", .elsewhere, issues: ["JMD"]) { url, _ in BOJAProvider(baseURL: url) },
        Entry("RBM", .elsewhere, issues: ["MWK"]) { url, _ in RBMProvider(baseURL: url) },
        Entry("BCT", .elsewhere, issues: ["TND"]) { url, _ in BCTProvider(baseURL: url) },
        Entry("BCEAO", .elsewhere, issues: ["XOF"]) { url, _ in BCEAOProvider(baseURL: url) },
        Entry("DAB", .elsewhere, issues: ["AFN"]) { url, _ in DABProvider(baseURL: url) },
        Entry("BDL", .elsewhere, issues: ["LBP"]) { url, _ in BDLProvider(baseURL: url) },
        Entry("BCBO", .elsewhere, issues: ["BOB"]) { url, _ in BCBOProvider(baseURL: url) },
        Entry("BCCCD", .elsewhere, issues: ["CDF"]) { url, _ in BCCCDProvider(baseURL: url) },
        Entry("FRED", .dollarSeries, issues: ["USD"], needsAPIKey: true) { url, key in FREDProvider(baseURL: url, apiKey: key ?? "") },
        Entry("BOJ", .dollarSeries, issues: ["JPY"]) { url, _ in BOJProvider(baseURL: url) },
        Entry("IMF", .dollarSeries, issues: []) { url, _ in IMFProvider(baseURL: url) },
        Entry("CBC", .dollarSeries, issues: ["TWD"]) { url, _ in CBCProvider(baseURL: url) },
        Entry("LB", .historical, issues: ["LTL"]) { url, _ in LBProvider(baseURL: url) },
        Entry("BBK", .historical, issues: ["DEM"]) { url, _ in BBKProvider(baseURL: url) },
        Entry("BDP", .historical, issues: ["PTE"]) { url, _ in BDPProvider(baseURL: url) },
        Entry("HMRC", .periodic, issues: []) { url, _ in HMRCProvider(baseURL: url) },
        Entry("UST", .periodic, issues: []) { url, _ in USTProvider(baseURL: url) },
        Entry("BIS", .periodic, issues: []) { url, _ in BISProvider(baseURL: url) },
    ]

    /// The keys of the reference tier (the ECB): always fetched, whatever else a server enables.
    public static let referenceKeys = entries.filter { $0.tier == .reference }.map(\.key)

    /// The schedule the merged dataset's freshness follows (`expectedLatestDate`, `Rates-Stale`,
    /// cache lifetimes): the first source's, the ECB's.
    public static let referenceSchedule = entries[0].identity.schedule

    /// How many days the figures of the sources that say so hold (``RatesProvider/validityDays``:
    /// monthly and quarterly sources), by key; the others' hold for the merge's carry-forward limit.
    public static let validityDays: [String: Int] = Dictionary(
        entries.compactMap { entry in entry.identity.validityDays.map { (entry.key, $0) } }, uniquingKeysWith: { first, _ in first })

    /// The currencies each source issues (``Entry/issues``), by key; sources that issue none are absent.
    public static let issuedCurrencies: [String: Set<CurrencyCode>] = Dictionary(
        entries.filter { !$0.issues.isEmpty }.map { ($0.key, Set($0.issues)) }, uniquingKeysWith: { first, _ in first })

    /// Every key, in the order of ``entries``.
    public static var keys: [String] { entries.map(\.key) }

    /// The keys of the providers that need an API key: FRED, BANXICO, BOT, BAM, BCCH.
    public static var keysNeedingAPIKey: Set<String> { Set(entries.filter(\.needsAPIKey).map(\.key)) }

    /// The entry for `key` (any letter case), or `nil` for a key no adapter has.
    public static func entry(_ key: String) -> Entry? {
        (positions[key] ?? positions[key.uppercased()]).map { entries[$0] }
    }

    /// Each entry's position in ``entries``, by key.
    private static let positions = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($0.element.key, $0.offset) })

    /// Makes the adapter for `key`.
    ///
    /// - Parameters:
    ///   - key: Frankfurter's key, in any letter case.
    ///   - baseURL: Replaces the adapter's default endpoint base (a mirror, a test server); `nil` for the real one.
    ///   - apiKey: The provider's API key, for those that need one (secret); ignored by the others.
    /// - Throws: ``ProviderConfigurationError/unknownProvider(_:)`` for a key no adapter has,
    ///   ``ProviderConfigurationError/apiKeyMissing(provider:)`` for a provider that needs a key given none (or an empty one).
    public static func make(key: String, baseURL: String? = nil, apiKey: String? = nil) throws(ProviderConfigurationError) -> any RatesProvider {
        guard let entry = entry(key) else { throw .unknownProvider(key) }
        let apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
        if entry.needsAPIKey, apiKey == nil { throw .apiKeyMissing(provider: entry.key) }
        return entry.make(baseURL, apiKey)
    }

    /// The providers a configuration turns on, and why the others asked for are off.
    public struct Selection: Sendable {
        /// The adapters on, in the order asked (``ProviderRegistry/entries``' order when all are);
        /// which one's value is served is the merge's precedence, not this order.
        public var providers: [any RatesProvider]
        /// The keys asked for but off, each with its reason (unknown key, no API key), in the order asked.
        public var off: [(key: String, reason: ProviderConfigurationError)]
    }

    /// The adapters of `enabled` (every key, in the default order, when `nil`), keys that need an
    /// API key without one left off. Each asks its own public endpoints unless `baseURLs` names
    /// another (a server also sends a provider's requests elsewhere with an ``UpstreamOverride``).
    ///
    /// - Parameters:
    ///   - enabled: The keys to turn on, in the order wanted (`providers`); `nil` for all.
    ///   - apiKeys: API keys by provider key (secrets).
    ///   - baseURLs: Replacements of default endpoint bases by provider key (a mirror, a test server).
    public static func select(enabled: [String]? = nil, apiKeys: [String: String] = [:], baseURLs: [String: String] = [:]) -> Selection {
        var selection = Selection(providers: [], off: [])
        var seen = Set<String>()
        for key in enabled ?? keys {
            let canonical = entry(key)?.key ?? key
            guard seen.insert(canonical).inserted else { continue }
            do {
                selection.providers.append(try make(key: canonical, baseURL: baseURLs[canonical], apiKey: apiKeys[canonical]))
            } catch {
                selection.off.append((canonical, error))
            }
        }
        return selection
    }
}

/// Why a configured provider cannot be turned on.
public enum ProviderConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No adapter has this key.
    case unknownProvider(String)
    /// The provider needs an API key and none was configured: it stays off.
    case apiKeyMissing(provider: String)

    public var description: String {
        switch self {
        case .unknownProvider(let key):
            return "no provider has the key \(UpstreamDataError.quoted(key)); known keys: \(ProviderRegistry.keys.joined(separator: ", "))"
        case .apiKeyMissing(let key):
            return "provider \(key) needs an API key and none is configured: it stays off until one is"
        }
    }
}
