import Foundation
import RatesCore

/// The adapter of one official source of exchange rates: the requests it makes and the parser of
/// its publisher's answers. Who the source is (key, name, pivot, schedule, endpoints, …) is its row
/// of ``ProviderRegistry/entries`` (``ProviderIdentity``), which the adapter is made with (``source``).
///
/// An adapter does no I/O: it names the requests a fetch makes (``requests(for:)``) and reads
/// each answer (``read(_:of:)``) into figures exactly as published. ``parse(_:of:)`` checks what it
/// read (``ProviderValidation``) and names the provider in its errors; the fetch, the validation
/// against stored data and the merge are the same for every provider.
///
/// Reading is as strict as the ECB path: anything malformed (a value that is not a decimal, a
/// date that is not a real day, a duplicate currency, a layout the adapter does not know)
/// rejects the whole answer with an ``UpstreamDataError``, so nothing from it is stored.
public protocol RatesProvider: Sendable {
    /// Its row of the registry's table, with the endpoints, API key and clock it was made with.
    var source: ProviderSource { get }
    /// Makes the adapter of `source` (``ProviderRegistry/make(key:baseURL:apiKey:)``; tests use
    /// ``init(baseURL:apiKey:today:)``).
    init(source: ProviderSource)
    /// Whether an answer without a day (a span of weekends and holidays) means no publication for
    /// that request rather than an empty answer (``UpstreamDataError/empty``). `false` (the default);
    /// `true` for an adapter that conforms to ``EmptyAnswerIsNoPublication``.
    var emptyAnswerIsNoPublication: Bool { get }
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
    /// The figures in one answer to `request`, by day, as published: the adapter's parser.
    /// ``parse(_:of:)`` is what the rest of the code calls.
    ///
    /// - Throws: ``UpstreamDataError`` for anything that is not the provider's published layout
    ///   (``UpstreamDataError/layout(_:)``, without the provider's key).
    func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication]
    /// The publications in files of the source's on disk (`rates-relay import --provider KEY FILE...`),
    /// one per day in ascending order; the default reads each file as an answer to one of the
    /// adapter's requests (``ProviderFile``).
    ///
    /// - Parameter subjects: What each file answers (``ProviderRequest/subject``), in order; empty to let every file say.
    /// - Throws: ``ProviderFileError``, ``UpstreamDataError`` or the file system's error.
    func publications(inFiles files: [URL], subjects: [String?], today: Day) throws -> [ProviderPublication]
}

extension RatesProvider {
    /// Makes the adapter from its row of the registry's table.
    ///
    /// - Parameters:
    ///   - baseURL: Replaces the row's endpoint base (a test server, a mirror); `nil` for the real one.
    ///   - apiKey: The source's API key (secret), for those that need one.
    ///   - today: A fixed clock (tests); `nil` for the system clock in the schedule's time zone.
    public init(baseURL: String? = nil, apiKey: String = "", today: (@Sendable () -> Day)? = nil) {
        self.init(source: ProviderSource(identity: Self.identity, baseURL: baseURL, apiKey: apiKey, today: today))
    }

    /// This adapter's row of ``ProviderRegistry/entries``.
    public static var identity: ProviderIdentity { ProviderRegistry.identity(of: Self.self) }
    /// The base of the source's public endpoints (``ProviderIdentity/baseURL``).
    public static var defaultBaseURL: String { identity.baseURL }

    /// The source's row of the registry's table.
    public var identity: ProviderIdentity { source.identity }
    /// ``ProviderIdentity/key``.
    public var key: String { identity.key }
    /// ``ProviderIdentity/name``.
    public var name: String { identity.name }
    /// ``ProviderIdentity/country``.
    public var country: String? { identity.country }
    /// ``ProviderIdentity/pivot``.
    public var pivot: CurrencyCode { identity.pivot }
    /// ``ProviderIdentity/schedule``.
    public var schedule: PublicationSchedule { identity.schedule }
    /// ``ProviderIdentity/rateType``.
    public var rateType: String { identity.rateType }
    /// ``ProviderIdentity/validityDays``.
    public var validityDays: Int? { identity.validityDays }
    /// ``ProviderIdentity/historyStart``.
    public var historyStart: Day { identity.historyStart }
    /// ``ProviderIdentity/needsAPIKey``.
    public var needsAPIKey: Bool { identity.needsAPIKey }
    /// ``ProviderIdentity/publishesInParts``.
    public var publishesInParts: Bool { identity.publishesInParts }
    /// ``ProviderIdentity/bridgesThroughECB``.
    public var bridgesThroughECB: Bool { identity.bridgesThroughECB }
    /// ``ProviderIdentity/maxRateMove``.
    public var maxRateMove: Double? { identity.maxRateMove }
    /// The base its requests extend (``ProviderSource/baseURL``).
    public var baseURL: String { source.baseURL }
    /// Its API key (``ProviderSource/apiKey``), empty for none.
    public var apiKey: String { source.apiKey }
    /// Today's day where the source publishes (``ProviderSource/today``).
    public func today() -> Day { source.today() }

    public var emptyAnswerIsNoPublication: Bool { false }
    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? { nil }
    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        requests(for: window)
    }

    /// The figures in one answer to `request`, checked: what ``read(_:of:)`` gives, through
    /// ``ProviderValidation/validate(_:notAfter:notBefore:)`` (no day before ``historyStart``; a fetch
    /// checks the days after tomorrow on the whole of its answers), in ascending day order; none for an
    /// answer without a day when ``emptyAnswerIsNoPublication``. Every error names the provider
    /// (``UpstreamDataError/attributed(to:)``).
    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        do {
            let publications = try read(body, of: request)
            if publications.isEmpty, emptyAnswerIsNoPublication { return [] }
            return try ProviderValidation.validate(publications, notBefore: historyStart)
        } catch {
            throw error.attributed(to: key)
        }
    }

    public func catchUp(after stored: Day?, backfillDays: Int, today: Day) -> FetchWindow {
        let recent = today.adding(days: -backfillDays)
        guard let stored else { return backfillDays > 0 ? .range(recent, today) : .latest }
        let range = FetchWindow.range(min(stored.adding(days: 1), recent), today)
        return requests(for: range).count <= requests(for: .latest).count ? range : .latest
    }

    public func publications(inFiles files: [URL], subjects: [String?], today: Day) throws -> [ProviderPublication] {
        let bodies = try files.map { Array(try Data(contentsOf: $0)) }
        // The subject each file's name names among `candidates`, or `nil` when no file's names one.
        func namedSubjects(among candidates: [String]) -> [String?]? {
            let named = files.map { ProviderFile.subject(named: $0.lastPathComponent, among: candidates) }
            return named.contains { $0 != nil } ? named : nil
        }
        // A file that does not say what it answers may be named for it: read so first, which spares a
        // file of one currency's long history a reading under every other currency's request.
        if subjects.isEmpty, let named = namedSubjects(among: ProviderFile.subjects(of: self, today: today)),
           let publications = try? ProviderFile.read(bodies, provider: self, subjects: named, today: today)
        {
            return publications
        }
        let read = Result { () throws(ProviderFileError) in try ProviderFile.read(bodies, provider: self, subjects: subjects, today: today) }
        guard subjects.isEmpty, case .failure(.ambiguous(_, let candidates)) = read, let named = namedSubjects(among: candidates) else {
            return try read.get()
        }
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
