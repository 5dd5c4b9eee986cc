import Foundation
import RatesCore

extension PublicationSchedule {
    /// Whether the schedule expects a publication on `day` (a day in the publisher's time zone):
    /// daily and weekly, on its weekdays; monthly, on the first of its weekdays in the month.
    /// Public holidays are not known here, so a holiday counts as a publication day.
    public func isPublicationDay(_ day: Day) -> Bool {
        guard weekdays.contains(day.isoWeekday) else { return false }
        guard cadence == .monthly else { return true }
        let dayOfMonth = day.parts.day
        return (1..<dayOfMonth).allSatisfy { !weekdays.contains(day.adding(days: -$0).isoWeekday) }
    }

    /// The instant at which the publication of `day` is expected: `expectedMinute` of that day in the publisher's time zone.
    public func expectedTime(of day: Day) -> Date {
        let zone = TimeZone(identifier: timeZone) ?? .gmt
        let localNoon = day.startOfDayUTC.addingTimeInterval(12 * 3600)
        return day.startOfDayUTC.addingTimeInterval(TimeInterval(expectedMinute * 60 - zone.secondsFromGMT(for: localNoon)))
    }

    /// The expected instant of the newest publication due at or before `date` (looking back at most a year).
    public func latestExpectedTime(asOf date: Date) -> Date? {
        let today = Day(containing: date, utcOffset: (TimeZone(identifier: timeZone) ?? .gmt).secondsFromGMT(for: date))
        for back in 0...366 {
            let day = today.adding(days: -back)
            if isPublicationDay(day), expectedTime(of: day) <= date { return expectedTime(of: day) }
        }
        return nil
    }

    /// The expected instant of the first publication due after `date` (looking ahead at most a year).
    public func nextExpectedTime(after date: Date) -> Date? {
        let today = Day(containing: date, utcOffset: (TimeZone(identifier: timeZone) ?? .gmt).secondsFromGMT(for: date))
        for ahead in 0...366 {
            let day = today.adding(days: ahead)
            if isPublicationDay(day), expectedTime(of: day) > date { return expectedTime(of: day) }
        }
        return nil
    }
}
