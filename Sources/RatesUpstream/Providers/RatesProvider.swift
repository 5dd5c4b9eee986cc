import Foundation
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
    /// What the figures it contributes are, in the publisher's terms (`"official rate"`), or
    /// `"midpoint of the published buying and selling rates"` for a source that publishes no middle
    /// rate: shown by `/v1/providers`. The default: `"reference rate"`.
    var rateType: String { get }
    /// How many days from its date a publication's figures stay current: 31 for a monthly source
    /// dated the first day of the month its figures are valid for, 92 for a quarterly one. `nil` (the
    /// default): the merge's carry-forward limit, as for every daily source.
    var validityDays: Int? { get }
    /// The first day its figures may be dated: an answer holding an earlier day is rejected
    /// (``UpstreamDataError/dayOutOfRange(_:)``). The default: ``ProviderValidation/firstDay``
    /// (1999-01-04, the euro's first reference rates); a source of older history (the Bundesbank's
    /// Deutsche Mark since 1948) gives the first day of its own.
    var historyStart: Day { get }
    /// Whether the source needs an API key; such a provider is off unless one is configured.
    var needsAPIKey: Bool { get }
    /// Whether a day's figures come in several publications on their own cadences (the NBP's
    /// daily table A and Wednesday table B): a publication then adds to its day's stored figures
    /// instead of replacing them, and the merge takes each currency from the provider's newest
    /// publication that has it, within the carry-forward limit. `false` (the default): each
    /// publication is the provider's whole word on its day, and a currency missing from it was withdrawn.
    var publishesInParts: Bool { get }
    /// Whether the merge expresses the source's figures per EUR through the ECB's rate of a currency
    /// both quote (USD first), as for a source that quotes no EUR, instead of through the source's own
    /// EUR figure: for a source whose EUR figure is not a market rate (the CBTT's is an average of few
    /// dealers' EUR deals, up to 18% from the ECB's, while its USD average is deep). On a day the ECB did
    /// not publish, such a source's figures are not used. `false` (the default).
    var bridgesThroughECB: Bool { get }
    /// How far, as a factor either way, a figure may move from the source's previous one before a
    /// fetch is rejected whole as implausible; a fetch older than what is stored is rejected too
    /// (``ProviderValidation/checkContinuity(_:after:maxMove:)``). `nil` (the default): no such
    /// check, implausible figures are left to the merge's consensus check, which leaves out one
    /// currency's value rather than the source's whole publication.
    var maxRateMove: Double? { get }
    /// What a fetch asks for when the source's newest stored publication is `stored` (`nil`: none)
    /// and publications were missed since (a first start, downtime). The default: with nothing
    /// stored, the last `backfillDays` days (its newest publication when that is 0); otherwise every
    /// day since `stored` and the last `backfillDays` days (a source's corrections of recent days
    /// come with them); and its newest publication instead when that range takes more requests.
    func catchUp(after stored: Day?, backfillDays: Int, today: Day) -> FetchWindow
    /// The requests that fetch `window`: one for most sources, one per currency or series for some.
    /// For a source with a ``sessionRequest(for:)``, these are the requests as far as they can be
    /// known without its answer (what `rates-relay import` reads files as).
    func requests(for window: FetchWindow) -> [ProviderRequest]
    /// A request whose answer the fetch's requests need: a token, a session cookie, a form's hidden
    /// state, the link to the current file on an index page. `nil` (the default) for most sources.
    func sessionRequest(for window: FetchWindow) -> ProviderRequest?
    /// The requests that fetch `window`, made with what ``sessionRequest(for:)``'s answer gave.
    /// The default: ``requests(for:)``.
    ///
    /// - Throws: ``UpstreamDataError`` when the session answer lacks what the requests need (no token,
    ///   no link to the file): the fetch fails as for any answer not in the source's layout.
    func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest]
    /// The figures in one answer to `request`, by day.
    ///
    /// - Throws: ``UpstreamDataError`` for anything that is not the provider's published layout.
    func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication]
    /// The publications in files of the source's on disk (`rates-relay import --provider KEY FILE...`),
    /// one per day in ascending order; the default reads each file as an answer to one of the
    /// adapter's requests (``ProviderFile``).
    ///
    /// - Parameter subjects: What each file answers (``ProviderRequest/subject``), in order; empty to let every file say.
    /// - Throws: ``ProviderFileError``, ``UpstreamDataError`` or the file system's error.
    func publications(inFiles files: [URL], subjects: [String?], today: Day) throws -> [ProviderPublication]
}

