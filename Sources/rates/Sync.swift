import ArgumentParser
import Foundation
import RatesClient

/// `rates sync`
struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch what changed on the server into the cache.",
        discussion: "Exits with status 75 when the server cannot be reached; the cache keeps answering.")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let client = try options.client()
        let report = try await client.sync()
        let latest = report.latestDate.map { "rates of \($0)" } ?? "no rates yet"
        switch report.outcome {
        case .updated:
            let what = report.reset ? "loaded \(report.upserted) rates" : "\(report.upserted) rates updated, \(report.deleted) removed"
            print("synced: \(what) in \(Freshness.plural(report.pagesApplied, "page")); \(latest)")
        case .upToDate:
            print("already up to date; \(latest)")
        case .offline(let reason):
            var message = "offline: \(reason) (\(try options.serverURL.absoluteString))."
            if report.pagesApplied > 0 { message += " \(report.pagesApplied) pages were applied; the next sync resumes." }
            let status = try client.status()
            message += status.latestDate == nil ? " Nothing is cached yet." : " The cache still answers: " + Freshness.line(for: status, advice: false) + "."
            print(message)
            throw ExitCode(75)
        }
        Freshness.warnIfBehind(try client.status())
    }
}
