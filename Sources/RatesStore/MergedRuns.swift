import Foundation
import RatesCore

/// An ingest's merged days, handed from its merge to its store in runs of ascending days as each
/// is ready: the store writes one run while the merge computes the next, so that writing a long
/// history's merged rows overlaps its merge instead of following it.
///
/// The merge runs on another thread (``start(_:)``) and sends each run (``send(_:)``), which builds
/// the run's day tables there too (its pegs derived); the store takes them in order (``next()``)
/// until the merge has returned.
public final class MergedRuns: @unchecked Sendable {
    /// A run of merged days and their tables as stored.
    typealias Run = (days: RatesBatch, tables: [DayTable])

    // `runs`, `finished` and `failure` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var runs: [Run] = []
    private var finished = false
    private var failure: (any Error)?

    private init() {}

    /// Hands the store a run of merged days, each complete, all after those of the runs sent before.
    public func send(_ run: RatesBatch) {
        guard !run.days.isEmpty else { return }
        let tables = IngestDocuments.dayTables(run)
        condition.lock()
        defer { condition.unlock() }
        runs.append((run, tables))
        condition.signal()
    }

    /// Starts `merge` on a global queue, with the runs it sends to be taken from the value returned.
    static func start(_ merge: @escaping @Sendable (MergedRuns) throws -> Void) -> MergedRuns {
        let runs = MergedRuns()
        DispatchQueue.global().async {
            var failure: (any Error)?
            do { try merge(runs) } catch { failure = error }
            runs.condition.lock()
            defer { runs.condition.unlock() }
            runs.finished = true
            runs.failure = failure
            runs.condition.signal()
        }
        return runs
    }

    /// The next run, once it is sent; `nil` once the merge has returned and every run it sent was taken.
    ///
    /// - Throws: What the merge threw, once the runs it sent before are taken.
    func next() throws -> Run? {
        condition.lock()
        defer { condition.unlock() }
        while runs.isEmpty && !finished { condition.wait() }
        if !runs.isEmpty { return runs.removeFirst() }
        if let failure { throw failure }
        return nil
    }

    /// Every run, once the merge has returned, as one (with no days when it sent none).
    ///
    /// - Throws: What the merge threw.
    func all() throws -> Run {
        var days: [DailyRates] = []
        var tables: [DayTable] = []
        var first: RatesBatch?
        while let run = try next() {
            first = first ?? run.days
            days += run.days.days
            tables += run.tables
        }
        return (RatesBatch(base: first?.base ?? .euro, provider: first?.provider ?? ProviderKey.ecb, days: days), tables)
    }
}
