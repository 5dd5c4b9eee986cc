import Foundation
import Hummingbird
import NIOCore
import RatesCore
import RatesIngest
import RatesStore
import ServiceLifecycle

/// The delta-sync feed (`GET /v1/sync`) and publication events (`GET /v1/events`).
///
/// Without a cursor a client gets the full state for its window, paged by whole days; with
/// one, only what changed since, coalesced per (day, currency), withdrawals as tombstones.
/// A cursor from another epoch (the database was rebuilt) or below the retention floor gets
/// `reset: true` and a new snapshot. Answers are cached per request target and generation
/// (the dataset version and its freshness); an up-to-date client gets 304.
struct SyncController<Context: RequestContext>: Sendable {
    let store: RatesStore
    let state: ServerState
    let cache: ResponseCache
    let schedule: PublicationSchedule
    let configuration: ServerConfiguration
    let metrics: ServerMetrics?
    let cachePolicy: CacheControlPolicy
    /// Applies what another replica committed and this one has not applied yet (``RatesIngest/Ingestor/catchUp()``).
    let catchUp: @Sendable () -> Void
    /// Most values (snapshot) or change rows (delta) per page.
    var pageSize = 5_000

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        // A page may need the database: it is waited for off the tasks other requests share.
        routes.on(.sync) { request, _ in try await store.offloaded { try sync(request) } }
        routes.on(.events) { _, _ in try eventStream() }
        return routes
    }

    func sync(_ request: Request) throws(Problem) -> Response {
        var snapshot = state.snapshot
        guard !snapshot.isEmpty else { throw Problem.noData }
        // Replicas on one database: a client's cursor may come from one that has applied a
        // publication this one has not yet (its notification is on its way). Applying it now
        // answers the client as that replica would, instead of resetting it.
        if store.isShared, let cursor = (request.uri.queryParameters["cursor"]).flatMap({ SyncCursor(encoded: String($0)) }),
           cursor.epoch == snapshot.epoch, cursor.sequence > snapshot.version {
            catchUp()
            snapshot = state.snapshot
        }
        // The parameters are read only when the answer is not prepared yet: the same request
        // always gets the same answer within a generation, and failures are never stored.
        let freshness = cachePolicy.freshness(of: snapshot, confirmed: state.isDataConfirmed)
        let response = try cache.answer(to: request, freshness: freshness, policy: cachePolicy) { () throws(Problem) in
            let query = QueryParameters(request: request)
            let cursor = try query.single("cursor").map { text throws(Problem) -> SyncCursor in
                guard let cursor = SyncCursor(encoded: text) else {
                    throw Problem.invalid("cursor", "'cursor' is not a cursor this server issued; sync without one to start over.")
                }
                return cursor
            }
            let from = try query.day("from")
            // Like every date parameter (README): a day after today is a mistake, not an empty window.
            let today = configuration.today
            if let from, from > today { throw Problem.dateInFuture("from", from, today: today) }
            return try page(after: cursor, from: from, snapshot: snapshot, freshness: freshness)
        }.response
        metrics?.recordSync(notModified: response.status == .notModified)
        return response
    }

    /// The next page for a client at `cursor` (or a new client with window `from`).
    ///
    /// Every page is read pinned to one dataset version, and its cursor names that version:
    /// a new client's snapshot pages all show the version of its first page, and a delta page
    /// holds exactly the changes between its cursor and `snapshot`'s version. An ingest that has
    /// committed but not yet reached `snapshot` is invisible here until it has.
    func page(after cursor: SyncCursor?, from requestedFrom: Day?, snapshot: RatesSnapshot, freshness: Freshness) throws(Problem) -> ResponseCache.Entry {
        do {
            let from = cursor?.from ?? requestedFrom
            // A client that holds every change reads nothing (its page is empty: ``RatesStore/changes(after:through:from:limit:)``),
            // not even the retention floor, so it is answered while the database is unreachable too.
            let isUpToDate = cursor?.position == .changes && cursor?.sequence == snapshot.version
            let reset = try cursor.map { cursor in
                try cursor.epoch != snapshot.epoch || cursor.sequence > snapshot.version || (!isUpToDate && cursor.sequence < store.retentionFloor())
            } ?? false
            let position = reset ? nil : cursor?.position
            let sequence = reset ? snapshot.version : cursor?.sequence ?? snapshot.version
            var json = SyncPageWriter(
                epoch: snapshot.epoch, reset: reset, snapshot: snapshot, expectedLatestDate: freshness.expected, stale: freshness.isStale,
                nextUpdateAfter: schedule.expectedTime(of: schedule.nextPublication(after: configuration.now())))
            switch position {
            case nil, .snapshot?:
                let afterDay: Day? = if case .snapshot(let day)? = position { day } else { nil }
                let page = try store.state(asOf: sequence, after: afterDay, from: from, limit: pageSize)
                let next: SyncCursor.Position = page.more ? .snapshot(afterDay: page.days.last?.day ?? afterDay ?? Day(dayNumber: 0)) : .changes
                let nextCursor = SyncCursor(epoch: snapshot.epoch, sequence: sequence, from: from, position: next)
                return ResponseCache.Entry(
                    body: json.write(cursor: nextCursor, more: page.more, upserts: page.days, deletes: [:]), route: .sync, caching: .syncTail)
            case .changes?:
                let page = try store.changes(after: sequence, through: snapshot.version, from: from, limit: pageSize)
                let nextCursor = SyncCursor(epoch: snapshot.epoch, sequence: page.throughSequence, from: from, position: .changes)
                let days = page.upserts.map { DailyRates(day: $0.key, rates: $0.value, sources: page.sources[$0.key] ?? [:]) }
                    .sorted { $0.day < $1.day }
                let body = json.write(cursor: nextCursor, more: page.more, upserts: days, deletes: page.deletes)
                // A full page of the change log covers a fixed range of an append-only log: it never changes.
                return ResponseCache.Entry(body: body, route: .sync, caching: page.more ? .immutable : .syncTail)
            }
        } catch {
            throw Problem.unreadable("The database")
        }
    }

    // MARK: - Events

    /// `text/event-stream`: a `publication` event per new dataset version, keep-alive comments in
    /// between (``EventStreamKeepAlive``); past ``ServerConfiguration/maxEventSubscribers`` open
    /// streams, `503` with `Retry-After` (the client polls `/v1/sync` meanwhile).
    ///
    /// Without API keys or rate limits, ``FastPathHandler`` carries the stream on the connection
    /// and this route sees only the requests past the cap. Here a subscriber waits on one stream,
    /// which ends on graceful shutdown through a handler, not a task of its own.
    func eventStream() throws(Problem) -> Response {
        // Subscribed before saying so: a client that has read ": connected" misses no later publication.
        guard let publications = state.events.stream(limit: configuration.maxEventSubscribers) else {
            metrics?.recordRefusal(busy: false)
            throw Problem(
                .busy, "This server streams events to as many clients as it is configured for; poll /v1/sync meanwhile and retry later.",
                headers: [.retryAfter: "60"])
        }
        let events = state.events
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: EventStreamFrames.opening))
            try await withGracefulShutdownHandler {
                for await event in publications { try await writer.write(ByteBuffer(string: EventStreamFrames.frame(event))) }
            } onGracefulShutdown: {
                events.finishAll()
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }
}

