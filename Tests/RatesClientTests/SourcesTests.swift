import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDB
import HummingbirdTesting
import RatesCore
import RatesTestSupport
import Synchronization
import Testing
@testable import RatesClient

/// Where each cached value came from: the provider and its own day, from the sync page to the reads.
@Suite("Where a cached value came from", .serialized)
struct SourcesTests {
    static let uah = CurrencyCode("UAH")!
    static let afn = CurrencyCode("AFN")!

    // MARK: - The wire

    /// A page of 2026-03-04 (AFN, UAH, USD) with `sources` and `upsertSources` as given, spliced in as JSON text.
    static func page(sources: String? = nil, upsertSources: String? = nil) -> Data {
        var members = ""
        if let sources { members += #","sources":"# + sources }
        if let upsertSources { members += #","upsertSources":"# + upsertSources }
        return Data(#"""
            {"epoch":"e1","cursor":"c1","more":false,"reset":false,"base":"EUR","latestDate":"2026-03-04",
             "nextUpdateAfter":"2026-03-05T15:00:00Z",
             "upserts":{"2026-03-04":{"USD":"1.1649","AFN":"75.38056723","UAH":"50.4597"},"2026-03-03":{"USD":"1.1658"}}\#(members),
             "deletes":{}}
            """#.utf8)
    }

    @Test("a page's table and per-day indexes give each value its provider and day; index 0, and a day without indexes, are the ECB's own")
    func decoding() throws {
        let page = try SyncPage(json: Self.page(
            sources: #"[["NBU","2026-03-04"],["NBP","2026-03-04"],["ECB","2026-03-04"]]"#, upsertSources: #"{"2026-03-04":[2,1,3]}"#))
        let wednesday = day("2026-03-04")
        let named = [Self.afn: RateSource(provider: "NBP", day: wednesday), Self.uah: RateSource(provider: "NBU", day: wednesday)]
        #expect(page.sources == [wednesday: named], "codes in order: AFN, UAH, USD; the ECB's own figure named explicitly is the default")
        #expect(try SyncPage(json: Self.page()).sources.isEmpty, "a page without sources is the ECB's own, as from servers before them")
    }

    @Test("malformed sources are rejected", arguments: [
        (#"[["NBU","2026-03-04"]]"#, #"{"2026-03-04":[0,2,0]}"#),            // an index past the table
        (#"[["NBU","2026-03-04"]]"#, #"{"2026-03-04":[0,1]}"#),              // fewer indexes than currencies
        (#"[["NBU","2026-03-04"]]"#, #"{"2026-03-02":[1]}"#),                // a day without upserts
        (#"[["nbu","2026-03-04"]]"#, #"{"2026-03-04":[0,1,0]}"#),            // not a provider key
        (#"[["NBU","2026-03-32"]]"#, #"{"2026-03-04":[0,1,0]}"#),            // not a day
        (#"[["NBU"]]"#, #"{"2026-03-04":[0,1,0]}"#),                         // no day
        (#"[["NBU","2026-03-04"]]"#, #"{"2026-03-04":[0,-1,0]}"#),           // a negative index
    ])
    func malformed(sources: String, upsertSources: String) {
        #expect(throws: RatesClientError.self) { try SyncPage(json: Self.page(sources: sources, upsertSources: upsertSources)) }
    }

    // MARK: - Against the real server

    @Test("after one sync from a server of several providers, UAH reads, converts and is observed offline with its source; so does `rates convert`")
    func endToEnd() async throws {
        let cache = TemporaryCache()
        nonisolated(unsafe) var pegs: [String] = []
        let (stoppedURL, served) = try await withMergedServer { url, server in
            let sync = try await RatesCommandRun.run(["sync", "--server", url, "--cache", cache.url.path])
            #expect(sync.status == 0, "\(sync.standardError)")
            let answer = try await server.request("/v1/convert?from=USD&to=UAH&amount=100&date=2026-03-04")
            let pegged = try await server.request("/v1/rates/2026-03-04?symbols=FKP,AED,XAF")
            pegs = try ["FKP", "AED", "XAF"].map { try #require(pegged.decimalText("rates", $0), "\($0) is served") }
            return try #require(answer.decimalText("info", "rate"))
        }
        // The server is gone: everything below answers from the cache the command line filled.
        let client = try Self.client(of: stoppedURL, cache: cache)
        let wednesday = day("2026-03-04")
        let conversion = try client.convert(100, from: .usd, to: Self.uah)
        #expect(conversion.date == wednesday)
        #expect(conversion.rate.description == served, "the server's own cross rate")
        #expect(conversion.result == conversion.rate.decimal * 100)
        #expect(conversion.sources == [.usd: RateSource(provider: "ECB", day: wednesday), Self.uah: RateSource(provider: "NBU", day: wednesday)])
        let fromEuro = try client.convert(1, from: .euro, to: Self.uah)
        #expect(fromEuro.sources == [Self.uah: RateSource(provider: "NBU", day: wednesday)], "the euro has none")

        let table = try #require(try client.latest(base: .usd, symbols: [Self.uah, Self.afn]))
        #expect(table.sources == [
            .usd: RateSource(provider: "ECB", day: wednesday), Self.uah: RateSource(provider: "NBU", day: wednesday),
            Self.afn: RateSource(provider: "NBP", day: wednesday),
        ], "the symbols' and the base's")
        #expect(try client.currencies().count > 140, "every currency some provider published")
        // The pegs are not carried by the sync: the SDK derives them from the declared table, as the server does.
        let codes = ["FKP", "AED", "XAF"].map { CurrencyCode($0)! }
        let pegged = try #require(try client.rates(on: wednesday, symbols: codes))
        #expect(codes.map { pegged.rates[$0]?.description } == pegs, "the server's values")
        #expect(pegged.sources[codes[0]]?.provider == "PEG" && pegged.sources[codes[1]]?.provider == "PEG")
        #expect(try Set(client.currencies().keys).isSuperset(of: codes))
        let series = try client.timeseries(from: day("2026-03-02"), through: wednesday, symbols: [codes[0]])
        #expect(series[wednesday]?[codes[0]] == pegged.rates[codes[0]], "the history derives them too")
        // HKMA's Saturday: the ECB's Friday figures carried forward, and they say so.
        let saturday = try #require(try client.rates(on: day("2026-02-28"), symbols: [.usd]))
        #expect(saturday.date == day("2026-02-28") && saturday.requestedDate == nil)
        #expect(saturday.sources[.usd] == RateSource(provider: "ECB", day: day("2026-02-27")))

        let observed = Collected(client.observe(base: .euro, symbols: [Self.uah]))
        let first = await observed.wait(for: 1).first
        #expect(first??.sources == [Self.uah: RateSource(provider: "NBU", day: wednesday)])

        let convert = try await RatesCommandRun.run(["convert", "100", "USD", "UAH", "--server", stoppedURL, "--cache", cache.url.path])
        #expect(convert.status == 0, "\(convert.standardError)")
        #expect(convert.outputLines.first == "100 USD = \(conversion.result.plainText) UAH", "\(convert.standardOutput)")
        #expect(convert.outputLines.contains("1 USD = \(served) UAH"), "\(convert.standardOutput)")
        #expect(convert.outputLines.contains("USD from ECB, 2026-03-04; UAH from NBU, 2026-03-04"), "\(convert.standardOutput)")
    }

    @Test("a cache written before sources keeps answering with its sources unknown, and its next sync is a snapshot that brings every source")
    func cacheFromBeforeSources() async throws {
        let temporary = TemporaryCache()
        try Self.writePreviousSchemaCache(at: temporary)
        _ = try await withMergedServer { url, _ in
            let client = try Self.client(of: url, cache: temporary)
            let before = try client.convert(100, from: .usd, to: Self.uah)
            let cached = CrossRates(providerBase: .euro, published: [.usd: "1.1649", Self.uah: "50.4597"])
            #expect(before.rate == cached.rate(from: .usd, to: Self.uah), "the cached rates are still read")
            #expect(before.sources.isEmpty, "not known: they would be claimed the ECB's otherwise")
            let state = try client.cache.state()
            #expect(state.cursor == "c1" && state.epoch == "e1" && !state.sourcesKnown, "the cursor kept, the sources unknown")

            let report = try await client.sync()
            #expect(report.reset && report.outcome == .updated, "a snapshot: the cursor is not sent")
            #expect(try client.convert(100, from: .usd, to: Self.uah).sources[Self.uah] == RateSource(provider: "NBU", day: day("2026-03-04")))
            #expect(try client.cache.state().sourcesKnown)
        }
    }

    // MARK: - Helpers

    /// What the previous SDK (schema `v2`) wrote from a server with several providers: UAH, with no word of its source.
    static func writePreviousSchemaCache(at temporary: TemporaryCache) throws {
        try FileManager.default.createDirectory(at: temporary.folder, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: temporary.url.path)
        try RatesCache.migrator.migrate(old, upTo: "v2")
        try old.write { db in
            try db.execute(sql: "INSERT INTO rate (day, currency, value) VALUES ('2026-03-04', 'USD', '1.1649'), ('2026-03-04', 'UAH', '50.4597')")
            try db.execute(
                sql: """
                    UPDATE syncState SET cursor = 'c1', epoch = 'e1', etag = '"e1-9"', latestDate = '2026-03-04',
                        nextUpdateAfter = ?, lastSuccessfulSync = ?
                    """,
                arguments: [SyncPage.instant("2026-03-05T15:00:00Z"), SyncPage.instant("2026-03-04T18:00:00Z")])
        }
    }

    /// Runs `body` against ``RecordedProviders/withServer(whileECBOnly:_:)``; returns the server's URL
    /// once it has stopped, and what `body` returned.
    func withMergedServer<Value: Sendable>(
        _ body: @Sendable @escaping (_ url: String, _ server: any TestClientProtocol) async throws -> Value
    ) async throws -> (url: String, value: Value) {
        let result = Mutex<(String, Value)?>(nil)
        try await RecordedProviders.withServer { url, server in
            let value = try await body(url, server)
            result.withLock { $0 = (url, value) }
        }
        return try #require(result.withLock { $0 })
    }

    /// A client of the server at `url` on `cache` (a new URLSession, so no connection outlives a server).
    static func client(of url: String, cache: TemporaryCache) throws -> RatesClient {
        try RatesClient(configuration: .init(
            server: URL(string: url)!, cacheURL: cache.url, session: URLSession(configuration: .ephemeral), retry: RetryPolicy(maxAttempts: 1)))
    }
}
