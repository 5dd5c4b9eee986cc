import Foundation
import Logging
import RatesCore
import RatesIngest
import RatesStore
import RatesUpstream

/// Everything `buildApplication` needs to know.
///
/// `rates-relay serve` fills it with ``init(reading:)`` from flags, environment variables and an
/// optional JSON config file (``keys`` lists every setting; README's Configuration table
/// documents them); tests set the properties directly. Settings not read from outside
/// (poll timing, retry delays, limits, the clock) keep the defaults given here.
public struct ServerConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// The database (`db`, or `database.url`): an SQLite file's path, or a `postgres://` URL that
    /// several replicas share (``RatesStore/RatesStore/init(location:passwordFile:)``).
    public var database: String = "rates.sqlite"
    /// A file holding the PostgreSQL password (`db.password.file`), e.g. a mounted secret.
    public var databasePasswordFile: String?
    /// The directory of the ECB's files (`upstream.url`).
    public var upstreamURL: String = ECBProvider.defaultBaseURL
    /// Where each provider's requests go instead of its own servers, by provider key (`upstream`):
    /// the ECB's apply to the files in `upstreamURL`.
    public var upstreamOverrides: [String: UpstreamOverride] = [:]
    /// Bearer token for operator endpoints; `nil` turns them off.
    public var adminToken: String?
    /// How long `POST /v1/admin/refresh` waits for its fetches before it answers `202 Accepted`
    /// while they go on (`admin.refresh.wait`): shorter than the timeouts of clients and proxies.
    public var adminRefreshWait: Duration = .seconds(5)
    /// Whether a database holding none of the ECB's publications (an empty one, or one holding only
    /// other providers') is seeded from the ECB history bundled with the binary.
    public var seed: Bool = true
    /// Whether fetches run on the publication schedule (otherwise only on request).
    public var schedule: Bool = true
    /// Time between polls while a due publication has not appeared: a minute, so a publication
    /// reaches clients within one of appearing; each poll is a conditional GET (a `304` while nothing changed).
    public var pollInterval: Duration = .seconds(60)
    /// How long after the expected publication time polling goes on before waiting for the next one.
    public var pollWindow: Duration = .seconds(8 * 3600)
    /// First delay after a failed fetch; it doubles per failure, with jitter, up to `maxRetryDelay`.
    public var retryDelay: Duration = .seconds(30)
    public var maxRetryDelay: Duration = .seconds(1800)
    /// Limit for one upstream request, body included.
    public var upstreamTimeout: Duration = .seconds(60)
    /// Largest upstream body accepted; a larger one fails the fetch (the full history XML is about 6 MB).
    public var upstreamMaxBodyBytes = 32 << 20
    /// Browser origins allowed by CORS (`https://app.example.com`), or `["*"]` for any; empty: any
    /// origin while `apiKeys` is empty, none once keys are set (see `CORSPolicy`).
    public var corsOrigins: [String] = []
    /// Client API keys; when any are set, the `/v1/` data endpoints require one in `X-API-Key`.
    public var apiKeys: Set<String> = []
    /// Sustained requests per second each client (its API key, else its IP address) may send to `/v1/`; `nil`: no limit.
    public var rateLimit: Double?
    /// Requests a client may send at once before `rateLimit` applies.
    public var rateLimitBurst: Int = 60
    /// Bytes of prepared answers kept between requests (`answers.cache.bytes`): the bound of
    /// ``ResponseCache``, whose least recently used answers make room one at a time.
    public var answerCacheBytes = ResponseCache.defaultCapacity
    /// Heavy answers built at once (`answers.heavy.concurrency`): long ranges and answers from the
    /// providers' quotes when not cached (``AnswerPermits``); past it a request gets 503 with `Retry-After`.
    public var heavyAnswerConcurrency = AnswerPermits.defaultLimit
    /// The most values (a currency on a day, or a v2 record) one answer carries (`answers.max.values`);
    /// a request for more gets 422 (``Problem/answerTooLarge(values:limit:parameter:)``) and asks in pages.
    public var maxAnswerValues = 2_000_000
    /// Open `/v1/events` streams allowed at once (`events.max.subscribers`); past it a subscriber gets
    /// 503 with `Retry-After` and polls `/v1/sync` instead.
    public var maxEventSubscribers = 10_000
    /// Longest request target (path and query) accepted; longer ones get 414.
    public var maxURILength = 2048
    /// Largest request body accepted; a larger one gets 413 and the connection is closed. No
    /// endpoint reads a body, so this only bounds what a client can make the server read.
    public var maxBodyBytes = 64 * 1024
    /// Longest request header block accepted; a larger one closes the connection.
    public var maxHeaderBytes = 16 * 1024
    /// Connections idle this long are closed, so idle or stalled clients cannot hold them.
    public var idleTimeout: Duration = .seconds(60)
    /// Lowest level logged.
    public var logLevel: Logger.Level = .info
    /// Log lines as text (`text`) or one JSON object a line (`json`).
    public var logFormat: LogFormat = .text
    /// The providers fetched besides the reference source (the ECB, always fetched), by key (`NBP`,
    /// `BDI`, …): on their schedule when `schedule` is on, and by `POST /v1/admin/refresh`. Empty
    /// here; `rates-relay serve` enables every provider that needs no API key unless told otherwise.
    public var providers: [String] = []
    /// API keys of providers that need one (`FRED`, `BANXICO`, `BOT`, `BAM`, `BCCH`), by provider key.
    public var providerAPIKeys: [String: String] = [:]
    /// The longest wait between two scheduled fetches of a source: each is fetched after its
    /// expected publication times, and at least this often in case it publishes off its schedule.
    public var providerMaxInterval: Duration = .seconds(6 * 3600)
    /// How many days back a provider with nothing stored is fetched the first time (as far as it
    /// offers; 0: only its newest publication).
    public var providerBackfillDays = 30
    /// The clock; tests set a fixed instant.
    public var now: @Sendable () -> Date = { Date() }

    /// How log lines are written.
    public enum LogFormat: String, Sendable, CaseIterable {
        case text, json
    }

    public init() {}
}

