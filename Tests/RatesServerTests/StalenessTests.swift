import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesTestSupport
import Testing

@Suite("Answers say when the data is behind the calendar")
struct StalenessTests {
    /// Monday 2026-11-23, 18:00 UTC: three weeks of publications after the data's last day (2026-10-30).
    static let ratesStale = HTTPField.Name("Rates-Stale")!
    static let threeWeeksLater = try! Date("2026-11-23T18:00:00Z", strategy: .iso8601)

    @Test("a Monday answered with October's rates says stale, names the missing publication, and changes its ETag")
    func overdueAnswers() async throws {
        try await TestServer.withSeededDatabase { database in
            let freshTag = try await buildApplication(TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/"), logger: TestServer.logger)
                .test(.live) { client in
                    let latest = try await client.request("/v1/latest")
                    #expect(latest.json["stale"] == nil && latest.headers[Self.ratesStale] == nil, "current data is not marked")
                    return latest.headers[.eTag]
                }
            let configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/", now: Self.threeWeeksLater)
            try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                // Twice: the second answer comes from the prepared-answer fast path.
                for _ in 0..<2 {
                    let latest = try await client.request("/v1/latest")
                    #expect(latest.json["date"] as? String == "2026-10-30")
                    #expect(latest.json["stale"] as? Bool == true)
                    #expect(latest.json["expectedDate"] as? String == "2026-11-23")
                    #expect(latest.headers[Self.ratesStale] == "expected=2026-11-23")
                    #expect(latest.headers[.eTag] != freshTag, "a client holding the fresh answer cannot get a 304 for the stale one")

                    let between = try await client.request("/v1/rates/2026-11-05")
                    #expect(between.json["date"] as? String == "2026-10-30" && between.json["requestedDate"] as? String == "2026-11-05")
                    #expect(between.json["expectedDate"] as? String == "2026-11-05", "the publication due by the date asked")

                    let history = try await client.request("/v1/rates/2026-10-29")
                    #expect(history.json["stale"] == nil && history.headers[Self.ratesStale] == nil, "a past publication is what it is")
                }
                let page = try await client.request("/v1/sync?from=2026-10-01").json
                #expect(page["stale"] as? Bool == true)
                #expect(page["expectedLatestDate"] as? String == "2026-11-23")
                #expect(try await client.request("/v1/status").json["stale"] as? Bool == true)
            }
        }
    }
}
