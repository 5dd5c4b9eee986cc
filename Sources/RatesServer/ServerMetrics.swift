import Foundation
import NIOCore
import Prometheus
import RatesCore
import RatesIngest
import RatesStore
import RatesUpstream
import Synchronization

/// The server's Prometheus metrics, served as text at `GET /metrics`.
///
/// Each server owns its registry (no process-wide bootstrap), so several servers in one
/// process — tests — keep separate counts.
///
/// | metric | type | labels |
/// |---|---|---|
/// | `rates_relay_http_requests_total` | counter | `route` (the route pattern; `NotFound` for paths no route matches), `method`, `status` |
/// | `rates_relay_http_request_duration_seconds` | histogram | `route` |
/// | `rates_relay_upstream_fetches_total` | counter | `outcome`: `updated`, `unchanged`, `not_modified`, `failed`, `rejected` (every source's) |
/// | `rates_relay_last_successful_fetch_timestamp_seconds` | gauge | the newest successful fetch of any source (0 before any) |
/// | `rates_relay_latest_publication_timestamp_seconds` | gauge | the newest day's expected publication time (reference schedule) |
/// | `rates_relay_data_age_seconds` | gauge | time since that publication |
/// | `rates_relay_sync_responses_total` | counter | `result`: `page`, `not_modified` |
/// | `rates_relay_response_cache_lookups_total` | counter | `result`: `hit`, `miss` |
/// | `rates_relay_event_streams` | gauge | `GET /v1/events` streams open now |
/// | `rates_relay_heavy_answers` | gauge | heavy answers being built or streamed now (``AnswerPermits``) |
/// | `rates_relay_refusals_total` | counter | `reason`: `busy` (every heavy-answer permit out), `event_streams` (the subscriber cap reached) |
/// | `rates_relay_consensus_exclusions` | gauge | `provider`: its values the consensus check leaves out of the merge now |
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let cacheHits: Counter
    private let cacheMisses: Counter
    private let syncPages: Counter
    private let syncNotModified: Counter
    private let lastSuccessfulFetch: Gauge
    private let latestPublication: Gauge
    private let dataAge: Gauge
    private let eventStreams: Gauge
    private let heavyAnswers: Gauge
    private let busyRefusals: Counter
    private let eventStreamRefusals: Counter
    /// Handles by (route, method, status): a dictionary lookup instead of the registry's label matching on every request.
    private let requestHandles = Mutex<[RequestKey: RequestRecorder]>([:])

    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    /// The count and latency of the answers of one route, method and status; kept by a caller
    /// that answers the same way again (``FastPath``), so it looks them up once.
    struct RequestRecorder: Sendable {
        fileprivate let count: Counter
        fileprivate let duration: DurationHistogram

        /// Counts one answered request and its latency.
        func record(duration: Duration) {
            count.increment()
            self.duration.record(duration)
        }
    }

    /// Request latency buckets, in seconds: prepared answers take well under a millisecond.
    static let latencyBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1), .seconds(5),
    ]

    /// A registry with every metric that has no labels to vary already present (at zero).
    public init() {
        let cacheLookups = Self.named("response_cache_lookups", unit: "total", help: "Lookups of prepared answers: hits, and misses that built one.")
        cacheHits = registry.makeCounter(descriptor: cacheLookups, labels: [("result", "hit")])
        cacheMisses = registry.makeCounter(descriptor: cacheLookups, labels: [("result", "miss")])
        let syncResponses = Self.named("sync_responses", unit: "total", help: "Answers to /v1/sync: pages sent, and 304s to up-to-date clients.")
        syncPages = registry.makeCounter(descriptor: syncResponses, labels: [("result", "page")])
        syncNotModified = registry.makeCounter(descriptor: syncResponses, labels: [("result", "not_modified")])
        lastSuccessfulFetch = registry.makeGauge(descriptor: Self.named(
            "last_successful_fetch_timestamp", unit: "seconds", help: "Unix time of the last successful upstream fetch of any source (0: none yet)."))
        latestPublication = registry.makeGauge(descriptor: Self.named(
            "latest_publication_timestamp", unit: "seconds",
            help: "Unix time at which the newest stored day was published, by the reference schedule (the ECB's 16:00 Frankfurt time)."))
        dataAge = registry.makeGauge(descriptor: Self.named("data_age", unit: "seconds", help: "Time since the newest stored day was published."))
        eventStreams = registry.makeGauge(descriptor: Self.named(
            "event_streams", unit: "", help: "GET /v1/events streams open now (clients listening for publications)."))
        heavyAnswers = registry.makeGauge(descriptor: Self.named(
            "heavy_answers", unit: "", help: "Heavy answers (long ranges, answers from the providers' quotes) being built or streamed now."))
        let refusals = Self.named("refusals", unit: "total", help: "Requests refused for want of room, with 503 and Retry-After: by reason.")
        busyRefusals = registry.makeCounter(descriptor: refusals, labels: [("reason", "busy")])
        eventStreamRefusals = registry.makeCounter(descriptor: refusals, labels: [("reason", "event_streams")])
        for outcome in FetchRun.Outcome.allCases { _ = fetches(outcome) }
    }

    // MARK: - Recording

    /// What counts the answers to `method` requests of `route` with `status`.
    func requestRecorder(route: String, method: String, status: Int) -> RequestRecorder {
        let key = RequestKey(route: route, method: method, status: status)
        return requestHandles.withLock { handles in
            if let known = handles[key] { return known }
            let requests = Self.named("requests", subsystem: "http", unit: "total", help: "HTTP requests answered, by route, method and status.")
            let duration = Self.named("request_duration", subsystem: "http", unit: "seconds", help: "Time to answer a request, by route.")
            let made = RequestRecorder(
                count: registry.makeCounter(descriptor: requests, labels: [("route", route), ("method", method), ("status", String(status))]),
                duration: registry.makeDurationHistogram(descriptor: duration, labels: [("route", route)], buckets: Self.latencyBuckets))
            handles[key] = made
            return made
        }
    }

    /// Counts one finished upstream fetch of any source.
    func recordFetch(_ outcome: FetchRun.Outcome) { fetches(outcome).increment() }

    /// Counts one lookup of a prepared answer.
    func recordCacheLookup(hit: Bool) { (hit ? cacheHits : cacheMisses).increment() }

    /// Sets how many heavy answers are in progress.
    func recordHeavyAnswers(inProgress count: Int) { heavyAnswers.set(Double(count)) }

    /// Counts one request refused for want of room: every heavy-answer permit out (`busy`), or the event streams' cap reached.
    func recordRefusal(busy: Bool) { (busy ? busyRefusals : eventStreamRefusals).increment() }

    /// Counts one answer to a sync client.
    func recordSync(notModified: Bool) { (notModified ? syncNotModified : syncPages).increment() }

    private func fetches(_ outcome: FetchRun.Outcome) -> Counter {
        let descriptor = Self.named("upstream_fetches", unit: "total", help: "Upstream fetches, by outcome.")
        return registry.makeCounter(descriptor: descriptor, labels: [("outcome", Self.snakeCase(outcome.rawValue))])
    }

    // MARK: - Exposition

    /// The Prometheus text exposition, with the gauges read from `state` as of `now`.
    func exposition(state: ServerState, schedule: PublicationSchedule, now: Date) -> ByteBuffer {
        let lastSuccess = state.providerStatus.values.compactMap(\.lastSuccessfulFetchAt).max()
        lastSuccessfulFetch.set(lastSuccess?.timeIntervalSince1970 ?? 0)
        if let latest = state.snapshot.latest?.day {
            let published = schedule.expectedTime(of: latest)
            latestPublication.set(published.timeIntervalSince1970)
            dataAge.set(max(0, now.timeIntervalSince(published)))
        }
        eventStreams.set(Double(state.events.subscriberCount))
        let excluded = Dictionary(grouping: state.consensusExclusions, by: \.provider)
        let exclusions = Self.named(
            "consensus_exclusions", unit: "",
            help: "Values left out of the merge for being more than the consensus threshold from the median of the providers, by provider.")
        for key in ProviderRegistry.keys {
            registry.makeGauge(descriptor: exclusions, labels: [("provider", key)]).set(Double(excluded[key]?.count ?? 0))
        }
        return ByteBuffer(bytes: registry.emitToBuffer())
    }

    // MARK: - Names

    /// A metric of the server's namespace, `rates_relay`.
    private static func named(_ name: String, subsystem: String? = nil, unit: String, help: String) -> MetricNameDescriptor {
        .init(namespace: "rates_relay", subsystem: subsystem, metricName: name, unitName: unit, helpText: help)
    }

    /// `notModified` → `not_modified`.
    static func snakeCase(_ text: String) -> String {
        text.reduce(into: "") { result, character in
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
    }
}
