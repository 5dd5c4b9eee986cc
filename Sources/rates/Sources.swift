import ArgumentParser
import Foundation
import RatesClient
import RatesCore

/// `rates sources [--symbols A,B] [--date D]`
struct Sources: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show who published the cached rates and when, and when the server last heard from each source.",
        discussion: """
            The publishers and their days come from the cache. How long ago the server last heard from each source \
            (a publication, or word that nothing changed) is asked of the server; offline, that column says so and \
            the rest is still shown.
            """)

    @Option(help: ArgumentHelp("Only the sources of these currencies, comma-separated.", valueName: "A,B"))
    var symbols: CurrencyList?

    @Option(help: ArgumentHelp("The sources of this day's rates instead (nearest earlier publication).", valueName: "YYYY-MM-DD"))
    var date: Day?

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let client = try options.client()
        let cached = try await commandLine { () throws -> RateTable? in
            try date.map { try client.rates(on: $0, symbols: symbols?.codes) } ?? client.latest(symbols: symbols?.codes)
        }
        guard let table = cached else { throw CommandFailure(description: "No rates are cached yet: run `rates sync` first.") }
        var byProvider: [String: [(code: CurrencyCode, day: Day)]] = [:]
        for (code, source) in table.sources where table.rates[code] != nil { byProvider[source.provider, default: []].append((code, source.day)) }
        var heard: [String: ProviderHealth] = [:]
        var unreachable: String?
        do {
            for provider in try await client.providers() { heard[provider.key] = provider }
        } catch {
            unreachable = "\(error)"
        }
        let count = table.rates.count == 1 ? "1 currency" : "\(table.rates.count) currencies"
        print("rates of \(table.date): \(count) from \(Freshness.plural(byProvider.count, "source"))")
        let width = byProvider.keys.map(\.count).max() ?? 0
        // The source of the most currencies first, then by key.
        for (key, values) in byProvider.sorted(by: { ($1.value.count, $0.key) < ($0.value.count, $1.key) }) {
            let days = Set(values.map(\.day)).sorted()
            let codes = values.map(\.code.rawValue).sorted()
            let shown = codes.count > 6 ? codes.prefix(5).joined(separator: ", ") + " and \(codes.count - 5) more" : codes.joined(separator: ", ")
            let published = days.count == 1 ? "published \(days[0])" : "published \(days.first!) to \(days.last!)"
            var line = key.padding(toLength: width + 2, withPad: " ", startingAt: 0) + "\(heard[key]?.name ?? key): \(shown); \(published)"
            if unreachable == nil {
                let health = heard[key]
                line += "; last heard " + (health?.lastHeardAt.map { Freshness.ago($0) } ?? "never")
                if let outcome = health?.lastOutcome { line += " (last fetch: \(outcome))" }
            }
            print(line)
        }
        if let unreachable {
            FileHandle.standardError.write(Data("warning: when the server last heard from each source is not known: \(unreachable)\n".utf8))
        }
    }
}
