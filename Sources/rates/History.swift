import ArgumentParser
import Foundation
import RatesClient
import RatesCore

/// `rates history USD --days 30 [--base EUR]`
struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a currency's rates over the last days.",
        discussion: "The days end with the newest cached publication; days without a publication are left out.")

    @Argument(help: "The currency, e.g. USD.")
    var currency: CurrencyCode

    @Option(help: "How many calendar days, ending with the newest cached publication.")
    var days: Int = 30

    @Option(help: "The base currency.")
    var base: CurrencyCode = .euro

    @OptionGroup var options: CommonOptions

    func validate() throws {
        guard (1...36_500).contains(days) else { throw ValidationError("--days must be between 1 and 36500.") }
    }

    func run() async throws {
        try await commandLine { try body() }
    }

    func body() throws {
        let client = try options.client()
        let status = try client.status()
        guard let end = status.latestDate else { throw CommandFailure(description: "No rates are cached yet: run `rates sync` first.") }
        let start = end.adding(days: -(days - 1))
        let series = try client.timeseries(from: start, through: end, base: base, symbols: [currency])
        let points = series.keys.sorted().compactMap { day in series[day]?[currency].map { (day, $0) } }
        print("1 \(base) in \(currency), \(start) to \(end): \(points.count) publications; " + Freshness.line(for: status))
        for (day, rate) in points { print("\(day)  \(rate)") }
        if let first = points.first?.1.decimal, let last = points.last?.1.decimal, points.count > 1, first != 0 {
            var change = (last - first) / first * 100
            var rounded = Decimal()
            NSDecimalRound(&rounded, &change, 2, .plain)
            print("change: \(rounded >= 0 ? "+" : "")\(rounded.plainText)%")
        }
        Freshness.warnIfBehind(status)
    }
}
