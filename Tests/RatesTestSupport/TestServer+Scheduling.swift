import Foundation
import HummingbirdTesting
import RatesServer

extension TestServer {
    /// Runs `body` with a server whose scheduler alone polls `upstream` every `pollInterval`, on an
    /// empty database first filled with what `upstream` publishes now (fetched on request by a first
    /// server), the clock at `now`: how a publication reaches clients with nobody asking.
    package static func withScheduledServer(
        fedBy upstream: FakeUpstream, pollInterval: Duration = .milliseconds(300), now: Date = afterLastPublication,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await withEmptyDatabase { database in
            try await upstream.run { url in
                try await buildApplication(configuration(database: database, upstream: url), logger: logger).test(.live) { client in
                    try await client.refresh()
                }
                var configuration = configuration(database: database, upstream: url, now: now)
                configuration.schedule = true
                configuration.pollInterval = pollInterval
                try await buildApplication(configuration, logger: logger).test(.live) { client in try await body(client) }
            }
        }
    }
}
