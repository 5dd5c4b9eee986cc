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

/// Builds the server: opens the database, seeds it if empty, and wires routes, cache and scheduler.
///
/// Start-up work that must finish before the first request (opening, seeding and loading the
/// dataset) runs here, before the application exists; the fetch scheduler and the change-log
/// follower are services of the application.
///
/// - Throws: When the database cannot be opened or migrated.
public func buildApplication(_ configuration: ServerConfiguration, logger: Logger) throws -> some ApplicationProtocol {
    // Neither the server nor the scheduler can run before this, so neither ever sees a
    // half-initialized state; on an existing database loading is one read.
    let store = try configuration.openStore(logger: logger)
    let state = try ServerState(loadingFrom: store)
    let ingestor = Ingestor(store: store, state: state, logger: logger)
    if configuration.seed { try SeedData.seedIfEmpty(ingestor, now: configuration.now(), logger: logger) }
    // Loading read every stored row once; what that took is free again.
    Allocator.returnFreedMemory()
    let calendar = PublicationCalendar()
    let httpClient = ECBClient.makeHTTPClient()
    let metrics = ServerMetrics()
    let fetches = UpstreamFetches(configuration, ingestor: ingestor, httpClient: httpClient, calendar: calendar, logger: logger, recordOutcome: metrics.recordFetch)
    // Each source gets a coordinator, fetched on its schedule or only when refreshed.
    let ecb = FetchCoordinator(fetches.ecb, state: state)
    let providers = fetches.providers.map { (coordinator: FetchCoordinator($0.fetch, state: state), schedule: $0.schedule) }

    // Replicas on one PostgreSQL database: one fetches, the others hand it their refreshes.
    let role = FetcherRole(store: store, forwardTimeout: configuration.upstreamTimeout * 2 + .seconds(30))

    let knownPaths = Route.knownPaths
    let router = Router(context: RatesRequestContext.self, options: .autoGenerateHeadEndpoints)
    // Outermost first: count every answer, tag it with its request ID, answer preflights and let
    // the pages the CORS policy allows read every answer (errors included), turn errors into
    // problems, then check access.
    let cors = CORSPolicy(configuration)
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: CORSPolicyMiddleware(policy: cors))
    router.add(middleware: ProblemMiddleware(knownPaths: knownPaths))
    router.add(middleware: AccessMiddleware(
        maxURILength: configuration.maxURILength, maxBodyBytes: configuration.maxBodyBytes, apiKeys: configuration.apiKeys,
        rateLimiter: configuration.rateLimit.map { RateLimiter(rate: $0, burst: configuration.rateLimitBurst) }))
    let cache = ResponseCache(capacity: configuration.answerCacheBytes, metrics: metrics)
    let cachePolicy = CacheControlPolicy(calendar: calendar, now: configuration.now)
    let answers = DataAnswers(calendar: calendar, configuration: configuration, quotes: ProviderQuotes(store: store, policy: ingestor.mergePolicy))
    let ratesController = RatesController<RatesRequestContext>(
        state: state, cache: cache, calendar: calendar, configuration: configuration, openAPIDocument: OpenAPIDocument.bytes,
        cachePolicy: cachePolicy, answers: answers, role: role)
    router.addRoutes(ratesController.endpoints)
    router.addRoutes(
        SyncController(
            store: store, state: state, cache: cache, events: state.events, calendar: calendar, configuration: configuration, metrics: metrics,
            cachePolicy: cachePolicy, catchUp: { _ = try? ingestor.catchUp() }
        ).endpoints)
    let providersController = ProvidersController<RatesRequestContext>(store: store, state: state, configuration: configuration, fetched: fetches.keys)
    router.addRoutes(providersController.endpoints)
    router.addRoutes(FrankfurterV2Controller(rates: ratesController, providers: providersController).endpoints)
    router.addRoutes(MetricsController(metrics: metrics, state: state, calendar: calendar, configuration: configuration).endpoints)
    let coordinators = FetchCoordinators([ecb] + providers.map(\.coordinator), role: role)
    router.addRoutes(AdminController(token: configuration.adminToken, coordinators: coordinators).endpoints)
    router.addRoutes(WebController(assets: WebAssets.bundled).endpoints)

    // Prepared answers skip the application when no middleware has a say in them (see FastPath).
    let fastPath = configuration.apiKeys.isEmpty && configuration.rateLimit == nil
        ? FastPath(
            state: state, cache: cache, answers: answers, cachePolicy: cachePolicy, metrics: metrics, cors: cors, configuration: configuration) : nil
    let headerLimits = HTTP1Channel.Configuration.DecoderConfiguration(
        maxHeaderFieldSize: configuration.maxHeaderBytes, maxHeaderListSize: configuration.maxHeaderBytes, maxHeaderFieldCount: 100)
    var app = Application(
        router: router,
        server: HTTPServerBuilder { responder in
            FastPathHTTP1Channel(
                base: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: nil, httpDecoderConfiguration: headerLimits)),
                fastPath: fastPath, idleTimeout: TimeAmount(configuration.idleTimeout))
        },
        // A deep accept queue: a burst of new connections (clients reconnecting together) waits
        // to be accepted instead of being dropped; the kernel caps it at net.core.somaxconn.
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "rates-relay", backlog: 4096),
        logger: logger)
    app.addServices(HTTPClientService(client: httpClient), ChangeLogFollower(ingestor: ingestor, logger: logger))
    var schedulers: [any Service] = []
    if configuration.schedule {
        let timing = FetchScheduler.Timing(
            pollInterval: configuration.pollInterval, pollWindow: configuration.pollWindow, retryDelay: configuration.retryDelay,
            maxRetryDelay: configuration.maxRetryDelay)
        schedulers.append(FetchScheduler(coordinator: ecb, ingestor: ingestor, calendar: calendar, timing: timing, now: configuration.now, logger: logger))
        for (coordinator, schedule) in providers {
            schedulers.append(
                ProviderFetchScheduler(
                    coordinator: coordinator, ingestor: ingestor, schedule: schedule, timing: timing, maxInterval: configuration.providerMaxInterval,
                    now: configuration.now, logger: logger))
        }
    }
    if let role {
        // The schedulers run on whichever replica holds the role; without a schedule it still carries out refreshes.
        app.addServices(FetcherRoleService(role: role, schedulers: schedulers, coordinators: coordinators, logger: logger))
    } else {
        for scheduler in schedulers { app.addServices(scheduler) }
    }
    return app
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
