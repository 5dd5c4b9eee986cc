import Foundation
import RatesCore
import Testing

@Suite("The ECB's publication schedule: TARGET days at 16:00 Frankfurt time")
struct PublicationScheduleTests {
    let calendar = PublicationSchedule.ecbReferenceRates

    func day(_ text: String) -> Day { Day(text)! }
    func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    @Test("Easter Sunday matches published dates", arguments: [
        (2000, "2000-04-23"), (2019, "2019-04-21"), (2024, "2024-03-31"), (2025, "2025-04-20"), (2026, "2026-04-05"), (2038, "2038-04-25"),
    ])
    func easter(year: Int, expected: String) {
        #expect(PublicationSchedule.easterSunday(year: year).description == expected)
    }

    @Test("TARGET holidays and weekends have no publication")
    func holidays() {
        for closed in ["2026-01-01", "2026-04-03", "2026-04-06", "2026-05-01", "2026-12-25", "2026-12-26", "2026-11-21", "2026-11-22"] {
            #expect(!calendar.isPublicationDay(day(closed)), "\(closed)")
        }
        for open in ["2026-04-02", "2026-04-07", "2026-12-24", "2026-12-31", "2026-11-23"] {
            #expect(calendar.isPublicationDay(day(open)), "\(open)")
        }
    }

    @Test("publication is expected at 16:00 Frankfurt time, CET in winter and CEST in summer")
    func publicationTime() {
        #expect(calendar.expectedTime(of: day("2026-01-15")) == instant("2026-01-15T15:00:00Z"))
        #expect(calendar.expectedTime(of: day("2026-07-15")) == instant("2026-07-15T14:00:00Z"))
        // Summer time starts on the last Sunday of March (2026-03-29) and ends on the last Sunday of October (2026-10-25).
        #expect(calendar.expectedTime(of: day("2026-03-27")) == instant("2026-03-27T15:00:00Z"))
        #expect(calendar.expectedTime(of: day("2026-03-30")) == instant("2026-03-30T14:00:00Z"))
        #expect(calendar.expectedTime(of: day("2026-10-23")) == instant("2026-10-23T14:00:00Z"))
        #expect(calendar.expectedTime(of: day("2026-10-26")) == instant("2026-10-26T15:00:00Z"))
    }

    @Test("the latest expected publication before and after 16:00, over a weekend and over Easter")
    func latestAndNext() {
        #expect(calendar.latestPublication(asOf: instant("2026-10-30T14:59:00Z")) == day("2026-10-29"))
        #expect(calendar.latestPublication(asOf: instant("2026-10-30T15:00:00Z")) == day("2026-10-30"))
        #expect(calendar.latestPublication(asOf: instant("2026-11-22T12:00:00Z")) == day("2026-11-20"))
        #expect(calendar.latestPublication(asOf: instant("2026-04-06T18:00:00Z")) == day("2026-04-02"))
        #expect(calendar.nextPublication(after: instant("2026-04-02T18:00:00Z")) == day("2026-04-07"))
        #expect(calendar.nextPublication(after: instant("2026-10-30T10:00:00Z")) == day("2026-10-30"))
        #expect(calendar.nextPublication(after: instant("2026-12-24T16:00:00Z")) == day("2026-12-28"))
    }

    @Test("publication days between two days exclude the first and include the last")
    func daysBetween() {
        #expect(calendar.publicationDays(after: day("2026-10-29"), through: day("2026-11-02")).map(\.description) == ["2026-10-30", "2026-11-02"])
        #expect(calendar.publicationDays(after: day("2026-10-30"), through: day("2026-10-30")).isEmpty)
    }
}

@Suite("Publication schedules of other sources")
struct OtherPublicationScheduleTests {
    func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    @Test("without a holiday rule every weekday of the schedule counts, TARGET holidays included")
    func noHolidayRule() {
        let nbp = PublicationSchedule(timeZone: "Europe/Warsaw", expectedMinute: 12 * 60 + 15)
        #expect(nbp.isPublicationDay(Day("2026-04-03")!))
        #expect(!PublicationSchedule.ecbReferenceRates.isPublicationDay(Day("2026-04-03")!))
    }

    @Test("publications due count the schedule's days whose expected time has passed, holidays left out")
    func publicationsDue() {
        let ecb = PublicationSchedule.ecbReferenceRates
        // Thursday 2026-04-02 held; by Tuesday 2026-04-07 at 15:00 CEST only that Tuesday is due (Good Friday and Easter Monday are closed).
        #expect(ecb.publicationsDue(after: Day("2026-04-02")!, asOf: instant("2026-04-07T13:00:00Z")) == 0)
        #expect(ecb.publicationsDue(after: Day("2026-04-02")!, asOf: instant("2026-04-07T14:00:00Z")) == 1)
        #expect(ecb.publicationsDue(after: Day("2026-04-02")!, asOf: instant("2026-04-08T14:00:00Z")) == 2)
    }
}
