import Foundation
import Hummingbird
import HummingbirdTesting
import RatesCore
import RatesIngest
import RatesServer
import RatesStore
import RatesTestSupport
import Testing

/// A sync client's copy, built only from the pages it was sent.
struct SyncedCopy {
    var rates: [String: [String: String]] = [:]
    var cursor: String?
    /// Every (day, currency) a page carried, in the order received: a key twice in one pull is a duplicate.
    var received: [String] = []

    mutating func apply(_ pages: [SyncPage]) {
        for page in pages {
            for (day, values) in page.upserts {
                for (currency, value) in values {
                    rates[day, default: [:]][currency] = value
                    received.append("\(day) \(currency)")
                }
            }
            for (day, currencies) in page.deletes {
                for currency in currencies {
                    rates[day]?[currency] = nil
                    received.append("\(day) \(currency)")
                }
                if rates[day]?.isEmpty == true { rates[day] = nil }
            }
            cursor = page.cursor
        }
    }
}

@Suite("Delta cursors over many publications")
struct DeltaChainTests {
    static let days = FakeUpstream.history.suffix(4).map(\.day)

    @Test("a chain of cursors over publications, a correction and a withdrawal never resets and carries only what changed")
    func cursorChain() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.days[0], firstDay: Day("2026-06-01")!)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                let configuration = TestServer.configuration(database: database, upstream: url)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    try await client.refresh()
                    var replica = SyncedCopy()
                    replica.apply(try await pullAll(client, from: "2026-10-01"))

                    // A new publication: exactly its values.
                    upstream.publish(through: Self.days[1])
                    try await client.refresh()
                    var pages = try await pullAll(client, cursor: replica.cursor)
                    #expect(pages.allSatisfy { !$0.reset })
                    #expect(pages.flatMap(\.upserts.keys) == [Self.days[1].description])
                    #expect(pages.reduce(0) { $0 + $1.valueCount } == FakeUpstream.history.first { $0.day == Self.days[1] }!.rates.count)
                    replica.apply(pages)

                    // The next publication, with a correction of the day before and a withdrawal from it.
                    var amended = try #require(upstream.published(Self.days[1]))
                    amended[CurrencyCode("USD")!] = "1.11111"
                    amended[CurrencyCode("JPY")!] = nil
                    upstream.amend(Self.days[1], rates: amended)
                    upstream.publish(through: Self.days[2])
                    try await client.refresh()
                    replica.received = []
                    pages = try await pullAll(client, cursor: replica.cursor)   // no If-None-Match
                    #expect(pages.allSatisfy { !$0.reset })
                    #expect(pages.flatMap(\.upserts.keys).sorted() == [Self.days[1].description, Self.days[2].description])
                    #expect(pages.compactMap { $0.upserts[Self.days[1].description] } == [["USD": "1.11111"]], "only the corrected value")
                    #expect(pages.compactMap { $0.deletes[Self.days[1].description] } == [["JPY"]], "the withdrawal as a tombstone")
                    replica.apply(pages)
                    #expect(Set(replica.received).count == replica.received.count, "no value twice")

                    // Nothing new: an empty delta, and the replica equals a new client's snapshot.
                    pages = try await pullAll(client, cursor: replica.cursor)
                    #expect(pages.allSatisfy { $0.upserts.isEmpty && $0.deletes.isEmpty && !$0.reset })
                    var fresh = SyncedCopy()
                    fresh.apply(try await pullAll(client, from: "2026-10-01"))
                    #expect(replica.rates == fresh.rates)
                }
            }
        }
    }

    @Test("more than a page of changes (a year pruned from a running server) arrives with no gap and no duplicate; full pages are immutable")
    func deltaPaging() async throws {
        try await TestServer.withSeededDatabase { database in
            let configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
            try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                var replica = SyncedCopy()
                replica.apply(try await pullAll(client, from: "2000-01-01"))
                let before = replica.rates
                let version = try #require(try await client.request("/v1/status").json["datasetVersion"] as? Int)

                // Another process prunes the server's file; the server applies the change log within seconds.
                let pruned = try Operations.prune(database: database, before: Day("2001-01-01")!)
                try await waitUntil("the server applied the prune") {
                    try await client.poll("/v1/status").json["datasetVersion"] as? Int == version + pruned.rowsChanged
                }

                replica.received = []
                var cachingOfFullPages: [String] = []
                var query = "cursor=\(try #require(replica.cursor))"
                var pages: [SyncPage] = []
                while true {
                    let response = try await client.request("/v1/sync?" + query)
                    let page = try response.syncPage()
                    pages.append(page)
                    if page.more { cachingOfFullPages.append(response.headers[.cacheControl] ?? "") }
                    guard page.more else { break }
                    query = "cursor=\(page.cursor)"
                }
                #expect(pages.count >= 2, "\(pruned.rowsChanged) tombstones span pages")
                #expect(cachingOfFullPages.allSatisfy { $0.contains("immutable") }, "\(cachingOfFullPages)")
                replica.apply(pages)

                // The tombstones of the client's window (2000 on); 1999 was pruned too, outside it.
                let expected = before.filter { $0.key < "2001-01-01" }.reduce(0) { $0 + $1.value.count }
                #expect(pruned.rowsChanged > expected)
                #expect(replica.received.count == expected && Set(replica.received).count == expected, "every tombstone of the window, once")
                #expect(replica.rates == before.filter { $0.key >= "2001-01-01" }, "the replica lost exactly the pruned year")
            }
        }
    }
}
