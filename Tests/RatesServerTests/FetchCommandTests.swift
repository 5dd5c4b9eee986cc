import Foundation
import RatesCore
import RatesStore
import RatesTestSupport
import Testing

@Suite("rates-relay fetch: every enabled source once")
struct FetchCommandTests {
    @Test("fetches the ECB and each provider named, prints a line per source, stores what came, and exits non-zero when one fails")
    func fetchesEverySource() async throws {
        let upstream = ProvidersTests.upstream()
        try await upstream.run { root in
            try await TestServer.withSeededDatabase { database in
                // The ECB's upstream is a closed port: its fetch fails, the providers' succeed. The stand-in
                // answers only the newest publication: no backfill (a config file says so).
                let config = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString).json")
                try Data(#"{"providers.backfill.days": 0}"#.utf8).write(to: config)
                defer { try? FileManager.default.removeItem(at: config) }
                let child = try Child.launch("rates-relay", [
                    "fetch", "--db", database, "--config", config.path, "--upstream-url", "http://127.0.0.1:9/", "--providers", "NBP,CBR",
                    "--upstream", "NBP=\(root)/nbp", "--upstream", "CBR=\(root)/cbr",
                ])
                let status = try await child.waitForExit(within: .seconds(120))
                let lines = child.output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(" ") && $0.contains(": ") }
                #expect(status == 1, "\(child.output)")
                #expect(lines.first { $0.hasPrefix("ECB ") }?.contains(": failed") == true, "\(child.output)")
                #expect(lines.first { $0.hasPrefix("CBR ") }?.contains(": updated") == true, "\(child.output)")
                #expect(lines.first { $0.hasPrefix("NBP ") }?.contains(": updated") == true, "\(child.output)")
                let store = try RatesStore(path: database)
                #expect(try store.latestPublicationDay(of: "CBR") == Day("2026-04-25"))
                #expect(try store.latestPublicationDay(of: "NBP") == Day("2026-03-05"))
            }
        }
    }
}
