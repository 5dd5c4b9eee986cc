import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import RatesClient
import RatesCore
import RatesIngest
import RatesServer
import RatesTestSupport
import Synchronization
import Testing

/// The SDK against the real server over loopback, the server fed by the fake ECB publishing
/// real days on demand. Nothing here is scripted: every byte the client reads was written by
/// the server.
@Suite("RatesClient against the real server")
struct EndToEndTests {
    static let firstDay = Day("2026-06-01")!
    static let dayBefore = Day("2026-10-29")!
    static let lastDay = Day("2026-10-30")!
    let cache = TemporaryCache()

    /// The ECB's rates of `day`, as the fake upstream publishes them.
    static func published(_ day: Day) -> [CurrencyCode: String] {
        FakeUpstream.history.first { $0.day == day }?.rates ?? [:]
    }

    /// A client of the server at `url` (a new URLSession, so no connection outlives a server), on this test's cache.
    func client(_ url: String, window: Day? = nil, maxAttempts: Int = 1) throws -> RatesClient {
        try RatesClient(configuration: .init(
            server: URL(string: url)!, cacheURL: cache.url, session: URLSession(configuration: .ephemeral), window: window,
            retry: RetryPolicy(maxAttempts: maxAttempts, baseDelay: .milliseconds(10), maxDelay: .milliseconds(50))))
    }

