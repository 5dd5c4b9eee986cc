import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import RatesCore
import RatesIngest
import RatesServer
import RatesStore
import RatesTestSupport
import RatesUpstream
import Testing

/// A decoded `/v1/sync` page.
struct SyncPage: Decodable {
    var epoch: String
    var cursor: String
    var more: Bool
    var reset: Bool
    var base: String
    var latestDate: String?
    var nextUpdateAfter: String
    var upserts: [String: [String: String]]
    var deletes: [String: [String]]

    var valueCount: Int { upserts.values.reduce(0) { $0 + $1.count } }
}

extension TestResponse {
    func syncPage() throws -> SyncPage { try JSONDecoder().decode(SyncPage.self, from: Data(body.readableBytesView)) }
}

/// Pulls every page starting at `cursor` and returns them all.
func pullAll(_ client: any TestClientProtocol, cursor: String? = nil, from: String? = nil) async throws -> [SyncPage] {
    var pages: [SyncPage] = []
    var query = cursor.map { "cursor=\($0)" } ?? from.map { "from=\($0)" } ?? ""
    while true {
        let response = try await client.request("/v1/sync?" + query)
        try #require(response.status == .ok, "\(response.status) \(response.text)")
        let page = try response.syncPage()
        pages.append(page)
        guard page.more, pages.count < 500 else { return pages }
        query = "cursor=\(page.cursor)"
    }
}

@Suite("Delta sync endpoint")
struct SyncEndpointTests {
    static let recent = Day("2026-06-01")!

    @Test("a first sync without cursor pages through the whole history by whole days")
    func fullSnapshot() async throws {
        try await withSeededServer { client in
            let pages = try await pullAll(client)
            #expect(pages.count > 10, "the history spans many pages")
            #expect(pages.dropLast().allSatisfy(\.more) && pages.last?.more == false)
            #expect(pages.allSatisfy { !$0.reset && $0.base == "EUR" && $0.latestDate == "2026-10-30" })
            var days: [String: [String: String]] = [:]
            for page in pages {
                for (day, rates) in page.upserts {
                    #expect(days[day] == nil, "day \(day) split across pages")
                    days[day] = rates
                }
            }
            #expect(days.count == FakeUpstream.history.count)
            #expect(days["1999-01-04"]?["USD"] == "1.1789")
            #expect(days["2026-10-30"]?["GBP"] == "0.8338")
            #expect(days.values.reduce(0) { $0 + $1.count } == FakeUpstream.history.reduce(0) { $0 + $1.rates.count })
        }
    }

    @Test("from limits the window; an up-to-date client gets 304 with an empty body")
    func windowAndNotModified() async throws {
        try await withSeededServer { client in
            let first = try await client.request("/v1/sync?from=2026-08-03")
            let page = try first.syncPage()
            #expect(!page.more)
            #expect(page.upserts.keys.min() == "2026-08-03" && page.upserts.keys.max() == "2026-10-30")
            let etag = try #require(first.headers[.eTag])
            #expect(first.headers[.cacheControl]?.contains("stale-while-revalidate") == true)

            let next = try await client.request("/v1/sync?cursor=\(page.cursor)")
            #expect(try next.syncPage().upserts.isEmpty, "nothing changed since")
            let upToDate = try await client.request("/v1/sync?cursor=\(page.cursor)", headers: [.ifNoneMatch: etag])
            #expect(upToDate.status == .notModified)
            #expect(upToDate.body.readableBytes == 0)
        }
    }