/// The text of `/v1/events`, the same whether the route or the fast path (``FastPathHandler``) serves it.
enum EventStreamFrames {
    /// What a stream starts with: the client's reconnection delay, and that it is subscribed.
    static let opening = "retry: 10000\n: connected\n\n"

    /// A publication's event, or (`nil`) a keep-alive comment.
    static func frame(_ event: PublicationEvents.Event?) -> String {
        guard let event else { return ": keep-alive\n\n" }
        return "event: publication\ndata: {\"epoch\":\"\(event.epoch)\",\"cursor\":\"\(event.cursor)\",\"latestDate\":\"\(event.latestDate)\"}\n\n"
    }
}

/// Sends every `/v1/events` stream a keep-alive comment each `interval`, for all of them at once,
/// so that proxies and clients keep idle streams open.
struct EventStreamKeepAlive: Service {
    let events: PublicationEvents
    var interval: Duration = .seconds(15)

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)
                events.keepAlive()
            }
        }
    }
}

/// Writes one sync page: rates as decimal strings exactly as stored, days and codes in order, and
/// where each value came from when that is not the ECB on its own day (``SyncPageSources``).
struct SyncPageWriter {
    let epoch: String
    let reset: Bool
    let snapshot: RatesSnapshot
    /// The newest publication the reference schedule says is out.
    let expectedLatestDate: Day
    /// The server's verdict on its data, for the SDK's status.
    let stale: Bool
    /// When the next publication is expected.
    let nextUpdateAfter: Date

    mutating func write(cursor: SyncCursor, more: Bool, upserts: [DailyRates], deletes: [Day: [CurrencyCode]]) -> ByteBuffer {
        return JSONWriter.object { json in
            json.field("epoch", string: epoch)
            json.field("cursor", string: cursor.encoded)
            json.field("more", bool: more)
            json.field("reset", bool: reset)
            json.field("base", string: snapshot.base.rawValue)
            json.field("latestDate", optionalString: snapshot.latest?.day.description)
            json.field("expectedLatestDate", string: expectedLatestDate.description)
            json.field("stale", bool: stale)
            json.field("nextUpdateAfter", string: nextUpdateAfter.formatted(.iso8601))
            var sources = SyncPageSources()
            json.field("upserts") { json in
                for daily in upserts {
                    let codes = daily.rates.keys.sorted()
                    json.field(daily.day.description) { json in
                        for code in codes { json.field(code.rawValue, string: daily.rates[code]!) }
                    }
                    sources.add(daily, codes: codes)
                }
            }
            sources.write(into: &json)
            json.field("deletes") { json in
                for day in deletes.keys.sorted() {
                    json.field(day.description, strings: deletes[day]!.map(\.rawValue))
                }
            }
        }
    }
}
