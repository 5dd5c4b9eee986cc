import Foundation
import NIOCore
import RatesCore
import RatesIngest
import RatesUpstream

/// What `Benchmarks/AnswerBuilding` measures: building a data route's answer from the in-memory
/// dataset, as an uncached request does, without HTTP and without the answer cache.
@_spi(Benchmarks) public struct AnswerBenchmark: Sendable {
    let snapshot: RatesSnapshot
    let answers: DataAnswers
    let freshness: Freshness

    /// The dataset of an ECB history file (`eurofxref-hist.zip`), as the server holds it.
    public init(history: URL) throws {
        let batch = try ECBHistoryFile.read(contentsOf: history)
        snapshot = RatesSnapshot(epoch: "benchmark", version: 1, dailyRates: batch.days)
        var configuration = ServerConfiguration()
        configuration.now = { Date(timeIntervalSince1970: 1_798_761_600) }   // 2027-01-01: every day is in the past
        answers = DataAnswers(schedule: ProviderRegistry.referenceSchedule, configuration: configuration, quotes: nil)
        freshness = CacheControlPolicy(schedule: ProviderRegistry.referenceSchedule, now: configuration.now).freshness(of: snapshot, confirmed: true)
    }

    /// The days the dataset holds, oldest first.
    public var days: [Day] { snapshot.days.map(\.day) }

    /// Builds the answer to `target` (`/v1/rates/2026-10-30?base=USD`); returns its length in
    /// bytes, or -1 when the target is not a data route or the route refuses it.
    public func build(_ target: String) -> Int {
        guard let (route, parameter) = DataAnswers.route(ofPath: FastPath.path(of: target)),
              let entry = try? answers.entry(route, parameter: parameter, query: QueryParameters(target: target), snapshot: snapshot, freshness: freshness)
        else { return -1 }
        return entry.body.readableBytes
    }
}