extension RatesProvider {
    public var needsAPIKey: Bool { false }
    public var publishesInParts: Bool { false }
    public var bridgesThroughECB: Bool { false }
    public var maxRateMove: Double? { nil }
    public var rateType: String { "reference rate" }
    public var validityDays: Int? { nil }
    public var historyStart: Day { ProviderValidation.firstDay }
    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? { nil }
    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        requests(for: window)
    }

    public func catchUp(after stored: Day?, backfillDays: Int, today: Day) -> FetchWindow {
        let recent = today.adding(days: -backfillDays)
        guard let stored else { return backfillDays > 0 ? .range(recent, today) : .latest }
        let range = FetchWindow.range(min(stored.adding(days: 1), recent), today)
        return requests(for: range).count <= requests(for: .latest).count ? range : .latest
    }

    public func publications(inFiles files: [URL], subjects: [String?], today: Day) throws -> [ProviderPublication] {
        let bodies = try files.map { Array(try Data(contentsOf: $0)) }
        // A file that does not say what it answers may be named for it: read so first, which spares a
        // file of one currency's long history a reading under every other currency's request.
        if subjects.isEmpty {
            let requested = ProviderFile.subjects(of: self, today: today)
            let named = files.map { ProviderFile.subject(named: $0.lastPathComponent, among: requested) }
            if named.contains(where: { $0 != nil }),
               let publications = try? ProviderFile.read(bodies, provider: self, subjects: named, today: today)
            {
                return publications
            }
        }
        let read = Result { () throws(ProviderFileError) in try ProviderFile.read(bodies, provider: self, subjects: subjects, today: today) }
        guard subjects.isEmpty, case .failure(.ambiguous(_, let candidates)) = read else { return try read.get() }
        let named = files.map { ProviderFile.subject(named: $0.lastPathComponent, among: candidates) }
        guard named.contains(where: { $0 != nil }) else { return try read.get() }
        return try ProviderFile.read(bodies, provider: self, subjects: named, today: today)
    }
}

/// The answer to a provider's ``RatesProvider/sessionRequest(for:)``: what the fetch's requests are made with.
public struct ProviderSession: Sendable {
    /// The answer's body.
    public var body: [UInt8]
    /// The cookies it set (`Set-Cookie`), by name: the value only, attributes dropped.
    public var cookies: [String: String]

    public init(body: [UInt8], cookies: [String: String] = [:]) {
        self.body = body
        self.cookies = cookies
    }

    /// Reads the cookies of `Set-Cookie` header values (`name=value; Path=/; HttpOnly`).
    public init(body: [UInt8], setCookies: [String]) {
        var cookies: [String: String] = [:]
        for header in setCookies {
            let pair = header.prefix { $0 != ";" }
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            cookies[name] = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        self.init(body: body, cookies: cookies)
    }

    /// The `Cookie` header that sends every cookie back (`a=1; b=2`, by name), or `nil` when there is none.
    public var cookieHeader: String? {
        cookies.isEmpty ? nil : cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    /// The body as text (UTF-8, invalid bytes replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }
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

    /// A SOAP 1.1 call: `envelope` posted to `url` as XML, with the `SOAPAction` header `action`.
    static func soap(url: String, action: String, envelope: String, subject: String? = nil) -> ProviderRequest {
        ProviderRequest(
            url: url, method: .post, headers: ["Content-Type": "text/xml; charset=utf-8", "SOAPAction": action], body: envelope, subject: subject)
    }
}
