import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import RatesCore
import RatesIngest
import RatesStore
import RatesUpstream
import ServiceLifecycle

/// Builds the server: opens the database, seeds it when it holds none of the ECB's publications
/// (``ServerParts``), and wires the router (``buildRouter(_:configuration:)``) and the background
/// services (``backgroundServices(_:configuration:logger:)``).
///
/// Start-up work that must finish before the first request (opening, seeding and loading the
/// dataset) runs here, before the application exists; the fetch schedulers and the change-log
/// follower are services of the application.
///
/// - Throws: When the database cannot be opened or migrated.
public func buildApplication(_ configuration: ServerConfiguration, logger: Logger) throws -> some ApplicationProtocol {
    let parts = try ServerParts(configuration, logger: logger)
    let router = buildRouter(parts, configuration: configuration)
    // Prepared answers skip the application when no middleware has a say in them (see FastPath).
    let fastPath = configuration.apiKeys.isEmpty && configuration.rateLimit == nil
        ? FastPath(
            state: parts.state, cache: parts.cache, answers: parts.answers, cachePolicy: parts.cachePolicy, metrics: parts.metrics,
            cors: CORSPolicy(configuration), configuration: configuration) : nil
    let headerLimits = HTTP1Channel.Configuration.DecoderConfiguration(
        maxHeaderFieldSize: configuration.maxHeaderBytes, maxHeaderListSize: configuration.maxHeaderBytes, maxHeaderFieldCount: 100)
    let connections = ApplicationConnections()
    var app = Application(
        router: router,
        server: HTTPServerBuilder { responder in
            FastPathHTTP1Channel(
                base: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: nil, httpDecoderConfiguration: headerLimits)),
                fastPath: fastPath, idleTimeout: TimeAmount(configuration.idleTimeout), connections: connections)
        },
        // A deep accept queue: a burst of new connections (clients reconnecting together) waits
        // to be accepted instead of being dropped; the kernel caps it at net.core.somaxconn.
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "rates-relay", backlog: 4096),
        logger: logger)
    // The request loops' service shuts down after the server (the application's last service).
    app.addServices(connections)
    app.addServices(backgroundServices(parts, configuration: configuration, logger: logger))
    return app
}

/// What the router and the services share: the dataset, its store and ingest, each source's
/// fetch coordinator, the prepared answers and the metrics.
struct ServerParts {
    let store: RatesStore
    let state: ServerState
    let ingestor: Ingestor
    let metrics = ServerMetrics()
    let httpClient = ProviderClient.makeHTTPClient()
    /// Each source fetched, with its coordinator (fetched on its schedule or only when refreshed) and schedule.
    let sources: [(coordinator: FetchCoordinator, schedule: PublicationSchedule)]
    /// This replica's role when replicas share one PostgreSQL database: one fetches, the others hand it their refreshes.
    let role: FetcherRole?
    let cache: ResponseCache
    let cachePolicy: CacheControlPolicy
    let answers: DataAnswers
    let permits: AnswerPermits

    init(_ configuration: ServerConfiguration, logger: Logger) throws {
        // Neither the server nor a scheduler can run before this, so neither ever sees a
        // half-initialized state; on an existing database loading is one read.
        store = try configuration.openStore(logger: logger)
        state = try ServerState(loadingFrom: store)
        ingestor = Ingestor(store: store, state: state, logger: logger)
        if configuration.seed { try SeedData.seedIfNoECB(ingestor, now: configuration.now(), logger: logger) }
        // Loading read every stored row once; what that took is free again.
        ingestor.returnFreedMemory()
        let fetches = UpstreamFetches(configuration.fetchSettings, ingestor: ingestor, httpClient: httpClient, logger: logger, recordOutcome: metrics.recordFetch)
        sources = fetches.all.map { [state] in (FetchCoordinator($0.fetch, state: state), $0.schedule) }
        role = FetcherRole(store: store, forwardTimeout: configuration.upstreamTimeout * 2 + .seconds(30))
        cache = ResponseCache(capacity: configuration.answerCacheBytes, metrics: metrics)
        let schedule = ProviderRegistry.referenceSchedule
        cachePolicy = CacheControlPolicy(schedule: schedule, now: configuration.now)
        answers = DataAnswers(schedule: schedule, configuration: configuration, quotes: ProviderQuotes(store: store, policy: ingestor.mergePolicy))
        permits = AnswerPermits(limit: configuration.heavyAnswerConcurrency, metrics: metrics)
    }

