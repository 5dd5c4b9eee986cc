import Hummingbird
import RatesCore
import RatesIngest

/// `GET /metrics`: the Prometheus text exposition of ``ServerMetrics``.
struct MetricsController<Context: RequestContext>: Sendable {
    let metrics: ServerMetrics
    let state: ServerState
    let schedule: PublicationSchedule
    let configuration: ServerConfiguration

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.on(.metrics) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: metrics.exposition(state: state, schedule: schedule, now: configuration.now())))
        }
        return routes
    }
}
