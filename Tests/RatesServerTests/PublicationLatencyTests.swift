import AsyncHTTPClient
import Foundation
import HummingbirdTesting
import NIOCore
import RatesCore
import RatesServer
import RatesTestSupport
import Testing

/// From a publication upstream to the clients: the scheduler's own polls, no refresh on request.
@Suite("A publication reaches /v1/events from the scheduler's polls", .serialized)
struct PublicationLatencyTests {
    @Test("while a due publication is not out, each poll is a conditional GET answered 304; the first poll after it appears brings it to /v1/events, and polling stops")
    func pollsUntilPublished() async throws {
        let upstream = FakeUpstream(publishedThrough: Day("2026-10-29")!, firstDay: Day("2026-06-01")!)
        // The figures through 2026-10-29, then the scheduler alone, on 2026-10-30 at 18:00 UTC: that day's
        // publication (due at 16:00 CET) is not out yet.
        try await TestServer.withScheduledServer(fedBy: upstream) { client in
            try await waitUntil("three polls answered 304") { upstream.notModifiedCount >= 3 }
            let port = try #require(client.port)
            try await withHTTPClient(HTTPClient(eventLoopGroupProvider: .singleton)) { http in
                let response = try await http.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/events"), timeout: .seconds(60))
                var received = ""
                var publishedAt: ContinuousClock.Instant?
                var requestsAtPublication = 0
                for try await chunk in response.body {
                    received += String(buffer: chunk)
                    if publishedAt == nil, received.contains(": connected") {
                        requestsAtPublication = upstream.requests.count
                        upstream.publish(through: Day("2026-10-30")!)
                        publishedAt = .now
                    }
                    if received.contains("\"latestDate\":\"2026-10-30\"") { break }
                }
                let elapsed = ContinuousClock.now - (try #require(publishedAt))
                #expect(received.contains("event: publication"))
                // One poll interval and a fetch: the polls counted below are the measure; the time only
                // catches a hang, on a machine that may be busy.
                #expect(elapsed < waitLimit, "\(elapsed) from publication to the event")
                let pollsToArrival = upstream.requests.count - requestsAtPublication
                #expect((1...3).contains(pollsToArrival), "\(pollsToArrival) requests between the publication and its event")
            }
            // Once the day's publication is in, the next fetch waits for the next expected publication:
            // the scheduler sets it more than a minute after the test's clock, which stands still.
            let after = upstream.requests.count
            _ = try await waitForStatus(client) { status in
                guard let next = (status["nextFetchAt"] as? String).flatMap({ try? Date($0, strategy: .iso8601) }) else { return false }
                return status["latestDate"] as? String == "2026-10-30" && next.timeIntervalSince(TestServer.afterLastPublication) > 60
            }
            #expect(upstream.requests.count == after, "no poll after the publication arrived")
            print("publication to event: polls before it answered 304: \(upstream.notModifiedCount)")
        }
    }

    @Test("a source weeks behind polls its catch-up file with conditional GETs too: 304s, not the file again and again")
    func catchUpPollsAreConditional() async throws {
        let upstream = FakeUpstream(publishedThrough: Day("2026-10-29")!, firstDay: Day("2026-06-01")!)
        // Four weeks later, the source still at 2026-10-29: every poll is a catch-up.
        try await TestServer.withScheduledServer(fedBy: upstream, now: try Date("2026-11-26T18:00:00Z", strategy: .iso8601)) { _ in
            let before = upstream.requests.count
            try await waitUntil("three polls answered 304") { upstream.notModifiedCount >= 3 }
            let polls = upstream.requests.count - before
            #expect(polls - upstream.notModifiedCount <= 1, "\(polls) polls, \(upstream.notModifiedCount) answered 304: only the first gets the file")
        }
    }
}
