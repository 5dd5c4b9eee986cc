import ArgumentParser
import Foundation
import RatesClient
import RatesCore

/// `rates latest [--base B] [--symbols A,B] [--date D | --watch]`
struct Latest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the newest cached rates (or those of a day).",
        discussion: """
            With --watch the command stays running: it syncs now, whenever the server announces a publication \
            (/v1/events) and when the next one is due, and prints the table again each time it changes, until \
            interrupted.
            """)

    @Option(help: "The base currency.")
    var base: CurrencyCode = .euro

    @Option(help: ArgumentHelp("Only these currencies, comma-separated.", valueName: "A,B"))
    var symbols: CurrencyList?

    @Option(help: ArgumentHelp("The rates of this day instead (nearest earlier publication).", valueName: "YYYY-MM-DD"))
    var date: Day?

    @Flag(help: "Keep running and print the table again whenever newer rates arrive.")
    var watch = false

    @OptionGroup var options: CommonOptions

    func validate() throws {
        if watch, date != nil { throw ValidationError("--watch follows the newest rates; it takes no --date.") }
    }

    func run() async throws {
        if watch { return try await follow() }
        try await commandLine { try body() }
    }

    /// Prints the newest table, then each newer one as the auto-refreshing client brings it.
    func follow() async throws {
        let client = try options.client(autoRefresh: true)
        var shown: RateTable?
        for try await table in client.observe(base: base, symbols: symbols?.codes) {
            guard let table, table != shown else { continue }
            if shown != nil { print("") }
            show(table, status: try client.status())
            fflush(nil)   // every stream: a pipe reader sees each table as it comes
            shown = table
        }
    }

    func body() throws {
        let client = try options.client()
        let table: RateTable?
        if let date {
            table = try client.rates(on: date, base: base, symbols: symbols?.codes)
            if table == nil, try client.status().latestDate != nil {
                throw CommandFailure(description: "No cached rates on or before \(date).")
            }
        } else {
            table = try client.latest(base: base, symbols: symbols?.codes)
        }
        guard let table else { throw CommandFailure(description: "No rates are cached yet: run `rates sync` first.") }
        let status = try client.status()
        show(table, status: status)
        Freshness.warnIfBehind(status)
    }

    /// The table's lines: its base, size and freshness, then a currency a line.
    func show(_ table: RateTable, status: CacheStatus) {
        let count = table.rates.count == 1 ? "1 currency" : "\(table.rates.count) currencies"
        print("1 \(table.base) in \(count), " + Freshness.line(for: status, date: table.date))
        if let requested = table.requestedDate { print("(no publication on \(requested): rates of \(table.date))") }
        let codes = symbols?.codes ?? table.rates.keys.sorted()
        let width = codes.compactMap { table[$0]?.description.count }.max() ?? 0
        for code in codes {
            guard let rate = table[code] else { continue }
            let text = rate.description
            print("\(code)  \(text)\(String(repeating: " ", count: width - text.count))  \(code.name ?? "")")
        }
    }
}
