import Foundation
import RatesCore
@testable import RatesIngest
import RatesUpstream
import Testing

@Suite("Fetches follow each source's publication schedule")
struct FetchSchedulerTests {
    /// The NBP: table A on weekdays about 12:15 Warsaw time (CET in winter, UTC+1).
    let nbp = PublicationSchedule(timeZone: "Europe/Warsaw", expectedMinute: 12 * 60 + 15)
    func timing(maxHours: Int) -> FetchScheduler.Timing {
        FetchScheduler.Timing(
            pollInterval: .seconds(300), pollWindow: .seconds(8 * 3600), retryDelay: .seconds(30), maxRetryDelay: .seconds(1800), maxInterval: .seconds(maxHours * 3600))
    }

    func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    func next(at now: String, latest: String?, arrived: String? = nil, maxHours: Int = 24) -> Date {
        FetchScheduler.nextCheck(
            after: instant(now), latest: latest.flatMap { Day($0) }, lastArrival: arrived.map(instant), schedule: nbp, timing: timing(maxHours: maxHours))
    }

    @Test("expected times are local: 12:15 in Warsaw is 11:15 UTC in winter and 10:15 UTC in summer")
    func expectedTimesFollowTheTimeZone() {
        #expect(nbp.expectedTime(of: Day("2026-11-25")!) == instant("2026-11-25T11:15:00Z"))
        #expect(nbp.expectedTime(of: Day("2026-07-01")!) == instant("2026-07-01T10:15:00Z"))
        // Friday afternoon: the next publication is Monday's.
        #expect(nbp.expectedTime(of: nbp.nextPublication(after: instant("2026-11-27T15:00:00Z"))) == instant("2026-11-30T11:15:00Z"))
        #expect(nbp.expectedTime(of: nbp.latestPublication(asOf: instant("2026-11-29T15:00:00Z"))) == instant("2026-11-27T11:15:00Z"))
    }

    @Test("a monthly schedule publishes on the first of its weekdays in each month")
    func monthlyScheduleOnFirstWorkingDay() {
        let monthly = PublicationSchedule(timeZone: "Asia/Hong_Kong", expectedMinute: 11 * 60, cadence: .monthly)
        // 1 November 2026 is a Sunday: the first working day is Monday the 2nd.
        #expect(monthly.expectedTime(of: monthly.nextPublication(after: instant("2026-10-15T00:00:00Z"))) == instant("2026-11-02T03:00:00Z"))
        #expect(!monthly.isPublicationDay(Day("2026-11-03")!))
    }

    @Test("up to date after today's publication: the next fetch waits for tomorrow's expected time")
    func upToDateWaitsForNextPublication() {
        #expect(next(at: "2026-11-25T11:20:00Z", latest: "2026-11-25") == instant("2026-11-26T11:16:00Z"))
        // Before today's expected time, yesterday's publication is current.
        #expect(next(at: "2026-11-25T08:00:00Z", latest: "2026-11-24") == instant("2026-11-25T11:16:00Z"))
    }

    @Test("a publication due but not in: polls every poll interval within the window, then waits for the next one")
    func duePublicationIsPolled() {
        #expect(next(at: "2026-11-25T11:20:00Z", latest: "2026-11-24") == instant("2026-11-25T11:25:00Z"))
        // Eight hours after the expected time, it gives up until the next publication.
        #expect(next(at: "2026-11-25T19:20:00Z", latest: "2026-11-24") == instant("2026-11-26T11:16:00Z"))
    }

    @Test("a provider that dates its publication earlier than the day it comes out stops polling once a newer one arrives")
    func arrivalEndsPolling() {
        #expect(next(at: "2026-11-25T11:30:00Z", latest: "2026-11-23", arrived: "2026-11-25T11:30:00Z") == instant("2026-11-26T11:16:00Z"))
        // An arrival before the expected time does not count for this publication.
        #expect(next(at: "2026-11-25T11:30:00Z", latest: "2026-11-23", arrived: "2026-11-25T09:00:00Z") == instant("2026-11-25T11:35:00Z"))
    }

    @Test("never waits longer than the maximum interval, for a publisher off its schedule")
    func maximumIntervalCapsTheWait() {
        // Friday after the publication: Monday is three days away, the cap is six hours.
        #expect(next(at: "2026-11-27T12:00:00Z", latest: "2026-11-27", maxHours: 6) == instant("2026-11-27T18:00:00Z"))
    }
}
