import ArgumentParser
import Foundation
import RatesClient
import RatesCore

/// `rates convert 100 USD EUR [--date D]`
struct Convert: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert an amount between two currencies.",
        discussion: """
            Uses the newest cached rates, or those of --date (the nearest earlier publication on weekends and holidays), \
            and names the source of each currency's value: the provider and the day it published it. \
            When the cached rates are behind (see `rates status`), a warning says so on standard error.
            """)

    @Argument(help: "The amount, e.g. 100 or 12.50.")
    var amount: Amount

    @Argument(help: "The currency to convert from, e.g. USD.")
    var from: CurrencyCode

    @Argument(help: "The currency to convert to, e.g. EUR.")
    var to: CurrencyCode

    @Option(help: ArgumentHelp("Use the rates of this day.", valueName: "YYYY-MM-DD"))
    var date: Day?

    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await commandLine { try body() }
    }

    func body() throws {
        let client = try options.client()
        let conversion = try client.convert(amount.value, from: from, to: to, on: date)
        let status = try client.status()
        print("\(amount.text) \(from) = \(conversion.result.plainText) \(to)")
        print("1 \(from) = \(conversion.rate) \(to)")
        if let sources = Provenance.line(for: [from, to], sources: conversion.sources) { print(sources) }
        let note = conversion.requestedDate.map { " (no publication on \($0))" } ?? ""
        print(Freshness.line(for: status, date: conversion.date) + note)
        Freshness.warnIfBehind(status)
    }
}