    @Test("a client one publication behind gets only that day, in under 1 KB")
    func onePublicationBehind() async throws {
        let upstream = FakeUpstream(publishedThrough: Day("2026-10-29")!, firstDay: Self.recent)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                let configuration = TestServer.configuration(database: database, upstream: url)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    try await client.refresh()
                    let cursor = try #require(try await pullAll(client, from: "2026-10-01").last?.cursor)
                    upstream.publish(through: Day("2026-10-30")!)
                    try await client.refresh()
                    let response = try await client.request("/v1/sync?cursor=\(cursor)")
                    let page = try response.syncPage()
                    #expect(Array(page.upserts.keys) == ["2026-10-30"])
                    #expect(page.valueCount == 29)
                    #expect(page.upserts["2026-10-30"]?["GBP"] == "0.8338")
                    #expect(page.deletes.isEmpty && !page.more && !page.reset)
                    #expect(response.body.readableBytes < 1024, "\(response.body.readableBytes) bytes")
                }
            }
        }
    }

    @Test("pruned days reach clients as tombstones")
    func prunedDaysAreDeleted() async throws {
        try await TestServer.withSeededDatabase { database in
            let cursor = try await buildApplication(TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/"), logger: TestServer.logger)
                .test(.live) { client in
                    try #require(try await pullAll(client, from: "2026-10-26").last?.cursor)
                }
            _ = try Operations.prune(database: database, before: Day("2026-10-28")!)
            try await buildApplication(TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/"), logger: TestServer.logger)
                .test(.live) { client in
                    let page = try await client.request("/v1/sync?cursor=\(cursor)").syncPage()
                    #expect(!page.reset)
                    #expect(page.upserts.isEmpty)
                    #expect(page.deletes.keys.sorted() == ["2026-10-26", "2026-10-27"], "only days in the client's window")
                    #expect(page.deletes["2026-10-27"]?.count == 29 && page.deletes["2026-10-27"]?.contains("USD") == true)
                    #expect(try await client.request("/v1/rates/2026-10-27").status == .notFound)
                }
        }
    }

    @Test("a cursor from before a rebuild gets reset: true and a full snapshot")
    func resetAfterRebuild() async throws {
        try await TestServer.withSeededDatabase { database in
            let (cursor, epoch) = try await buildApplication(TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/"), logger: TestServer.logger)
                .test(.live) { client in
                    let page = try #require(try await pullAll(client, from: "2026-10-01").last)
                    return (page.cursor, page.epoch)
                }
            let epochs = try Operations.rebuild(databasePath: database)
            #expect(epochs.old == epoch && epochs.new != epoch)
            try await buildApplication(TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/"), logger: TestServer.logger)
                .test(.live) { client in
                    let pages = try await pullAll(client, cursor: cursor)
                    #expect(pages.first?.reset == true)
                    #expect(pages.first?.epoch == epochs.new)
                    #expect(pages.first?.upserts.keys.min() == "2026-10-01", "the reset keeps the client's window")
                    #expect(pages.last?.more == false)
                }
        }
    }

    @Test("a rebuild keeps every provider's figures as published, its fetch records, and each merged value with its source")
    func rebuildKeepsProviders() async throws {
        try await TestServer.withSeededDatabase { database in
            _ = try Operations.importPublications(
                of: "CBR", from: [Fixtures.url("cbr-russia/XML_daily_2026-04-25.xml")], database: database, progress: { _ in })
            let before = try RatesStore(path: database)
            let (holdings, snapshot, cbrRun) = (try before.providerHoldings(), try before.snapshot(), try before.lastRun(provider: "CBR"))
            let published = try before.publication(of: "CBR", on: Day("2026-04-25")!)
            #expect(Set(holdings.keys) == ["ECB", "CBR"] && published != nil)

            let epochs = try Operations.rebuild(databasePath: database)
            let after = try RatesStore(path: database)
            #expect(after.epoch == epochs.new && epochs.new != epochs.old)
            #expect(try after.providerHoldings() == holdings)
            #expect(try after.publication(of: "CBR", on: Day("2026-04-25")!) == published)
            #expect(try after.lastRun(provider: "CBR")?.file == cbrRun?.file)
            let rebuilt = try after.snapshot()
            #expect(rebuilt.days.map(\.texts) == snapshot.days.map(\.texts))
            #expect(rebuilt.days.map(\.nonDefaultSources) == snapshot.days.map(\.nonDefaultSources), "each value keeps its provider and day")
            #expect(snapshot.days.contains { $0.nonDefaultSources.values.contains { $0.provider == "CBR" } })
            #expect(try after.changeLog(after: 0).count == rebuilt.days.reduce(0) { $0 + $1.count }, "one change per value")
        }
    }

    @Test("malformed cursors and from dates are 400 problem+json", arguments: [
        "cursor=garbage!", "cursor=", "cursor=MS5jLmFiYy4xMi4tLS0", "cursor=" + String(repeating: "A", count: 400),
        "from=2026-02-30", "from=yesterday", "cursor=MS54LmFiYy4xLi0uLQ",
    ])
    func malformed(query: String) async throws {
        try await withSeededServer { client in
            let response = try await client.request("/v1/sync?\(query)")
            if query == "cursor=" {
                #expect(response.status == .ok, "an empty cursor is no cursor")
                return
            }
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(["cursor", "from"].contains(response.json["parameter"] as? String))
        }
    }

    @Test("a publication is announced on /v1/events at once")
    func serverSentEvents() async throws {
        let upstream = FakeUpstream(publishedThrough: Day("2026-10-29")!, firstDay: Self.recent)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                let configuration = TestServer.configuration(database: database, upstream: url)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    try await client.refresh()
                    let port = try #require(client.port)
                    try await withHTTPClient(HTTPClient(eventLoopGroupProvider: .singleton)) { http in
                        let response = try await http.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/events"), timeout: .seconds(30))
                        #expect(response.headers.first(name: "content-type") == "text/event-stream")
                        var received = ""
                        var published = false
                        for try await chunk in response.body {
                            received += String(buffer: chunk)
                            if !published, received.contains(": connected") {
                                published = true
                                upstream.publish(through: Day("2026-10-30")!)
                                try await client.refresh()
                            }
                            if received.contains("\n\n"), received.contains("event: publication") { break }
                        }
                        #expect(received.contains("event: publication\ndata: {\"epoch\":"))
                        #expect(received.contains("\"latestDate\":\"2026-10-30\""))
                    }
                }
            }
        }
    }
}