    /// Runs the server on a fresh database fed by `upstream` (published through `dayBefore`, backfilled).
    func withFedServer(
        _ upstream: FakeUpstream, _ body: @Sendable (_ url: String, _ server: any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { upstreamURL in
                let configuration = TestServer.configuration(database: database, upstream: upstreamURL)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                    try await server.refresh()
                    try await body("http://127.0.0.1:\(server.port!)/", server)
                }
            }
        }
    }

    /// Runs the server on `database` (no upstream) and returns its URL once it has stopped.
    func withServer<Value: Sendable>(database: String, _ body: @Sendable (_ url: String) async throws -> Value) async throws -> (url: String, value: Value) {
        let configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
        return try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
            let url = "http://127.0.0.1:\(server.port!)/"
            return (url, try await body(url))
        }
    }

    @Test("a first sync pulls the real data; after a publication only that day arrives; then the server answers 304")
    func firstThenIncrementalThenNotModified() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.dayBefore, firstDay: Self.firstDay)
        try await withFedServer(upstream) { url, server in
            let client = try client(url)
            let first = try await client.sync()
            #expect(first.outcome == .updated && first.reset && first.pagesApplied >= 1)
            #expect(first.latestDate == Self.dayBefore)
            #expect(try client.status().firstDate == Self.firstDay)
            #expect(try client.rates(on: Self.dayBefore)?.rates == Self.published(Self.dayBefore).mapValues { RateValue.published(ExactDecimal($0)!) })

            upstream.publish(through: Self.lastDay)
            try await server.refresh()
            let second = try await client.sync()
            #expect(second == SyncReport(outcome: .updated, pagesApplied: 1, upserted: 29, deleted: 0, reset: false, latestDate: Self.lastDay))
            #expect(try client.latest()?[.gbp] == .published("0.8338"))

            // A cross rate against one computed here from the published texts.
            let rates = Self.published(Self.lastDay)
            let expected = Double(rates[.jpy]!)! / Double(rates[.usd]!)!
            let conversion = try client.convert(100, from: .usd, to: .jpy)
            #expect(conversion.date == Self.lastDay)
            #expect(abs(NSDecimalNumber(decimal: conversion.rate.decimal).doubleValue / expected - 1) < 1e-7)
            #expect(conversion.result == conversion.rate.decimal * 100)

            let third = try await client.sync()
            #expect(third == SyncReport(outcome: .upToDate, latestDate: Self.lastDay), "answered 304, nothing applied")
        }
    }

    @Test("offline reads after the server stops, tombstones after a prune, and a reset after a rebuild")
    func offlinePruneAndRebuild() async throws {
        try await TestServer.withSeededDatabase { database in
            let window = Day("2026-10-01")!
            let (stoppedURL, _) = try await withServer(database: database) { url in
                let report = try await client(url, window: window).sync()
                #expect(report.outcome == .updated && report.latestDate == Self.lastDay)
            }

            // The server is gone: syncing says offline, every read still answers from the cache.
            let offline = try client(stoppedURL, window: window)
            let report = try await offline.sync()
            guard case .offline = report.outcome else { Issue.record("expected offline, got \(report.outcome)"); return }
            #expect(try offline.convert(10, from: .euro, to: .gbp).result == Decimal(string: "8.338")!)
            #expect(try offline.rates(on: Day("2026-10-04")!)?.date == Day("2026-10-02")!, "a Sunday answers with Friday")
            #expect(try offline.timeseries(from: window, through: Self.lastDay).count == 22)
            let before = try offline.timeseries(from: window, through: Self.lastDay)

            // Retention: the operator prunes the first week; clients get tombstones, nothing else.
            _ = try Operations.prune(database: database, before: Day("2026-10-05")!)
            _ = try await withServer(database: database) { url in
                let client = try client(url, window: window)
                let pruned = try await client.sync()
                #expect(
                    pruned == SyncReport(outcome: .updated, pagesApplied: 1, upserted: 0, deleted: 2 * 29, reset: false, latestDate: Self.lastDay))
                #expect(try client.status().firstDate == Day("2026-10-05")!)
                #expect(try client.rates(on: Day("2026-10-02")!) == nil)
            }

            // A rebuilt database is a new epoch: the client's cursor means nothing there, so it resets.
            let epochs = try Operations.rebuild(databasePath: database)
            _ = try await withServer(database: database) { url in
                let client = try client(url, window: window)
                let reset = try await client.sync()
                #expect(reset.reset && reset.outcome == .updated)
                #expect(try client.status().epoch == epochs.new)
                #expect(try client.timeseries(from: window, through: Self.lastDay) == before.filter { $0.key >= Day("2026-10-05")! })
            }
        }
    }

    @Test("a connection dropped in the middle of a page leaves the cache unchanged; the next sync completes")
    func droppedConnection() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.dayBefore, firstDay: Self.firstDay)
        try await withFedServer(upstream) { url, server in
            let proxy = DroppingProxy()
            try await proxy.run(forwardingTo: url) { proxyURL in
                let client = try client(proxyURL)
                try await client.sync()
                let cursorBefore = try client.status()
                upstream.publish(through: Self.lastDay)
                try await server.refresh()

                proxy.dropNext()
                let dropped = try await client.sync()
                guard case .offline = dropped.outcome else { Issue.record("expected offline, got \(dropped.outcome)"); return }
                #expect(dropped.pagesApplied == 0)
                #expect(try client.latest()?.date == Self.dayBefore)
                #expect(try client.status().epoch == cursorBefore.epoch)

                let resumed = try await client.sync()
                #expect(resumed.outcome == .updated && resumed.upserted == 29 && !resumed.reset)
                #expect(try client.latest()?.date == Self.lastDay)
                #expect(proxy.requests.suffix(2).allSatisfy { $0.hasPrefix("/v1/sync?cursor=") }, "the same cursor both times")
                #expect(Set(proxy.requests.suffix(2)).count == 1)
            }
        }
    }

    @Test("an observation yields once per change: not for a sync that brings nothing")
    func observationOncePerChange() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.dayBefore, firstDay: Self.firstDay)
        try await withFedServer(upstream) { url, server in
            let client = try client(url)
            try await client.sync()
            let observed = Collected(client.observe(base: .usd, symbols: [.gbp]))
            #expect(await observed.wait(for: 1).first??.date == Self.dayBefore)

            upstream.publish(through: Self.lastDay)
            try await server.refresh()
            try await client.sync()
            let values = await observed.wait(for: 2)
            #expect(values.last??.date == Self.lastDay)
            let rates = Self.published(Self.lastDay)
            let expected = Double(rates[.gbp]!)! / Double(rates[.usd]!)!
            #expect(abs(NSDecimalNumber(decimal: values.last??[.gbp]?.decimal ?? 0).doubleValue / expected - 1) < 1e-7)

            #expect(try await client.sync().outcome == .upToDate)
            // Then a correction of the day. The stream keeps the order of changes, so a value yielded
            // for the sync that brought nothing would come before the correction's: the third value must be it.
            var corrected = Self.published(Self.lastDay)
            corrected[.gbp] = "0.90000"
            upstream.amend(Self.lastDay, rates: corrected)
            try await server.refresh()
            try await client.sync()
            let all = await observed.wait(for: 3)
            #expect(all.count == 3, "\(all)")
            #expect(all.last??.date == Self.lastDay && all.last??[.gbp] != values.last??[.gbp], "\(all)")
            #expect(observed.error == nil)
        }
    }

    @Test("with auto-refresh, a publication announced on /v1/events reaches the cache without polling")
    func serverSentEvents() async throws {
        let upstream = FakeUpstream(publishedThrough: Self.dayBefore, firstDay: Self.firstDay)
        try await withFedServer(upstream) { url, server in
            let client = try client(url)
            let results = AutoRefreshTests.Results()
            let refresher = client.startAutoRefresh { result in results.record(result) }
            defer { refresher.cancel() }
            await results.wait(for: 1)
            #expect(try client.latest()?.date == Self.dayBefore)
            // The launch sync left the next due time in the past (the server's clock is fixed), so
            // the loop sleeps for minutes: only the event can bring the new day this soon.
            try await waitUntil("the client's event stream is open on the server") {
                let metrics = try await server.poll("/metrics").text.split(separator: "\n")
                return metrics.first { $0.hasPrefix("rates_relay_event_streams ") }.flatMap { Double($0.split(separator: " ")[1]) } == 1
            }

            upstream.publish(through: Self.lastDay)
            try await server.refresh()
            await results.wait(for: 2)
            #expect(results.reports.withLock { $0.map(\.outcome) } == [.updated, .updated])
            #expect(try client.latest()?.date == Self.lastDay)
        }
    }
}
