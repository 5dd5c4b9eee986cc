import Foundation
import RatesCore
import RatesTestSupport
import Testing

/// The `rates` executable as a user runs it: arguments, standard output and error, exit status.
@Suite("The rates command line")
struct CommandLineTests {
    let cache = TemporaryCache()

    @Test("an invalid argument of a command shows that command's usage and exits 64")
    func invalidArgument() async throws {
        let run = try await RatesCommandRun.run(["convert", "abc", "USD", "EUR", "--cache", cache.url.path])
        #expect(run.status == 64)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("Error: The value 'abc' is invalid for '<amount>'"), "\(run.standardError)")
        #expect(run.standardError.contains("Usage: rates convert <amount> <from> <to>"), "\(run.standardError)")
        #expect(!run.standardError.contains("SUBCOMMANDS"), "not the top-level usage")
    }

    @Test("a server address that is not http(s) is an invalid argument of the command, exit 64")
    func invalidServer() async throws {
        let run = try await RatesCommandRun.run(["status", "--server", "ftp://rates.example.com", "--cache", cache.url.path])
        #expect(run.status == 64)
        #expect(run.standardError.contains("'ftp://rates.example.com' is not an http(s) URL"), "\(run.standardError)")
        #expect(run.standardError.contains("Usage: rates status"), "\(run.standardError)")
    }

    @Test("--help documents every exit status")
    func helpDocumentsExitStatus() async throws {
        let run = try await RatesCommandRun.run(["--help"])
        #expect(run.status == 0)
        for status in ["0   success", "1   the command failed", "64  invalid arguments", "75  `sync` could not reach the server"] {
            #expect(run.standardOutput.contains(status), "\(run.standardOutput)")
        }
    }

    @Test("a failure that is not the arguments' exits 1 without a usage")
    func failureExitsOne() async throws {
        let run = try await RatesCommandRun.run(["convert", "100", "USD", "EUR", "--date", "1990-01-02", "--cache", cache.url.path])
        #expect(run.status == 1)
        #expect(run.standardError.contains("No rates before "), "\(run.standardError)")
        #expect(!run.standardError.contains("Usage:"))
    }

    /// The command runs on the real clock, which is past the fake ECB's last publication (2026-10-30).
    @Test("against the real server: `status` and `convert` say the rates are behind; convert's standard output keeps its format")
    func behind() async throws {
        let upstream = FakeUpstream(publishedThrough: Day("2026-10-30")!, firstDay: Day("2026-10-01")!)
        try await withRealServer(fedBy: upstream, now: TestServer.afterLastPublication) { url, _ in
            let sync = try await RatesCommandRun.run(["sync", "--server", url, "--cache", cache.url.path])
            #expect(sync.status == 0, "\(sync.standardError)")
            #expect(sync.outputLines.first?.hasPrefix("synced: loaded") == true, "\(sync.standardOutput)")
            #expect(sync.standardError.hasPrefix("warning: the rates of 2026-10-30 are behind: "), "\(sync.standardError)")

            let status = try await RatesCommandRun.run(["status", "--server", url, "--cache", cache.url.path])
            #expect(status.status == 0)
            #expect(status.outputLines.contains("rates of:    2026-10-30 (history from 2026-10-01)"), "\(status.standardOutput)")
            #expect(status.outputLines.contains { $0.hasPrefix("expected:    ") }, "\(status.standardOutput)")
            #expect(status.outputLines.contains { $0.hasPrefix("state:       behind: ") }, "\(status.standardOutput)")

            let convert = try await RatesCommandRun.run(["convert", "100", "USD", "EUR", "--cache", cache.url.path])
            #expect(convert.status == 0)
            #expect(convert.outputLines.count == 4, "\(convert.standardOutput)")
            #expect(convert.outputLines.first == "100 USD = 89.509488 EUR")
            #expect(convert.outputLines.dropFirst().first == "1 USD = 0.89509488 EUR")
            #expect(convert.outputLines.dropFirst(2).first == "USD from ECB, 2026-10-30")
            #expect(convert.outputLines.last?.hasPrefix("rates of 2026-10-30, synced ") == true, "\(convert.standardOutput)")
            let warnings = convert.standardError.split(separator: "\n")
            #expect(warnings.count == 1 && warnings[0].hasPrefix("warning: the rates of 2026-10-30 are behind: "), "\(convert.standardError)")
        }
    }
}
