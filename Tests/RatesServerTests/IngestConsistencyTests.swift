import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import RatesCore
import RatesServer
import RatesStore
import RatesTestSupport
import Testing

/// What one client holds after applying sync pages, and what it saw go wrong.
private struct SyncingClient {
    var cursor: String?
    var rates: [String: [String: String]] = [:]
    /// Values received that the client already held: a page re-sent what an earlier one gave.
    var repeats: [String] = []
    var resets = 0
    var pages = 0

    /// Pulls pages until the last one; returns when the client is current.
    mutating func sync(_ http: HTTPClient, base: String, from: String) async throws {
        while true {
            let query = cursor.map { "cursor=\($0)" } ?? "from=\(from)"
            let response = try await http.execute(HTTPClientRequest(url: base + "/v1/sync?" + query), timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 1 << 24)
            try #require(response.status == .ok, "\(response.status) \(String(buffer: body))")
            let page = try JSONDecoder().decode(SyncPage.self, from: Data(body.readableBytesView))
            pages += 1
            if page.reset {
                resets += 1
                rates = [:]
            }
            for (day, values) in page.upserts {
                for (currency, value) in values {
                    if rates[day]?[currency] == value { repeats.append("\(day) \(currency) \(value)") }
                    rates[day, default: [:]][currency] = value
                }
            }
            for (day, currencies) in page.deletes {
                for currency in currencies { rates[day]?[currency] = nil }
                if rates[day]?.isEmpty == true { rates[day] = nil }
            }
            cursor = page.cursor
            if !page.more { return }
        }
    }
}

@Suite("One ingest path: version, data and cursor move together")
struct IngestConsistencyTests {
    static let firstDay = Day("2026-06-01")!
    /// The last 31 real publications: the server starts with the first, then 30 more are published.
    static let publications = FakeUpstream.history.suffix(31).map(\.day)

