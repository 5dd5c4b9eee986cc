import Foundation
import RatesClient
import RatesCore
import RatesTestSupport
import Testing

extension EndToEndTests {
    @Test("an upstream correction and withdrawal reach the SDK as an upsert and a tombstone")
    func correctionAndWithdrawal() async throws {
        // Two publications behind, so the server fetches the 90-day file, which carries the republished day.
        let corrected = Day("2026-10-28")!
        let upstream = FakeUpstream(publishedThrough: corrected, firstDay: Self.firstDay)
        try await withFedServer(upstream) { url, server in
            let client = try client(url, window: Day("2026-10-01"))
            #expect(try await client.sync().latestDate == corrected)
            #expect(try client.rates(on: corrected, symbols: [.jpy])?[.jpy] == .published(ExactDecimal(Self.published(corrected)[.jpy]!)!))

            // The ECB republishes that day with a corrected USD and without JPY, and publishes two more.
            var amended = Self.published(corrected)
            amended[.usd] = "1.23456"
            amended[.jpy] = nil
            upstream.amend(corrected, rates: amended)
            upstream.publish(through: Self.lastDay)
            #expect(try await server.refresh().json["outcome"] as? String == "updated")

            let report = try await client.sync()
            let newValues = Self.published(Self.dayBefore).count + Self.published(Self.lastDay).count
            #expect(report == SyncReport(outcome: .updated, pagesApplied: 1, upserted: newValues + 1, deleted: 1, reset: false, latestDate: Self.lastDay))
            #expect(try client.rates(on: corrected, symbols: [.usd])?[.usd] == .published("1.23456"))
            #expect(throws: RatesClientError.noRate(.jpy, on: corrected)) { try client.rates(on: corrected, symbols: [.jpy]) }
            #expect(try client.latest(symbols: [.jpy])?[.jpy] == .published(ExactDecimal(Self.published(Self.lastDay)[.jpy]!)!), "the next day still has JPY")
        }
    }
}
