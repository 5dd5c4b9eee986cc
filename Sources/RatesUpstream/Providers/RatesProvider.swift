import RatesCore

/// One official source of exchange rates: who it is, when it publishes, where its files are
/// and how to read them.
///
/// An adapter does no I/O: it names the requests a fetch makes (``requests(for:)``) and parses
/// each answer (``parse(_:of:)``) into figures exactly as published. The fetch, the
/// validation against stored data and the merge are the same for every provider.
///
/// Parsing is as strict as the ECB path: anything malformed (a value that is not a decimal, a
/// date that is not a real day, a duplicate currency, a layout the adapter does not know)
/// rejects the whole answer with an ``UpstreamDataError``, so nothing from it is stored.
public protocol RatesProvider: Sendable {
    /// Frankfurter's key for the source (`ECB`, `NBP`, `CBR`, …): what `providers=` names.
    var key: String { get }
    /// The publisher's name in English (`"National Bank of Poland"`).
    var name: String { get }
    /// ISO 3166 alpha-2 code of the publisher's country, or `nil` for a supranational body (ECB: `"EU"` is used, IMF: `nil`).
    var country: String? { get }
    /// The currency every figure is quoted against (PLN for the NBP, EUR for the ECB).
    var pivot: CurrencyCode { get }
    /// When a new publication is expected.
    var schedule: PublicationSchedule { get }
    /// Whether the source needs an API key; such a provider is off unless one is configured.
    var needsAPIKey: Bool { get }
    /// Whether a day's figures come in several publications on their own cadences (the NBP's
    /// daily table A and Wednesday table B): a publication then adds to its day's stored figures
    /// instead of replacing them, and the merge takes each currency from the provider's newest
    /// publication that has it, within the carry-forward limit. `false` (the default): each
    /// publication is the provider's whole word on its day, and a currency missing from it was withdrawn.
    var publishesInParts: Bool { get }
    /// The requests that fetch `window`: one for most sources, one per currency or series for some.
    func requests(for window: FetchWindow) -> [ProviderRequest]
    /// The figures in one answer to `request`, by day.
    ///
    /// - Throws: ``UpstreamDataError`` for anything that is not the provider's published layout.
    func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication]
}

extension RatesProvider {
    public var needsAPIKey: Bool { false }
    public var publishesInParts: Bool { false }
}

/// What a fetch asks a provider for.
public enum FetchWindow: Hashable, Sendable {
    /// The newest publication (and, where the endpoint gives them, a few before it).
    case latest
    /// Every publication from the first day through the second, both included.
    case range(Day, Day)
}

/// One HTTP request of a fetch.
public struct ProviderRequest: Hashable, Sendable {
    public enum Method: String, Hashable, Sendable { case get = "GET", post = "POST" }

    /// The absolute URL.
    public var url: String
    public var method: Method
    /// Extra request headers (`SOAPAction`, `Accept`, an API key header), name and value.
    public var headers: [String: String]
    /// The request body (a SOAP envelope), or `nil`.
    public var body: String?
    /// What this request is for, when a provider needs one request per currency or series
    /// (`"USD"`, `"DEXUSEU"`): ``RatesProvider/parse(_:of:)`` reads it.
    public var subject: String?

    public init(url: String, method: Method = .get, headers: [String: String] = [:], body: String? = nil, subject: String? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.subject = subject
    }
}

/// When a provider publishes: the days, the local time, the time zone.
public struct PublicationSchedule: Hashable, Sendable {
    public enum Cadence: String, Hashable, Sendable { case daily, weekly, monthly }

    /// IANA time zone of the publisher (`"Europe/Warsaw"`).
    public var timeZone: String
    /// ISO weekdays with publications (1 = Monday … 7 = Sunday).
    public var weekdays: Set<Int>
    /// Local time at which the publication is usually out, in minutes after midnight.
    public var expectedMinute: Int
    public var cadence: Cadence

    /// Monday to Friday.
    public static let workingDays: Set<Int> = [1, 2, 3, 4, 5]

    public init(timeZone: String, weekdays: Set<Int> = workingDays, expectedMinute: Int, cadence: Cadence = .daily) {
        self.timeZone = timeZone
        self.weekdays = weekdays
        self.expectedMinute = expectedMinute
        self.cadence = cadence
    }
}
