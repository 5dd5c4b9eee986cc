import RatesCore

/// Every provider adapter by its key (Frankfurter's: `ECB`, `NBP`, …), and how to make one from
/// configuration.
///
/// The order of ``entries`` is only the order of listing and fetching: which provider's value the
/// merged dataset serves is decided by the merge's precedence (`MergePolicy` in RatesIngest).
///
/// FRED, BANXICO and BOT need an API key: without one they are off (``select(enabled:apiKeys:)``)
/// and ``make(key:baseURL:apiKey:)`` refuses them; reading their answers needs none (``Entry/identity``).
public enum ProviderRegistry {
    /// One adapter the registry knows.
    public struct Entry: Sendable {
        /// Frankfurter's key for it.
        public let key: String
        /// Whether it needs an API key (and is off without one).
        public let needsAPIKey: Bool
        /// Makes the adapter; `apiKey` is non-nil whenever `needsAPIKey`.
        let make: @Sendable (_ baseURL: String?, _ apiKey: String?) -> any RatesProvider

        /// The adapter with its default endpoints and no API key: who publishes, against which currency, when.
        public var identity: any RatesProvider { make(nil, nil) }

        /// The currency its figures are quoted against.
        public var pivot: CurrencyCode { identity.pivot }

        /// ``RatesProvider/publishesInParts``.
        public var publishesInParts: Bool { identity.publishesInParts }

        init(_ key: String, needsAPIKey: Bool = false, _ make: @escaping @Sendable (_ baseURL: String?, _ apiKey: String?) -> any RatesProvider) {
            self.key = key
            self.needsAPIKey = needsAPIKey
            self.make = make
        }
    }

    /// Every adapter: the ECB, the central banks of their own currencies, then the sources of many.
    public static let entries: [Entry] = [
        Entry("ECB") { url, _ in ECBProvider(baseURL: url) },
        // The central banks of their own currencies.
        Entry("NBP") { url, _ in NBPProvider(baseURL: url) },
        Entry("CNB") { url, _ in CNBProvider(baseURL: url) },
        Entry("CBR") { url, _ in CBRProvider(baseURL: url) },
        Entry("BOC") { url, _ in BOCProvider(baseURL: url) },
        Entry("NB") { url, _ in NBProvider(baseURL: url) },
        Entry("BNR") { url, _ in BNRProvider(baseURL: url) },
        Entry("RBA") { url, _ in RBAProvider(baseURL: url) },
        Entry("DNB") { url, _ in DNBProvider(baseURL: url) },
        Entry("BOE") { url, _ in BOEProvider(baseURL: url) },
        Entry("NBU") { url, _ in NBUProvider(baseURL: url) },
        Entry("RB") { url, _ in RBProvider(baseURL: url) },
        Entry("TCMB") { url, _ in TCMBProvider(baseURL: url) },
        Entry("MNB") { url, _ in MNBProvider(baseURL: url) },
        Entry("SBI") { url, _ in SBIProvider(baseURL: url) },
        Entry("NBG") { url, _ in NBGProvider(baseURL: url) },
        Entry("NBK") { url, _ in NBKProvider(baseURL: url) },
        Entry("CBU") { url, _ in CBUProvider(baseURL: url) },
        Entry("BNM") { url, _ in BNMProvider(baseURL: url) },
        Entry("BOT", needsAPIKey: true) { url, key in BOTProvider(baseURL: url, apiKey: key ?? "") },
        Entry("HKMA") { url, _ in HKMAProvider(baseURL: url) },
        Entry("BCB") { url, _ in BCBProvider(baseURL: url) },
        Entry("BOI") { url, _ in BOIProvider(baseURL: url) },
        Entry("BOJ") { url, _ in BOJProvider(baseURL: url) },
        Entry("NBRB") { url, _ in NBRBProvider(baseURL: url) },
        Entry("FBIL") { url, _ in FBILProvider(baseURL: url) },
        Entry("BANXICO", needsAPIKey: true) { url, key in BANXICOProvider(baseURL: url, apiKey: key ?? "") },
        // The broadest single source, then those republishing other banks' figures.
        Entry("BDI") { url, _ in BDIProvider(baseURL: url) },
        Entry("IMF") { url, _ in IMFProvider(baseURL: url) },
        Entry("FRED", needsAPIKey: true) { url, key in FREDProvider(baseURL: url, apiKey: key ?? "") },
    ]

    /// Every key, in the order of ``entries``.
    public static var keys: [String] { entries.map(\.key) }

    /// The keys of the providers that need an API key: FRED, BANXICO, BOT.
    public static var keysNeedingAPIKey: Set<String> { Set(entries.filter(\.needsAPIKey).map(\.key)) }

    /// The entry for `key` (any letter case), or `nil` for a key no adapter has.
    public static func entry(_ key: String) -> Entry? {
        let wanted = key.uppercased()
        return entries.first { $0.key == wanted }
    }

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
    /// API key without one left off. Each asks its own public endpoints (a server sends a
    /// provider's requests elsewhere with an ``UpstreamOverride``).
    ///
    /// - Parameters:
    ///   - enabled: The keys to turn on, in the order wanted (`providers`); `nil` for all.
    ///   - apiKeys: API keys by provider key (secrets).
    public static func select(enabled: [String]? = nil, apiKeys: [String: String] = [:]) -> Selection {
        var selection = Selection(providers: [], off: [])
        var seen = Set<String>()
        for key in enabled ?? keys {
            let canonical = entry(key)?.key ?? key
            guard seen.insert(canonical).inserted else { continue }
            do {
                selection.providers.append(try make(key: canonical, apiKey: apiKeys[canonical]))
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
