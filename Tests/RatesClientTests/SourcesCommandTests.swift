import Foundation
import RatesCore
import RatesTestSupport
import Testing

/// `rates sources`: who published the cached rates and when (from the cache), and when the server
/// last heard from each source (asked of the server).
@Suite("The rates sources command")
struct SourcesCommandTests {
    let cache = TemporaryCache()

    @Test("names each cached value's publisher and day, and how long ago the server last heard from it; offline, says that part is not known")
    func sourcesOnlineAndOffline() async throws {
        let upstream = FakeUpstream(publishedThrough: Day("2026-10-30")!, firstDay: Day("2026-10-01")!)
        try await withRealServer(fedBy: upstream, now: TestServer.afterLastPublication) { url, _ in
            let sync = try await RatesCommandRun.run(["sync", "--server", url, "--cache", cache.url.path])
            #expect(sync.status == 0, "\(sync.standardError)")

            let online = try await RatesCommandRun.run(["sources", "--symbols", "USD,JPY", "--server", url, "--cache", cache.url.path])
            #expect(online.status == 0, "\(online.standardError)")
            #expect(online.outputLines.first == "rates of 2026-10-30: 2 currencies from 1 source", "\(online.standardOutput)")
            let line = try #require(online.outputLines.dropFirst().first)
            #expect(line.hasPrefix("ECB  European Central Bank: JPY, USD; published 2026-10-30; last heard "), "\(line)")
            #expect(line.hasSuffix("(last fetch: updated)") && !line.contains("never"), "\(line)")
            #expect(online.standardError.isEmpty, "\(online.standardError)")
        }
        // The server is gone: the cache still names the publishers; the rest is said to be unknown.
        let offline = try await RatesCommandRun.run(["sources", "--symbols", "USD", "--server", "http://127.0.0.1:9/", "--cache", cache.url.path])
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(offline.outputLines == ["rates of 2026-10-30: 1 currency from 1 source", "ECB  ECB: USD; published 2026-10-30"], "\(offline.standardOutput)")
        #expect(offline.standardError.hasPrefix("warning: when the server last heard from each source is not known: The server could not be reached"),
                "\(offline.standardError)")
    }

    @Test("never synced and offline, names the sources of the snapshot the SDK ships")
    func nothingSynced() async throws {
        let run = try await RatesCommandRun.run(["sources", "--symbols", "USD", "--server", "http://127.0.0.1:9/", "--cache", cache.url.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines.first?.hasSuffix(": 1 currency from 1 source") == true && run.outputLines.last?.hasPrefix("ECB  ECB: USD; published ") == true,
                "\(run.standardOutput)")
    }
}
