import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RatesCore

/// The Rates Relay SDK: a local SQLite cache of exchange rates, kept current by delta sync.
///
/// Reads, conversions and observations answer from the cache — instantly and offline — with
/// exact `Decimal` math (the server's own). ``sync()`` pulls what changed since the last sync
/// from `GET /v1/sync`; ``run()`` (or ``Configuration/autoRefresh``) keeps the cache fresh:
/// on launch, when the next publication is due, and on the server's publication events.
///
/// ```swift
/// let client = try RatesClient(configuration: .init(
///     server: URL(string: "https://rates.example.com")!,
///     cacheURL: URL(fileURLWithPath: "/var/cache/app/rates.sqlite")))
/// _ = try await client.sync()                       // offline is a report, not an error
/// let usd = CurrencyCode("USD")!
/// let conversion = try client.convert(100, from: usd, to: .euro)
/// print(conversion.result, conversion.date)         // 89.509488 2026-10-30
/// ```
///
/// One client per cache file: its observations see its own writes. Another process syncing
/// the same file is seen by reads within a second, not by observations.
public final class RatesClient: Sendable {
    /// The configuration the client was created with.
    public let configuration: Configuration
    let cache: RatesCache
    let engine: SyncEngine
    let transport: HTTPTransport
    let now: @Sendable () -> Date
    let refreshLeases: RefreshLeases

    /// Opens (creating if needed) the cache file; touches no network. A cache that never synced
    /// gets ``Configuration/bundledRates``, so that reads and conversions answer at once, offline.
    ///
    /// Throws ``RatesClientError/cacheUnavailable(path:reason:)`` when the file cannot be
    /// opened or migrated.
    ///
    /// ```swift
    /// let client = try RatesClient(configuration: .init(server: serverURL, cacheURL: cacheURL))
    /// ```
    public convenience init(configuration: Configuration) throws {
        try self.init(configuration: configuration, transport: .urlSession(configuration.session), now: { Date() })
    }

    /// The designated initializer; tests inject the transport and the clock.
    init(configuration: Configuration, transport: HTTPTransport, now: @escaping @Sendable () -> Date) throws {
        self.configuration = configuration
        self.now = now
        self.transport = transport
        cache = try RatesCache(url: configuration.cacheURL)
        engine = SyncEngine(cache: cache, configuration: configuration, transport: transport, now: now)
        refreshLeases = RefreshLeases()
        if let bundled = configuration.bundledRates { try cache.installBundled(bundled) }
    }

    /// The snapshot this SDK ships (``Configuration/bundledRates``' default): the newest publication
    /// as of its release, every currency with its source, made by `rates-relay export --snapshot`
    /// (Scripts/bundle-rates.sh); `nil` if the resource cannot be read.
    public static let shippedRates: Data? = Bundle.module.url(forResource: "bundled-rates", withExtension: "json").flatMap { try? Data(contentsOf: $0) }

    // MARK: - Sync

    /// Pulls every pending page from the server into the cache.
    ///
    /// Each page is applied in one transaction with its cursor; a snapshot (first sync, server
    /// reset, window change) replaces the data atomically with its last page. Being offline
    /// (no response, 5xx, 503) is reported as ``SyncReport/Outcome/offline(_:)``, after the
    /// configured retries; the cache stays intact. Calls made while a sync runs join it.
    ///
    /// Throws a ``RatesClientError`` only for what the app must fix (credentials, wrong server,
    /// an unreadable answer) and `CancellationError` when cancelled.
    ///
    /// ```swift
    /// let report = try await client.sync()
    /// print(report.outcome, report.pagesApplied, report.latestDate?.description ?? "-")
    /// ```
    @discardableResult
    public func sync() async throws -> SyncReport {
        try await engine.sync()
    }

    /// Syncs only when ``status()`` says the cache is stale; `nil` when it was fresh.
    ///
    /// ```swift
    /// if let report = try await client.refreshIfStale() { print(report.outcome) }
    /// ```
    @discardableResult
    public func refreshIfStale() async throws -> SyncReport? {
        guard try status().isStale else { return nil }
        return try await sync()
    }

    /// How fresh the cache is, and whether its rates are behind; reads only the cache (and the clock).
    ///
    /// The rates are behind when the server said at the last sync that its own data was stale,
    /// or when, by this device's clock and the ``RatesCore/PublicationSchedule``, a newer
    /// publication than the cached latest day should be out by now.
    ///
    /// ```swift
    /// let status = try client.status()
    /// print(status.latestDate?.description ?? "never synced", status.isBehind ? "(behind)" : "")
    /// ```
    public func status() throws -> CacheStatus {
        let state = try cache.state()
        let range = try cache.dayRange()
        let current = now()
        let latest = range?.upperBound
        let windowChanged = state.window != configuration.window?.description
        let dueByCalendar = PublicationSchedule.ecbReferenceRates.latestPublication(asOf: current)
        let expected = max(dueByCalendar, state.expectedLatestDate.flatMap { Day($0) } ?? dueByCalendar)
        let isStale = state.lastSuccessfulSync == nil || state.snapshotInProgress || windowChanged
            || state.nextUpdateAfter.map { current >= $0 } ?? true
        let isBehind = state.serverStale == true || latest.map { $0 < expected } ?? true
        return CacheStatus(
            lastSuccessfulSync: state.lastSuccessfulSync, latestDate: latest, firstDate: range?.lowerBound,
            nextUpdateAfter: state.nextUpdateAfter, isStale: isStale, epoch: state.epoch, snapshotInProgress: state.snapshotInProgress,
            window: state.window.flatMap { Day($0) }, expectedLatestDate: expected, serverReportedStale: state.serverStale, isBehind: isBehind,
            isBundled: state.bundled)
    }

    // MARK: - Endpoints

    /// A GET of `path` (under the server root) as the client sends each request: past any local HTTP
    /// cache, within the request timeout, with the API key.
    static func request(_ path: String, query: [URLQueryItem] = [], accept: String, configuration: Configuration) -> URLRequest {
        var request = URLRequest(url: endpoint(path, on: configuration.server, query: query))
        request.httpMethod = "GET"
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = configuration.requestTimeout.seconds
        request.setValue(accept, forHTTPHeaderField: "Accept")
        if let apiKey = configuration.apiKey { request.setValue(apiKey, forHTTPHeaderField: configuration.apiKeyHeader) }
        return request
    }

    /// `path` resolved under the server root, keeping any path prefix (`https://host/rates/` → `https://host/rates/v1/sync`).
    static func endpoint(_ path: String, on server: URL, query: [URLQueryItem] = []) -> URL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: true) ?? URLComponents()
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + "/" + path
        components.queryItems = query.isEmpty ? nil : query
        return components.url ?? server.appendingPathComponent(path)
    }
}
