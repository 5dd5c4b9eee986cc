import Foundation
import RatesCore
import RatesStore
import RatesTestFixtures
import Testing

/// What several replicas on one PostgreSQL database rely on, and what makes the two databases
/// interchangeable: the same history gives the same snapshot, change log and sync pages.
@Suite("Shared PostgreSQL database", .enabled(if: TestPostgres.isEnabled, TestPostgres.unavailable))
struct SharedDatabaseTests {
    /// `count` days of random rates from 2026-01-01, some currencies withdrawn and some carried
    /// forward from another provider's day, with corrections of earlier days mixed in.
    static func history(count: Int, seed: UInt64) -> [RatesBatch] {
        var random = SplitMix64(seed: seed)
        let codes = ["USD", "JPY", "GBP", "CHF", "SEK", "UAH", "KZT", "XAU"].compactMap(CurrencyCode.init)
        let start = Day("2026-01-01")!
        return (0..<count).map { index in
            // Mostly a new day; now and then a correction of an earlier one.
            let day = index > 3 && random.next(below: 4) == 0 ? start.adding(days: random.next(below: index)) : start.adding(days: index)
            var daily = DailyRates(day: day, rates: [:])
            for code in codes where random.next(below: 8) != 0 {
                daily.rates[code] = "\(random.next(below: 900) + 1).\(random.next(below: 10_000))"
                if random.next(below: 5) == 0 { daily.sources[code] = RateSource(provider: "NBU", day: day.adding(days: -random.next(below: 3))) }
            }
            return RatesBatch(base: .euro, days: [daily])
        }
    }

    static func run() -> FetchRun { FetchRun(startedAt: Date(), source: .upstream, provider: "ECB", file: "test", outcome: .updated) }

    @Test("the same ingests give the same snapshot, change log and sync pages from SQLite and from PostgreSQL")
    func sameAnswersFromBothDatabases() async throws {
        try await RatesStoreTests.withDatabasePath { path in
            try await TestPostgres.withDatabase { url in
                let sqlite = try RatesStore(location: path)
                let postgres = try RatesStore(location: url)
                #expect(postgres.isShared && !sqlite.isShared)
                for batch in Self.history(count: 60, seed: 7) {
                    let a = try sqlite.ingest(batch, run: Self.run())
                    let b = try postgres.ingest(batch, run: Self.run())
                    #expect(a.outcome == b.outcome && a.rowsChanged == b.rowsChanged)
                }
                try sqlite.prune(before: Day("2026-01-05")!)
                try postgres.prune(before: Day("2026-01-05")!)
                let version = try sqlite.version()
                #expect(try version > 100 && postgres.version() == version)
                #expect(try postgres.snapshot().days == (try sqlite.snapshot().days))
                #expect(try postgres.changeLog(after: 0) == (try sqlite.changeLog(after: 0)))
                for (after, through) in [(0, version), (40, version - 10), (version - 5, version)] {
                    #expect(
                        try postgres.changes(after: after, through: through, from: Day("2026-01-20"), limit: 25)
                            == (try sqlite.changes(after: after, through: through, from: Day("2026-01-20"), limit: 25)))
                }
                // Pages of the state as it stood at an earlier version, page after page.
                for asOf in [version, version - 30] {
                    var after: Day?
                    var pages = 0
                    repeat {
                        let expected = try sqlite.state(asOf: asOf, after: after, from: nil, limit: 40)
                        #expect(try postgres.state(asOf: asOf, after: after, from: nil, limit: 40) == expected)
                        after = expected.more ? expected.days.last?.day : nil
                        pages += 1
                    } while after != nil
                    #expect(pages > 3)
                }
            }
        }
    }

    @Test("two replicas on one database share the epoch and one sequence: each reads what the other wrote")
    func replicasShareEpochAndSequence() async throws {
        try await TestPostgres.withDatabase { url in
            let first = try RatesStore(location: url)
            let second = try RatesStore(location: url)
            #expect(first.epoch == second.epoch && first.epoch.count == 16)
            let batches = Self.history(count: 10, seed: 11)
            for (index, batch) in batches.enumerated() {
                try (index.isMultiple(of: 2) ? first : second).ingest(batch, run: Self.run())
            }
            #expect(try first.version() == (try second.version()))
            #expect(try first.changeLog(after: 0) == (try second.changeLog(after: 0)))
            #expect(try first.lastRun()?.id == (try second.lastRun()?.id))
        }
    }

    @Test("writers on two replicas at once all succeed, one after the other: distinct sequence numbers, none skipped")
    func concurrentWritersAreSerialized() async throws {
        try await TestPostgres.withDatabase { url in
            let stores = [try RatesStore(location: url), try RatesStore(location: url)]
            let batches = Self.history(count: 40, seed: 23)
            // Each writer's ingests: the rows each changed, or why it failed. None may fail: a
            // writer waits for the other's transaction (the writers' lock), it is not refused.
            let outcomes = await withTaskGroup(of: [Result<Int, any Error>].self) { group in
                for (index, store) in stores.enumerated() {
                    group.addTask {
                        batches.enumerated().filter { $0.offset % 2 == index }.map(\.element).map { batch in
                            Result { try store.ingest(batch, run: Self.run()).rowsChanged }
                        }
                    }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
            let failures = outcomes.compactMap { if case .failure(let error) = $0 { String(describing: error) } else { nil } }
            let rowsChanged = outcomes.compactMap { try? $0.get() }
            #expect(outcomes.count == batches.count && failures.isEmpty, "\(failures.count) of \(outcomes.count) ingests failed: \(failures)")
            let log = try stores[0].changeLog(after: 0)
            try #require(!log.isEmpty)
            #expect(log.map(\.sequence) == Array(1...Int64(log.count)))
            #expect(rowsChanged.reduce(0, +) == log.count, "every row an ingest reported changed is in the log once")
            #expect(try stores[1].version() == Int64(log.count))
            #expect(try stores[0].snapshot().days == (try stores[1].snapshot().days))
        }
    }
}
