import Foundation
import RatesCore
import Testing
@testable import RatesClient

@Suite("Observing the latest rates")
struct ObservationTests {
    let now = Date()

    @Test("yields the current table first, then once per change that affects it, and not for unrelated changes")
    func currentThenChanges() async throws {
        let temporary = TemporaryCache()
        let client = try temporary.client()
        try client.cache.apply(snapshot(threeDays), sentCursor: false, window: nil, etag: nil, now: now)
        let observed = Collected(client.observe(base: .euro, symbols: [.usd, .jpy]))
        let first = await observed.wait(for: 1)
        #expect(first.count == 1)
        #expect(first.first??.rates == [.usd: .published("1.1200"), .jpy: .published("176.00")])

        // Unrelated: an older day, and a currency outside `symbols` on the latest day.
        try client.cache.apply(page(cursor: "c2", upserts: [day("2026-10-30"): rates(["USD": "1.1111"])]), sentCursor: true, window: nil, etag: nil, now: now)
        try client.cache.apply(page(cursor: "c3", upserts: [day("2026-11-02"): rates(["GBP": "0.88000"])]), sentCursor: true, window: nil, etag: nil, now: now)
        // A rewrite with the same value.
        try client.cache.apply(page(cursor: "c4", upserts: [day("2026-11-02"): rates(["USD": "1.1200"])]), sentCursor: true, window: nil, etag: nil, now: now)

        // A correction of the latest day. The stream keeps the order of changes, so a value yielded
        // for any change above would come before this one: the second value must be the correction.
        try client.cache.apply(page(cursor: "c5", upserts: [day("2026-11-02"): rates(["USD": "1.1250"])]), sentCursor: true, window: nil, etag: nil, now: now)
        let second = await observed.wait(for: 2)
        #expect(second.count == 2 && second.last??[.usd] == .published("1.1250"), "\(second)")

        // A new publication, then a correction of it: one value each, nothing in between.
        try client.cache.apply(page(cursor: "c6", upserts: [day("2026-11-03"): rates(["USD": "1.1300", "JPY": "177.00"])]), sentCursor: true, window: nil, etag: nil, now: now)
        let third = await observed.wait(for: 3)
        #expect(third.count == 3 && third.last??.date == day("2026-11-03"), "\(third)")
        try client.cache.apply(page(cursor: "c7", upserts: [day("2026-11-03"): rates(["USD": "1.1400"])]), sentCursor: true, window: nil, etag: nil, now: now)
        let fourth = await observed.wait(for: 4)
        #expect(fourth.map { $0?[.usd] } == [.published("1.1200"), .published("1.1250"), .published("1.1300"), .published("1.1400")], "\(fourth)")
        #expect(observed.error == nil)
    }

    @Test("an empty cache yields nil, then the first snapshot's table")
    func emptyThenFilled() async throws {
        let temporary = TemporaryCache()
        let client = try temporary.client()
        let observed = Collected(client.observe(base: .usd, symbols: [.euro]))
        #expect(await observed.wait(for: 1).first! == nil)
        // A snapshot in progress is not visible.
        try client.cache.apply(page(cursor: "s1", more: true, upserts: [day("2026-10-30"): threeDays[day("2026-10-30")]!]), sentCursor: false, window: nil, etag: nil, now: now)
        try client.cache.apply(page(cursor: "c1", upserts: [day("2026-11-02"): threeDays[day("2026-11-02")]!]), sentCursor: true, window: nil, etag: nil, now: now)
        // In order: a value for the page in progress would come before the finished snapshot's.
        let values = await observed.wait(for: 2)
        #expect(values.count == 2 && values.last??.date == day("2026-11-02"), "\(values)")
        #expect(values.last??[.euro] == .computed("0.89285714"))
    }

    @Test("a sync through the client is observed")
    func syncIsObserved() async throws {
        let temporary = TemporaryCache()
        let server = ScriptedServer()
        server.thenJSON(pageJSON(cursor: "c1", upserts: ["2026-11-02": ["USD": "1.1200"]]), etag: "\"e1-1\"")
        let client = try temporary.client(server: server)
        let observed = Collected(client.observe(symbols: [.usd]))
        await observed.wait(for: 1)
        try await client.sync()
        let values = await observed.wait(for: 2)
        #expect(values.count == 2)
        #expect(values.last??[.usd] == .published("1.1200"))
    }

    @Test("observing a currency the latest day lacks ends the stream with that error")
    func unknownBase() async throws {
        let temporary = TemporaryCache()
        let client = try temporary.client()
        try client.cache.apply(snapshot(threeDays), sentCursor: false, window: nil, etag: nil, now: now)
        let observed = Collected(client.observe(base: .bgn))
        await observed.wait(for: 1)
        #expect(observed.values.isEmpty)
        #expect(observed.error == String(describing: RatesClientError.noRate(.bgn, on: day("2026-11-02"))))
    }
}
