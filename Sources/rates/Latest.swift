import ArgumentParser
import RatesClient
import RatesCore

/// `rates latest [--base B] [--symbols A,B] [--date D]`
struct Latest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the newest cached rates (or those of a day).")

    @Option(help: "The base currency.")
    var base: CurrencyCode = .euro

    @Option(help: ArgumentHelp("Only these currencies, comma-separated.", valueName: "A,B"))
    var symbols: CurrencyList?

    @Option(help: ArgumentHelp("The rates of this day instead (nearest earlier publication).", valueName: "YYYY-MM-DD"))
    var date: Day?

    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await commandLine { try body() }
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
        let count = table.rates.count == 1 ? "1 currency" : "\(table.rates.count) currencies"
        let status = try client.status()
        print("1 \(table.base) in \(count), " + Freshness.line(for: status, date: table.date))
        if let requested = table.requestedDate { print("(no publication on \(requested): rates of \(table.date))") }
        let codes = symbols?.codes ?? table.rates.keys.sorted()
        let width = codes.compactMap { table[$0]?.description.count }.max() ?? 0
        for code in codes {
            guard let rate = table[code] else { continue }
            let text = rate.description
            print("\(code)  \(text)\(String(repeating: " ", count: width - text.count))  \(code.name ?? "")")
        }
        Freshness.warnIfBehind(status)
    }
}
