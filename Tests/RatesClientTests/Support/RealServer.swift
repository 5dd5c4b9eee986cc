import Foundation
import Hummingbird
import HummingbirdTesting
import RatesServer
import RatesTestSupport

/// Runs the real server on a fresh database (removed afterwards) fed by `upstream`, on the clock `now`, after one fetch.
func withRealServer(
    fedBy upstream: FakeUpstream, now: Date, _ body: @Sendable (_ url: String, _ server: any TestClientProtocol) async throws -> Void
) async throws {
    try await TestServer.withEmptyDatabase { database in
        try await upstream.run { upstreamURL in
            let configuration = TestServer.configuration(database: database, upstream: upstreamURL, now: now)
            try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                try await server.refresh()
                try await body("http://127.0.0.1:\(server.port!)/", server)
            }
        }
    }
}