    /// Every source's coordinator: what `POST /v1/admin/refresh` refreshes.
    var coordinators: FetchCoordinators { FetchCoordinators(sources.map(\.coordinator), role: role) }
}

/// The routes and their middleware.
func buildRouter(_ parts: ServerParts, configuration: ServerConfiguration) -> Router<RatesRequestContext> {
    let router = Router(context: RatesRequestContext.self, options: .autoGenerateHeadEndpoints)
    // Outermost first: count every answer, tag it with its request ID, answer preflights and let
    // the pages the CORS policy allows read every answer (errors included), turn errors into
    // problems, then check access.
    router.add(middleware: RequestMetricsMiddleware(metrics: parts.metrics))
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: CORSPolicyMiddleware(policy: CORSPolicy(configuration)))
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: AccessMiddleware(
        maxURILength: configuration.maxURILength, maxBodyBytes: configuration.maxBodyBytes, apiKeys: configuration.apiKeys,
        rateLimiter: configuration.rateLimit.map { RateLimiter(rate: $0, burst: configuration.rateLimitBurst) }))
    let schedule = ProviderRegistry.referenceSchedule
    let ingestor = parts.ingestor
    router.addRoutes(RatesController<RatesRequestContext>(
        state: parts.state, cache: parts.cache, configuration: configuration, openAPIDocument: OpenAPIDocument.bytes,
        cachePolicy: parts.cachePolicy, answers: parts.answers, role: parts.role, permits: parts.permits).endpoints)
    router.addRoutes(
        SyncController(
            store: parts.store, state: parts.state, cache: parts.cache, schedule: schedule, configuration: configuration,
            metrics: parts.metrics, cachePolicy: parts.cachePolicy, catchUp: { _ = try? ingestor.catchUp() }
        ).endpoints)
    router.addRoutes(ProvidersController<RatesRequestContext>(
        store: parts.store, quotes: ProviderQuotes(store: parts.store, policy: ingestor.mergePolicy), state: parts.state,
        configuration: configuration, fetched: Set(parts.sources.map(\.coordinator.provider))).endpoints)
    router.addRoutes(MetricsController(metrics: parts.metrics, state: parts.state, schedule: schedule, configuration: configuration).endpoints)
    router.addRoutes(AdminController(token: configuration.adminToken, coordinators: parts.coordinators, refreshWait: configuration.adminRefreshWait).endpoints)
    router.addRoutes(WebController(assets: WebAssets.bundled).endpoints)
    return router
}

/// The background services: the HTTP client's shutdown, the change-log follower, the event streams'
/// keep-alive, and a fetch scheduler per source (when `schedule` is on), run on whichever replica
/// holds the fetcher role.
///
/// The state learns here which sources are fetched from the start (none when `schedule` is off):
/// readiness on the bundled seed waits for each one's first pass (``ServerState/isSeedAwaitingStartFetches``).
func backgroundServices(_ parts: ServerParts, configuration: ServerConfiguration, logger: Logger) -> [any Service] {
    let services: [any Service] = [
        HTTPClientService(client: parts.httpClient), ChangeLogFollower(ingestor: parts.ingestor, logger: logger),
        EventStreamKeepAlive(events: parts.state.events),
    ]
    let scheduled = configuration.schedule ? parts.sources : []
    parts.state.expectStartFetches(of: scheduled.map(\.coordinator.provider))
    let schedulers: [any Service] = scheduled.map { source in
        FetchScheduler(
            coordinator: source.coordinator, ingestor: parts.ingestor, schedule: source.schedule, timing: configuration.fetchTiming,
            now: configuration.now, logger: logger)
    }
    guard let role = parts.role else { return services + schedulers }
    // Without a schedule the role still carries out refreshes.
    return services + [FetcherRoleService(role: role, schedulers: schedulers, coordinators: parts.coordinators, state: parts.state, logger: logger)]
}

/// Shuts the shared HTTP client down when the application stops.
struct HTTPClientService: Service {
    let client: HTTPClient

    func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}

/// The contract, `openapi.yaml`, as written, bundled with the binary.
enum OpenAPIDocument {
    static let bytes: ByteBuffer = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"), let data = try? Data(contentsOf: url) else {
            return ByteBuffer(string: "openapi.yaml is missing from this build\n")
        }
        return ByteBuffer(bytes: data)
    }()
}