extension ServerConfiguration {
    /// The latest day any client may ask for: today in the earliest time zone (UTC+14).
    var today: Day { Day(containing: now(), utcOffset: 14 * 3600) }

    /// What the fetches of the enabled sources need to know. `upstreamURL` is the ECB's directory
    /// (the setting `upstream.url`, kept for configurations written before `upstream` took one per source).
    public var fetchSettings: FetchSettings {
        FetchSettings(
            providers: providers, apiKeys: providerAPIKeys, baseURLs: [ProviderKey.ecb: upstreamURL], overrides: upstreamOverrides,
            timeout: upstreamTimeout, maxBodyBytes: upstreamMaxBodyBytes, backfillDays: providerBackfillDays, now: now)
    }

    /// Where the requests of the source `key` go when its endpoint base is configured (the ECB's always is), overrides applied.
    func upstreamURL(of key: String) -> String? {
        fetchSettings.baseURLs[key].map { upstreamOverrides[key]?.apply(to: $0) ?? $0 }
    }

    /// When the schedulers poll and back off.
    var fetchTiming: FetchScheduler.Timing {
        FetchScheduler.Timing(
            pollInterval: pollInterval, pollWindow: pollWindow, retryDelay: retryDelay, maxRetryDelay: maxRetryDelay, maxInterval: providerMaxInterval)
    }

    /// Opens the configured database (migrating it when needed); PostgreSQL's connections log to `logger`.
    ///
    /// - Throws: When it cannot be opened or migrated.
    public func openStore(logger: Logger) throws -> RatesStore {
        try RatesStore(location: database, passwordFile: databasePasswordFile, logger: logger)
    }
}
