import Foundation
@testable import RatesCore
import Testing

@Suite("Time zone offsets read from the system's TZif files")
struct ZoneOffsetsTests {
    func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    /// Zones of both hemispheres, with half-hour and quarter-hour offsets, daylight saving time
    /// abolished (São Paulo, 2019) and none at all; their rules have not changed in years, so the
    /// system's database and ICU's copy agree on them.
    @Test("Every offset from 1990 to 2060 is Foundation's", arguments: [
        "Europe/Berlin", "Europe/London", "America/New_York", "America/Sao_Paulo", "Australia/Sydney", "Pacific/Auckland",
        "Asia/Kolkata", "Asia/Kathmandu", "Asia/Tokyo", "Africa/Johannesburg", "Australia/Adelaide",
    ])
    func matchesFoundation(zone identifier: String) throws {
        let zone = ZoneOffsets.named(identifier)
        let foundation = try #require(TimeZone(identifier: identifier))
        var mismatches: [String] = []
        // Every 5 hours and 7 minutes: every hour of the day and every day of the week, in turn.
        var date = instant("1990-01-01T00:00:00Z")
        let end = instant("2060-12-31T00:00:00Z")
        var checked = 0
        while date < end {
            if zone.secondsFromGMT(for: date) != foundation.secondsFromGMT(for: date), mismatches.count < 5 {
                mismatches.append("\(date): \(zone.secondsFromGMT(for: date)) vs \(foundation.secondsFromGMT(for: date))")
            }
            checked += 1
            date += 5 * 3600 + 7 * 60
        }
        #expect(checked > 100_000)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("A change of offset takes effect at its second")
    func transitionInstant() {
        let berlin = ZoneOffsets.named("Europe/Berlin")
        // 2026-03-29: 02:00 CET (01:00 UTC) becomes 03:00 CEST; 2026-10-25: 03:00 CEST (01:00 UTC) becomes 02:00 CET.
        #expect(berlin.secondsFromGMT(for: instant("2026-03-29T00:59:59Z")) == 3600)
        #expect(berlin.secondsFromGMT(for: instant("2026-03-29T01:00:00Z")) == 7200)
        #expect(berlin.secondsFromGMT(for: instant("2026-10-25T00:59:59Z")) == 7200)
        #expect(berlin.secondsFromGMT(for: instant("2026-10-25T01:00:00Z")) == 3600)
    }

    @Test("A footer's rule gives the offsets after the last transition, in both hemispheres")
    func footerRule() throws {
        let central = try #require(PosixRule("CET-1CEST,M3.5.0,M10.5.0/3"))
        // The last Sundays of March and October 2040 are the 25th and the 28th.
        func seconds(_ text: String) -> Int64 { Int64(instant(text).timeIntervalSince1970) }
        #expect(central.offset(at: seconds("2040-03-25T00:59:59Z")) == 3600)
        #expect(central.offset(at: seconds("2040-03-25T01:00:00Z")) == 7200)
        #expect(central.offset(at: seconds("2040-10-28T00:59:59Z")) == 7200)
        #expect(central.offset(at: seconds("2040-10-28T01:00:00Z")) == 3600)
        // Sydney: daylight saving time from the first Sunday of October (2040-10-07, 02:00 AEST) to the first
        // Sunday of April (2040-04-01, 03:00 AEDT).
        let sydney = try #require(PosixRule("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        #expect(sydney.offset(at: seconds("2040-01-15T00:00:00Z")) == 39600)
        #expect(sydney.offset(at: seconds("2040-03-31T15:59:59Z")) == 39600)
        #expect(sydney.offset(at: seconds("2040-03-31T16:00:00Z")) == 36000)
        #expect(sydney.offset(at: seconds("2040-10-06T15:59:59Z")) == 36000)
        #expect(sydney.offset(at: seconds("2040-10-06T16:00:00Z")) == 39600)
        // A quoted name and minutes; no daylight saving time.
        #expect(PosixRule("<+0545>-5:45")?.offset(at: 0) == 20700)
        #expect(PosixRule("<-03>3")?.offset(at: 0) == -10800)
        // Julian days: J60 is 1 March in every year.
        let julian = try #require(PosixRule("XST5XDT,J60/0,J300/0"))
        #expect(julian.offset(at: seconds("2040-03-01T04:59:59Z")) == -18000)
        #expect(julian.offset(at: seconds("2040-03-01T05:00:00Z")) == -14400)
    }

    @Test("An instant far outside the calendar's years reads the rule of its nearest year, and crashes nothing")
    func extremeInstants() {
        let berlin = ZoneOffsets.named("Europe/Berlin")
        #expect(berlin.secondsFromGMT(for: .distantFuture) == 3600)
        #expect([3600, 7200].contains(berlin.secondsFromGMT(for: Date(timeIntervalSince1970: 1e14))))
        #expect([3208, 3600].contains(berlin.secondsFromGMT(for: .distantPast)))
        #expect([3600, 7200].contains(berlin.secondsFromGMT(for: Date(timeIntervalSince1970: .infinity))))
        #expect([3600, 7200].contains(berlin.secondsFromGMT(for: Date(timeIntervalSince1970: -.infinity))) == false)
        #expect([3600, 7200].contains(PosixRule("CET-1CEST,M3.5.0,M10.5.0/3")?.offset(at: Int64.max / 2) ?? 0))
    }

    @Test("Text that is no rule is none", arguments: ["", "X-1", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.5.0", "CET-1CEST,M3.5.0,M10.5.0junk"])
    func notARule(text: String) {
        #expect(PosixRule(text) == nil)
    }

    @Test("A name the database has no file of is Foundation's zone, or UTC when Foundation knows none either")
    func unknownNames() {
        #expect(ZoneOffsets.named("Mars/Olympus_Mons").secondsFromGMT(for: instant("2026-07-01T00:00:00Z")) == 0)
        #expect(ZoneOffsets.named("../../etc/passwd").secondsFromGMT(for: instant("2026-07-01T00:00:00Z")) == 0)
        #expect(ZoneOffsets.named("GMT+2").secondsFromGMT(for: instant("2026-07-01T00:00:00Z"))
            == TimeZone(identifier: "GMT+2")?.secondsFromGMT(for: instant("2026-07-01T00:00:00Z")) ?? 0)
    }
}
