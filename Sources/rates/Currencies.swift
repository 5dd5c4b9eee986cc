import ArgumentParser
import RatesClient

/// `rates currencies`
struct Currencies: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the currencies with cached rates.")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await commandLine { try body() }
    }

    func body() throws {
        let client = try options.client()
        let names = try client.currencies()
        guard !names.isEmpty else { throw CommandFailure(description: "No rates are cached yet: run `rates sync` first.") }
        print("\(names.count) currencies; " + Freshness.line(for: try client.status()))
        for code in names.keys.sorted() { print("\(code)  \(names[code]!)") }
    }
}
