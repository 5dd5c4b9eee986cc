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
        let run = try await RatesCommandRun.run(["convert", "100", "USD", "EUR", "--cache", cache.url.path])
        #expect(run.status == 1)
        #expect(run.standardError.contains("No rates are cached yet: run `rates sync` first."), "\(run.standardError)")
        #expect(!run.standardError.contains("Usage:"))
    }
}
