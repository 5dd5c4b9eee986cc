import ArgumentParser
import Foundation
import RatesClient

/// `rates status`
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show how fresh the cache is (no network).",
        discussion: """
            The state is `behind` when the server reported its own data stale at the last sync, or when the \
            ECB's publication schedule says a newer publication than the cached one is out by now.
            """)

    @OptionGroup var options: CommonOptions

    func run() throws {
        let client = try options.client()
        let status = try client.status()
        func row(_ label: String, _ value: String) { print(label.padding(toLength: 13, withPad: " ", startingAt: 0) + value) }
        row("cache:", options.cacheURL.path)
        row("server:", try options.serverURL.absoluteString)
        row("last sync:", status.lastSuccessfulSync.map { "\(Freshness.instant($0)) (\(Freshness.ago($0)))" } ?? "never")
        row("rates of:", status.latestDate.map { latest in "\(latest)" + (status.firstDate.map { " (history from \($0))" } ?? "") } ?? "none cached")
        if let expected = status.expectedLatestDate { row("expected:", "\(expected) (the newest publication due by now)") }
        row("next update:", status.nextUpdateAfter.map { "after \(Freshness.instant($0))" } ?? "unknown")
        let state: String
        if status.lastSuccessfulSync == nil && status.latestDate == nil {
            state = "never synced: run `rates sync`"
        } else if status.snapshotInProgress {
            state = "a sync was interrupted: run `rates sync` to finish it"
        } else if let reason = Freshness.behindReason(for: status) {
            state = "behind: " + reason
        } else if status.isStale {
            state = "stale: newer rates are due, run `rates sync`"
        } else {
            state = "fresh"
        }
        row("state:", state)
        if let epoch = status.epoch { row("epoch:", epoch) }
    }
}
