import Foundation
import RatesClient
import RatesCore

// Times the SDK against a live server (see Scripts/measure-sync.sh for the setup).
//
//   client-sync-benchmark first --server URL --dir DIR --window YYYY-MM-DD [--runs N]
//     N first syncs of the window, each into a new cache DIR/cache-K.sqlite.
//   client-sync-benchmark apply --server URL --dir DIR --window YYYY-MM-DD
//     An incremental sync of each cache DIR/cache-K.sqlite (after the server got one more
//     publication), then local conversions on the last one.
//   client-sync-benchmark convert --server URL --dir DIR --window YYYY-MM-DD
//     Local conversions on DIR/cache-1.sqlite, as a `first` run left it (offline: no request).
//   client-sync-benchmark bundled --server URL --dir DIR --window YYYY-MM-DD [--runs N]
//     An app's first launch offline: N times, a client on a new cache DIR/bundled-K.sqlite (the SDK's
//     shipped snapshot put in) and its first conversion, USD to JPY; the server is never asked.

struct Arguments {
    var phase: String
    var server: URL
    var dir: URL
    var window: Day
    var runs: Int

    init() {
        var values: [String: String] = [:]
        var rest = CommandLine.arguments.dropFirst()
        let phase = rest.popFirst() ?? ""
        while let name = rest.popFirst(), name.hasPrefix("--"), let value = rest.popFirst() { values[String(name.dropFirst(2))] = value }
        guard ["first", "apply", "convert", "bundled"].contains(phase), let server = values["server"].flatMap(URL.init(string:)),
              let dir = values["dir"], let window = values["window"].flatMap(Day.init)
        else {
            FileHandle.standardError.write(Data("usage: client-sync-benchmark first|apply|convert|bundled --server URL --dir DIR --window YYYY-MM-DD [--runs N]\n".utf8))
            exit(64)
        }
        self.phase = phase
        self.server = server
        self.dir = URL(fileURLWithPath: dir)
        self.window = window
        runs = values["runs"].flatMap(Int.init) ?? 10
    }

    func cache(_ run: Int) -> URL { dir.appendingPathComponent("cache-\(run).sqlite") }

    func client(_ run: Int) throws -> RatesClient {
        try RatesClient(configuration: .init(server: server, cacheURL: cache(run), window: window, retry: RetryPolicy(maxAttempts: 1)))
    }
}

/// Milliseconds since `start`.
func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let (seconds, attoseconds) = start.duration(to: .now).components
    return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
}

func summary(_ label: String, _ values: [Double], unit: String = "ms") {
    let sorted = values.sorted()
    let median = sorted[sorted.count / 2]
    print(String(format: "%@: median %.3f %@, min %.3f, max %.3f (%d runs)", label, median, unit, sorted.first!, sorted.last!, sorted.count))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// Local conversions on a synced cache: each pair's first, repeated ones, and past dates.
func measureConversions(_ client: RatesClient, window: Day) throws {
    guard let latest = try client.latest() else { fail("no data") }
    let codes = [CurrencyCode.euro] + latest.rates.keys.sorted { $0.rawValue < $1.rawValue }
    let pairs = codes.flatMap { from in codes.filter { $0 != from }.map { (from, $0) } }
    // Each pair's first conversion computes its cross rate.
    var start = ContinuousClock.now
    for (from, to) in pairs { _ = try client.convert(100, from: from, to: to) }
    let first = milliseconds(since: start) * 1000 / Double(pairs.count)
    // Later conversions of a pair reuse the memoized rate.
    let rounds = 100
    start = ContinuousClock.now
    for _ in 0..<rounds { for (from, to) in pairs { _ = try client.convert(100, from: from, to: to) } }
    let repeated = milliseconds(since: start) * 1000 / Double(pairs.count * rounds)
    // Dates in the window (from its first full week): the nearest earlier publication is looked up in SQLite once per day.
    let days = (7..<67).map { window.adding(days: $0) }
    start = ContinuousClock.now
    for day in days { _ = try client.convert(100, from: .euro, to: codes[1], on: day) }
    let dated = milliseconds(since: start) * 1000 / Double(days.count)
    print(String(format: "conversion, first of each of %d pairs: %.2f µs", pairs.count, first))
    print(String(format: "conversion, repeated: %.2f µs", repeated))
    print(String(format: "conversion on a past date, first of each of %d days: %.2f µs", days.count, dated))
}

let arguments = Arguments()
switch arguments.phase {
case "first":
    var times: [Double] = []
    var lastReport: SyncReport?
    for run in 1...arguments.runs {
        let client = try arguments.client(run)
        let start = ContinuousClock.now
        let report = try await client.sync()
        times.append(milliseconds(since: start))
        guard report.outcome == .updated else { fail("first sync \(run): \(report.outcome)") }
        lastReport = report
    }
    if let report = lastReport {
        print("first sync from \(arguments.window): \(report.upserted) rates in \(report.pagesApplied) page(s), through \(report.latestDate?.description ?? "-")")
    }
    summary("first sync over loopback", times)

case "convert":
    try measureConversions(try arguments.client(1), window: arguments.window)

case "bundled":
    var times: [Double] = []
    for run in 1...arguments.runs {
        let start = ContinuousClock.now
        let client = try RatesClient(configuration: .init(server: arguments.server, cacheURL: arguments.dir.appendingPathComponent("bundled-\(run).sqlite")))
        let conversion = try client.convert(100, from: CurrencyCode("USD")!, to: CurrencyCode("JPY")!)
        times.append(milliseconds(since: start))
        guard try client.status().isBundled else { fail("bundled \(run): the cache does not hold the shipped snapshot") }
        if run == 1 { print("first launch offline: 100 USD = \(conversion.result) JPY, rates of \(conversion.date) (\(RatesClient.shippedRates?.count ?? 0) bytes shipped)") }
    }
    summary("first launch offline: a new cache with the shipped snapshot, then a conversion", times)

default:
    var times: [Double] = []
    var last: RatesClient?
    for run in 1...arguments.runs {
        let client = try arguments.client(run)
        let before = try client.status().latestDate
        let start = ContinuousClock.now
        let report = try await client.sync()
        times.append(milliseconds(since: start))
        guard report.outcome == .updated, !report.reset, report.latestDate != before else { fail("incremental sync \(run): \(report)") }
        if run == 1 { print("incremental sync: \(report.upserted) rates in \(report.pagesApplied) page(s), \(before?.description ?? "-") -> \(report.latestDate?.description ?? "-")") }
        last = client
    }
    summary("one publication applied (whole sync: request, decode, transaction)", times)

    guard let client = last else { fail("no data") }
    try measureConversions(client, window: arguments.window)
}