    @Test("clients syncing in a loop through 30 publications with corrections and withdrawals end equal to the server and never receive a value twice")
    func concurrentSyncDuringIngests() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.publications[0], firstDay: Self.firstDay)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                let configuration = TestServer.configuration(database: database, upstream: url)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                    #expect(try await server.refresh().json["outcome"] as? String == "updated")
                    let base = "http://127.0.0.1:\(try #require(server.port))"
                    try await withHTTPClient(HTTPClient(eventLoopGroupProvider: .singleton)) { http in
                        let window = Self.publications[0].adding(days: -20).description
                        let ingesting = Locked(true)

                        // Four clients sync back to back for as long as publications keep coming, then once more.
                        let clients = try await withThrowingTaskGroup(of: SyncingClient.self) { group in
                            for _ in 0..<4 {
                                group.addTask {
                                    var client = SyncingClient()
                                    while ingesting.withLock({ $0 }) { try await client.sync(http, base: base, from: window) }
                                    try await client.sync(http, base: base, from: window)
                                    return client
                                }
                            }
                            var corrections = 0
                            for (index, day) in Self.publications.enumerated().dropFirst() {
                                upstream.publish(through: day)
                                // Every third publication also corrects an earlier day; every seventh withdraws a currency from one.
                                // (The last publication comes in the daily file, which holds only its own day: no amendment there.)
                                if index % 3 == 0, index < Self.publications.count - 1 {
                                    let earlier = Self.publications[index - 2]
                                    var rates = try #require(upstream.published(earlier))
                                    let currency = rates.keys.sorted()[corrections % rates.count]
                                    corrections += 1
                                    rates[currency] = try #require(rates[currency]) + "7"   // a new value, never one a client held
                                    upstream.amend(earlier, rates: rates)
                                }
                                if index % 7 == 0 {
                                    let earlier = Self.publications[index - 1]
                                    var rates = try #require(upstream.published(earlier))
                                    rates[try #require(rates.keys.sorted().last)] = nil
                                    upstream.amend(earlier, rates: rates)
                                }
                                let outcome = try await http.refresh(base: base)
                                #expect(outcome.contains("\"outcome\":\"updated\""), "publication \(day): \(outcome)")
                            }
                            ingesting.withLock { $0 = false }
                            return try await group.reduce(into: []) { $0.append($1) }
                        }

                        // The server's data: a new client's full snapshot, checked against what the upstream published.
                        var reference = SyncingClient()
                        try await reference.sync(http, base: base, from: window)
                        for day in Self.publications where day.description >= window {
                            #expect(reference.rates[day.description] == upstream.published(day)?.reduce(into: [:]) { $0[$1.key.rawValue] = $1.value },
                                    "\(day) as served equals \(day) as published")
                        }
                        for (index, client) in clients.enumerated() {
                            #expect(client.rates == reference.rates, "client \(index) ends with the server's data")
                            #expect(client.repeats.isEmpty, "client \(index) received values it already had: \(client.repeats.prefix(5))")
                            #expect(client.resets == 0, "client \(index) was reset")
                            #expect(client.pages > 31, "client \(index) synced during the ingests (\(client.pages) pages)")
                        }
                    }
                }
            }
        }
    }

    @Test("a refresh that arrives during a fetch gets a fetch that started after it, shared by every refresh that arrived meanwhile")
    func refreshNeverJoinsAnOlderFetch() async throws {
        let (before, after) = (Self.publications[29], Self.publications[30])
        let upstream = FakeUpstream(publishedThrough: before, firstDay: Self.firstDay)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                let configuration = TestServer.configuration(database: database, upstream: url)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                    #expect(try await server.refresh().json["latestDate"] as? String == before.description)
                    let base = "http://127.0.0.1:\(try #require(server.port))"
                    try await withHTTPClient(HTTPClient(eventLoopGroupProvider: .singleton)) { http in
                        let requestsBefore = upstream.requests.count

                        // A fetch starts, and the upstream holds its answer: the new day is not out yet when it asked.
                        upstream.hold()
                        async let first = http.refresh(base: base)
                        try await waitUntil("the first fetch reached the upstream") { upstream.requests.count == requestsBefore + 1 }
                        upstream.publish(through: after)
                        async let second = http.refresh(base: base)
                        async let third = http.refresh(base: base)
                        try await waitUntil("both later refreshes wait") { try await Self.status(http, base)["refreshesWaiting"] as? Int == 2 }
                        #expect(upstream.requests.count == requestsBefore + 1, "no fetch runs beside the first")
                        upstream.release()

                        let answers = try await [first, second, third].map(Self.json)
                        #expect(answers[0]["latestDate"] as? String == before.description, "the first fetch asked before the publication")
                        #expect(answers[1]["latestDate"] as? String == after.description && answers[1]["outcome"] as? String == "updated")
                        #expect(answers[2]["latestDate"] as? String == after.description, "the third shares the second's fetch")
                        #expect(upstream.requests.count == requestsBefore + 2, "exactly one more fetch: \(upstream.requests.dropFirst(requestsBefore))")
                        #expect(try await Self.status(http, base)["refreshesWaiting"] as? Int == 0)
                    }
                }
            }
        }
    }

    @Test("after a multi-day outage the 90-day file is chosen, and a withdrawal and a correction in it are applied")
    func catchUpAfterOutage() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.publications[20], firstDay: Self.firstDay)
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                let configuration = TestServer.configuration(database: database, upstream: url)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                    try await server.refresh()
                    let corrected = Self.publications[19]
                    var rates = try #require(upstream.published(corrected))
                    rates[CurrencyCode("USD")!] = "1.23456"
                    rates[CurrencyCode("JPY")!] = nil
                    upstream.amend(corrected, rates: rates)
                    upstream.publish(through: Self.publications[30])
                    let requests = upstream.requests.count
                    #expect(try await server.refresh().json["outcome"] as? String == "updated")
                    #expect(upstream.requests.dropFirst(requests) == ["/eurofxref-hist-90d.xml"], "ten missing days come in one 90-day file")
                    let answer = try await server.request("/v1/rates/\(corrected)?symbols=USD")
                    #expect(answer.decimalText("rates", "USD") == "1.23456", "the correction is served")
                    #expect(try await server.request("/v1/rates/\(corrected)?symbols=JPY").status == .notFound, "the withdrawal is served")
                    #expect(try await server.request("/v1/latest").json["date"] as? String == Self.publications[30].description)
                }
            }
        }
    }

    static func status(_ http: HTTPClient, _ base: String) async throws -> [String: Any] {
        let response = try await http.execute(HTTPClientRequest(url: base + "/v1/status"), timeout: .seconds(30))
        return json(String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}
