import Benchmark
import Foundation
import RatesCore
@_spi(Benchmarks) import RatesServer

// Building one uncached answer from the in-memory dataset (the whole ECB history, 30 currencies
// a day), as a request the answer cache has not seen: no HTTP, no cache.
// Run: swift package --package-path Benchmarks benchmark --target AnswerBuilding

let history = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/RatesIngest/Resources/eurofxref-hist.zip")

nonisolated(unsafe) let benchmarks: @Sendable () -> Void = {
    let answers = try! AnswerBenchmark(history: history)
    let days = answers.days
    let configuration = Benchmark.Configuration(
        metrics: [.cpuTotal, .wallClock, .mallocCountTotal, .throughput], maxDuration: .seconds(5), maxIterations: 1_000_000)

    // A different day each iteration, walking the whole history: every answer is built anew.
    // The request targets are made beforehand: only building the answer is measured.
    func measure(_ name: String, _ target: @escaping (String) -> String) {
        let targets = days.map { target($0.description) }
        Benchmark(name, configuration: configuration) { benchmark in
            var index = 0
            for _ in benchmark.scaledIterations {
                index = (index + 1) % targets.count
                blackHole(answers.build(targets[index]))
            }
        }
    }
    measure("/v1/rates/{date}?base=USD (30 currencies)") { "/v1/rates/\($0)?base=USD" }
    measure("/v1/rates/{date} (EUR, the published figures)") { "/v1/rates/\($0)" }
    measure("/v1/convert?from=GBP&to=JPY&amount=1234.56&date={date}") { "/v1/convert?from=GBP&to=JPY&amount=1234.56&date=\($0)" }
}
