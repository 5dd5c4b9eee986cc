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
    /// For a currency, the first tier wins; a currency's own central bank (the source whose pivot
    /// it is) comes right after ``reference``, whatever its own tier.
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
            _ key: String, _ tier: Tier, needsAPIKey: Bool = false,
            _ make: @escaping @Sendable (_ baseURL: String?, _ apiKey: String?) -> any RatesProvider
        ) {
            self.key = key
            self.tier = tier
            self.needsAPIKey = needsAPIKey
            self.make = make
            self.identity = make(nil, nil)
        }
    }

    /// Every source, tier by tier, in the order of precedence within each (also the order of listing and fetching).
    public static let entries: [Entry] = [
        Entry("ECB", .reference) { url, _ in ECBProvider(baseURL: url) },
        Entry("BDI", .broad) { url, _ in BDIProvider(baseURL: url) },
        Entry("NBP", .europe) { url, _ in NBPProvider(baseURL: url) },
        Entry("CNB", .europe) { url, _ in CNBProvider(baseURL: url) },
        Entry("DNB", .europe) { url, _ in DNBProvider(baseURL: url) },
        Entry("NB", .europe) { url, _ in NBProvider(baseURL: url) },
        Entry("RB", .europe) { url, _ in RBProvider(baseURL: url) },
        Entry("MNB", .europe) { url, _ in MNBProvider(baseURL: url) },
        Entry("BNR", .europe) { url, _ in BNRProvider(baseURL: url) },
        Entry("SBI", .europe) { url, _ in SBIProvider(baseURL: url) },
        Entry("NBU", .europe) { url, _ in NBUProvider(baseURL: url) },
        Entry("NBRB", .europe) { url, _ in NBRBProvider(baseURL: url) },
        Entry("CBR", .europe) { url, _ in CBRProvider(baseURL: url) },
        Entry("TCMB", .europe) { url, _ in TCMBProvider(baseURL: url) },
        Entry("NBG", .europe) { url, _ in NBGProvider(baseURL: url) },
        Entry("BOE", .europe) { url, _ in BOEProvider(baseURL: url) },
        Entry("NBRM", .europe) { url, _ in NBRMProvider(baseURL: url) },
        Entry("CBBH", .europe) { url, _ in CBBHProvider(baseURL: url) },
        Entry("BNB", .europe) { url, _ in BNBProvider(baseURL: url) },
        Entry("NBM", .europe) { url, _ in NBMProvider(baseURL: url) },
        Entry("BSH", .europe) { url, _ in BSHProvider(baseURL: url) },
        Entry("HNB", .europe) { url, _ in HNBProvider(baseURL: url) },
        Entry("BANXICO", .elsewhere, needsAPIKey: true) { url, key in BANXICOProvider(baseURL: url, apiKey: key ?? "") },
        Entry("BCB", .elsewhere) { url, _ in BCBProvider(baseURL: url) },
        Entry("BNM", .elsewhere) { url, _ in BNMProvider(baseURL: url) },
        Entry("BOC", .elsewhere) { url, _ in BOCProvider(baseURL: url) },
        Entry("BOI", .elsewhere) { url, _ in BOIProvider(baseURL: url) },
        Entry("BOT", .elsewhere, needsAPIKey: true) { url, key in BOTProvider(baseURL: url, apiKey: key ?? "") },
        Entry("CBU", .elsewhere) { url, _ in CBUProvider(baseURL: url) },
        Entry("FBIL", .elsewhere) { url, _ in FBILProvider(baseURL: url) },
        Entry("HKMA", .elsewhere) { url, _ in HKMAProvider(baseURL: url) },
        Entry("NBK", .elsewhere) { url, _ in NBKProvider(baseURL: url) },
        Entry("RBA", .elsewhere) { url, _ in RBAProvider(baseURL: url) },
        Entry("AMCM", .elsewhere) { url, _ in AMCMProvider(baseURL: url) },
        Entry("BAM", .elsewhere, needsAPIKey: true) { url, key in BAMProvider(baseURL: url, apiKey: key ?? "") },
        Entry("BANREP", .elsewhere) { url, _ in BANREPProvider(baseURL: url) },
        Entry("BCC", .elsewhere) { url, _ in BCCProvider(baseURL: url) },
        Entry("BCCH", .elsewhere, needsAPIKey: true) { url, key in BCCHProvider(baseURL: url, apiKey: key ?? "") },
        Entry("BCRA", .elsewhere) { url, _ in BCRAProvider(baseURL: url) },
        Entry("BNA", .elsewhere) { url, _ in BNAProvider(baseURL: url) },
        Entry("BNRRW", .elsewhere) { url, _ in BNRRWProvider(baseURL: url) },
        Entry("BOM", .elsewhere) { url, _ in BOMProvider(baseURL: url) },
        Entry("CBG", .elsewhere) { url, _ in CBGProvider(baseURL: url) },
        Entry("CBM", .elsewhere) { url, _ in CBMProvider(baseURL: url) },
        Entry("CBN", .elsewhere) { url, _ in CBNProvider(baseURL: url) },
        Entry("MMA", .elsewhere) { url, _ in MMAProvider(baseURL: url) },
        Entry("NBE", .elsewhere) { url, _ in NBEProvider(baseURL: url) },
        Entry("NRB", .elsewhere) { url, _ in NRBProvider(baseURL: url) },
        Entry("SARB", .elsewhere) { url, _ in SARBProvider(baseURL: url) },
        Entry("BCRP", .elsewhere) { url, _ in BCRPProvider(baseURL: url) },
        Entry("CBTT", .elsewhere) { url, _ in CBTTProvider(baseURL: url) },
        Entry("BFM", .elsewhere) { url, _ in BFMProvider(baseURL: url) },
        Entry("CFETS", .elsewhere) { url, _ in CFETSProvider(baseURL: url) },
        Entry("CBA", .elsewhere) { url, _ in CBAProvider(baseURL: url) },
        Entry("BANGUAT", .elsewhere) { url, _ in BANGUATProvider(baseURL: url) },
        Entry("BCN", .elsewhere) { url, _ in BCNProvider(baseURL: url) },
        Entry("BCU", .elsewhere) { url, _ in BCUProvider(baseURL: url) },
        Entry("CBT", .elsewhere) { url, _ in CBTProvider(baseURL: url) },
        Entry("CBAR", .elsewhere) { url, _ in CBARProvider(baseURL: url) },
        Entry("NBT", .elsewhere) { url, _ in NBTProvider(baseURL: url) },
        Entry("NBKR", .elsewhere) { url, _ in NBKRProvider(baseURL: url) },
        Entry("BCP", .elsewhere) { url, _ in BCPProvider(baseURL: url) },
        Entry("CBK", .elsewhere) { url, _ in CBKProvider(baseURL: url) },
        Entry("RBV", .elsewhere) { url, _ in RBVProvider(baseURL: url) },
        Entry("NBC", .elsewhere) { url, _ in NBCProvider(baseURL: url) },
        Entry("CBLLR", .elsewhere) { url, _ in CBLLRProvider(baseURL: url) },
        Entry("SBP", .elsewhere) { url, _ in SBPProvider(baseURL: url) },
        Entry("NRBT", .elsewhere) { url, _ in NRBTProvider(baseURL: url) },
        Entry("BOA", .elsewhere) { url, _ in BOAProvider(baseURL: url) },
        Entry("RBF", .elsewhere) { url, _ in RBFProvider(baseURL: url) },
        Entry("CBS", .elsewhere) { url, _ in CBSProvider(baseURL: url) },
        Entry("CBI", .elsewhere) { url, _ in CBIProvider(baseURL: url) },
        Entry("BOTA", .elsewhere) { url, _ in BOTAProvider(baseURL: url) },
        Entry("CBE", .elsewhere) { url, _ in CBEProvider(baseURL: url) },
        Entry("CBSL", .elsewhere) { url, _ in CBSLProvider(baseURL: url) },
        Entry("MAS", .elsewhere) { url, _ in MASProvider(baseURL: url) },
        Entry("BI", .elsewhere) { url, _ in BIProvider(baseURL: url) },
        Entry("BEAC", .elsewhere) { url, _ in BEACProvider(baseURL: url) },
        Entry("BOB", .elsewhere) { url, _ in BOBProvider(baseURL: url) },
        Entry("BCCR", .elsewhere) { url, _ in BCCRProvider(baseURL: url) },
        Entry("BOJA", .elsewhere) { url, _ in BOJAProvider(baseURL: url) },
        Entry("RBM", .elsewhere) { url, _ in RBMProvider(baseURL: url) },
        Entry("BCT", .elsewhere) { url, _ in BCTProvider(baseURL: url) },
        Entry("BCEAO", .elsewhere) { url, _ in BCEAOProvider(baseURL: url) },
        Entry("DAB", .elsewhere) { url, _ in DABProvider(baseURL: url) },
        Entry("BDL", .elsewhere) { url, _ in BDLProvider(baseURL: url) },
        Entry("BCBO", .elsewhere) { url, _ in BCBOProvider(baseURL: url) },
        Entry("BCCCD", .elsewhere) { url, _ in BCCCDProvider(baseURL: url) },
        Entry("FRED", .dollarSeries, needsAPIKey: true) { url, key in FREDProvider(baseURL: url, apiKey: key ?? "") },
        Entry("BOJ", .dollarSeries) { url, _ in BOJProvider(baseURL: url) },
        Entry("IMF", .dollarSeries) { url, _ in IMFProvider(baseURL: url) },
        Entry("CBC", .dollarSeries) { url, _ in CBCProvider(baseURL: url) },
        Entry("LB", .historical) { url, _ in LBProvider(baseURL: url) },
        Entry("BBK", .historical) { url, _ in BBKProvider(baseURL: url) },
        Entry("BDP", .historical) { url, _ in BDPProvider(baseURL: url) },
        Entry("HMRC", .periodic) { url, _ in HMRCProvider(baseURL: url) },
        Entry("UST", .periodic) { url, _ in USTProvider(baseURL: url) },
        Entry("BIS", .periodic) { url, _ in BISProvider(baseURL: url) },
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
