import Foundation
import Hummingbird
import NIOCore
import RatesCore
import RatesIngest
import RatesStore
import RatesUpstream

/// The public JSON endpoints: rates, conversion, currencies, status, health and the contract.
///
/// Data answers are built from the current `RatesSnapshot`, stored per request target and
/// generation in the `ResponseCache`, and carry the `ETag` of the data and its freshness (304 on
/// `If-None-Match`) and a `Cache-Control` that expires at the next expected publication.
///
/// Frankfurter's APIs and exchangerate.host's answer here too, each route's errors in its API's
/// shape (``Problem/response(for:)``): Frankfurter's v2 API under `/v2`, for its existing clients
/// (change the base URL only), has its data routes here: `/v2/rates` (and `/v2/rates.csv`),
/// `/v2/rate/{base}/{quote}`, `/v2/currencies`, `/v2/currency/{code}` and `/v2/providers/{key}/rates`
/// (which is `/v2/rates?providers={key}`), prepared answers like ours, built by
/// ``DataAnswers/frankfurterV2Answer(_:parameter:query:snapshot:format:)``; its `/v2/providers`
/// routes are ``ProvidersController``'s.
struct RatesController<Context: RequestContext>: Sendable {
    let state: ServerState
    let cache: ResponseCache
    let configuration: ServerConfiguration
    let openAPIDocument: ByteBuffer
    let cachePolicy: CacheControlPolicy
    let answers: DataAnswers
    /// This replica's role among several on one PostgreSQL database; `nil` on its own database.
    let role: FetcherRole?
    /// The permits heavy answers are built under.
    let permits: AnswerPermits

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        // Every data route, `/v2/providers/{key}/rates` too (built by DataAnswers, never on the fast path); its
        // path parameters as one, joined by `/` (`/v2/rate/EUR/USD` gives `EUR/USD`), as the fast path reads them.
        for route in Route.allCases where DataAnswers.routes.contains(route) || route == .v2ProviderRates {
            let names = route.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
            routes.on(route) { request, context in
                let parameter = names.isEmpty ? nil : names.map { context.parameters.get($0) ?? "" }.joined(separator: "/")[...]
                return try await answering(request) { try answer(request, route: route, parameter: parameter) }
            }
        }
        routes.on(.status) { request, _ in status(request) }
        routes.on(.health) { _, _ in jsonResponse(status: .ok) { $0.field("status", string: "ok") } }
        routes.on(.readiness) { _, _ in try ready() }
        routes.on(.contract) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml", .cacheControl: "no-cache"], body: .init(byteBuffer: openAPIDocument))
        }
        return routes
    }

    /// `answer`, the answer to `request`, made so that a read of the database it needs blocks no
    /// thread that other requests share: answers from the providers' quotes (`providers=`,
    /// `expand=sources`) wait for the store through ``RatesStore/offloaded(_:)``; every other
    /// answer comes from memory and is made right here.
    func answering(_ request: Request, _ answer: @escaping @Sendable () throws -> Response) async throws -> Response {
        let query = request.uri.queryParameters
        guard let store = answers.quotes?.store, query["providers"] != nil || query["expand"] != nil else { return try answer() }
        return try await store.offloaded(answer)
    }

    // MARK: - Operational endpoints

    func status(_ request: Request) -> Response {
        let snapshot = state.snapshot
        // The fetch fields are the reference source's (the ECB's); /v1/providers describes every source's.
        let source = ProviderRegistry.entries[0]
        let fetch = state.providerStatus[source.key] ?? ServerState.ProviderStatus()
        let freshness = cachePolicy.freshness(of: snapshot, confirmed: state.isDataConfirmed)
        let body = JSONWriter.object { json in
            json.field("source", string: source.key)
            json.field("base", string: snapshot.base.rawValue)
            json.field("upstreamURL", string: configuration.upstreamURL(of: source.key) ?? "")
            json.field("epoch", string: snapshot.epoch)
            json.field("datasetVersion", number: String(snapshot.version))
            json.field("firstDate", optionalString: snapshot.firstDay?.description)
            json.field("latestDate", optionalString: snapshot.latest?.day.description)
            json.field("days", number: String(snapshot.days.count))
            json.field("expectedLatestDate", string: freshness.expected.description)
            json.field("stale", bool: freshness.isStale)
            json.field("dataOrigin", string: snapshot.isEmpty ? "empty" : (state.dataOrigin?.rawValue ?? "upstream"))
            if let run = fetch.lastRun {
                json.field("lastFetch") { json in
                    json.field("startedAt", string: run.startedAt.formatted(.iso8601))
                    json.field("finishedAt", string: run.finishedAt.formatted(.iso8601))
                    json.field("file", string: run.file)
                    json.field("httpStatus", number: run.httpStatus.map(String.init) ?? "null")
                    json.field("outcome", string: run.outcome.rawValue)
                    json.field("detail", optionalString: run.detail)
                    json.field("rowsChanged", number: String(run.rowsChanged))
                }
            } else {
                json.field("lastFetch", number: "null")
            }
            json.field("lastSuccessfulFetchAt", optionalString: fetch.lastSuccessfulFetchAt?.formatted(.iso8601))
            json.field("nextFetchAt", optionalString: configuration.schedule ? fetch.nextFetchAt?.formatted(.iso8601) : nil)
            json.field("fetching", bool: fetch.fetching)
            json.field("refreshesWaiting", number: String(fetch.refreshesWaiting))
            // The newest values the consensus check left out; /v1/providers lists them per provider.
            json.field("replicaRole", string: role.map { $0.isHeld ? "fetcher" : "follower" } ?? "single")
            json.field("consensusExclusions", array: Array(state.consensusExclusions.suffix(ConsensusExclusionWriter.shownInStatus).reversed())) { json, exclusion in
                json.object { json in ConsensusExclusionWriter.write(exclusion, into: &json) }
            }
        }
        return PreparedAnswer(requestHeaders: request.headers, uncachedBody: body).response
    }

    /// Ready while the rates held are as current as this replica can know: not while they are the
    /// bundled seed's and the fetches it makes at start are out (those are about to say how old the
    /// seed is; ``ServerState/isSeedAwaitingStartFetches``), and not when the database has stopped
    /// answering and a publication is due since (another replica may have it, so a load balancer
    /// should ask that one). While the database is down and nothing new is due, the rates in memory
    /// are current and answered as usual.
    func ready() throws(Problem) -> Response {
        let snapshot = state.snapshot
        guard let latest = snapshot.latest else { throw Problem.noData }
        if state.isSeedAwaitingStartFetches { throw Problem.seedAwaitingFirstFetch(latest: latest.day) }
        let unreachableSince = state.databaseUnreachableSince
        if let unreachableSince {
            let freshness = cachePolicy.freshness(of: snapshot, confirmed: state.isDataConfirmed)
            if freshness.isBehind { throw Problem.databaseUnreachable(since: unreachableSince, expected: freshness.expected) }
        }
        return jsonResponse(status: .ok) { json in
            json.field("status", string: "ready")
            json.field("latestDate", string: latest.day.description)
            json.field("database", string: unreachableSince == nil ? "reachable" : "unreachable")
        }
    }

    // MARK: - Helpers

    /// A data answer: the cached body for this request and generation, with validators; else
    /// built by ``DataAnswers``, under a permit when heavy (``AnswerPermits``: `503` when none is
    /// free), then stored, or streamed when it is a large range (``SegmentedBody``).
    func dataResponse(_ request: Request, route: Route, parameter: Substring? = nil) throws(Problem) -> Response {
        let snapshot = state.snapshot
        guard !snapshot.isEmpty else { throw Problem.noData }
        let freshness = cachePolicy.freshness(of: snapshot, confirmed: state.isDataConfirmed)
        let format = route.negotiatesFormat ? AnswerFormat.negotiated(request.headers[values: .accept]) : .json
        let acceptsGzip = PreparedAnswer.acceptsGzip(request.headers[values: .acceptEncoding])
        let ifNoneMatch = request.headers[.ifNoneMatch]
        let key = ResponseCache.key(of: request, format: format)
        if let cached = cache.cached(for: key, generation: freshness.generation, gzip: acceptsGzip) {
            return PreparedAnswer(ifNoneMatch: ifNoneMatch, acceptsGzip: acceptsGzip, entry: cached, freshness: freshness, policy: cachePolicy).response
        }
        cache.metrics?.recordCacheLookup(hit: false)
        let query = QueryParameters(request: request)
        let isCheap = answers.isCheap(route, parameter: parameter, query: query)
        let permit = isCheap ? nil : permits.acquire()
        guard isCheap || permit != nil else { throw Problem.busy }
        do {
            let built = try answers.built(route, parameter: parameter, query: query, snapshot: snapshot, freshness: freshness, format: format)
            if let streamed = built.streamed {
                let empty = built.entry(body: ByteBuffer())
                let head = PreparedAnswer(
                    ifNoneMatch: ifNoneMatch, acceptsGzip: acceptsGzip, entry: empty, freshness: freshness, policy: cachePolicy, streaming: true)
                return streamed.response(head: head, permit: permit)
            }
            let entry = cache.insert(try built.entry(), for: key, generation: freshness.generation, gzip: acceptsGzip)
            permit?.release()
            return PreparedAnswer(ifNoneMatch: ifNoneMatch, acceptsGzip: acceptsGzip, entry: entry, freshness: freshness, policy: cachePolicy).response
        } catch {
            permit?.release()
            throw error
        }
    }

    /// A data route's answer (``dataResponse(_:route:parameter:)``), another API's errors in its shape
    /// (``Problem/response(for:)``). A path segment not written as dates is not one of Frankfurter's
    /// routes: that is our 404 problem, as for any unknown path.
    func answer(_ request: Request, route: Route, parameter: Substring?) throws(Problem) -> Response {
        if route == .frankfurterDates || route == .legacyDates, let parameter, !DataAnswers.isFrankfurterDates(parameter) {
            throw Problem.noEndpoint(request.method, request.uri.path)
        }
        do {
            return try dataResponse(request, route: route, parameter: parameter)
        } catch where route.isCompatibility || route.isFrankfurterV2 {
            return error.response(for: route)
        }
    }

    func jsonResponse(status: HTTPResponse.Status, _ fields: (inout JSONWriter) -> Void) -> Response {
        let body = JSONWriter.object(fields)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-cache"], body: .init(byteBuffer: body))
    }
}
