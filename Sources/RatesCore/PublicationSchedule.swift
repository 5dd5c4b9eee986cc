import Foundation

/// When a source publishes: the days, the usual local time, the time zone and the holidays.
///
/// Every source has one (the ECB's is ``ecbReferenceRates``): the fetch scheduler polls from
/// each expected publication, `/v1/providers` counts the publications a source missed, and the
/// merged dataset's freshness (`expectedLatestDate`, `Rates-Stale`, cache lifetimes) follows the
/// schedule of the first source of the registry.
public struct PublicationSchedule: Hashable, Sendable {
    public enum Cadence: String, Hashable, Sendable { case daily, weekly, monthly, quarterly }

    /// The days without a publication besides those off ``weekdays``.
    public enum Holidays: String, Hashable, Sendable {
        /// None known: a public holiday counts as a publication day (one due publication too many at worst).
        case unknown
        /// The TARGET2 closing days: 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December.
        case target
    }

    /// IANA time zone of the publisher (`"Europe/Warsaw"`).
    public var timeZone: String
    /// ISO weekdays with publications (1 = Monday … 7 = Sunday); empty for a source that publishes
    /// no more (a retired currency's history): no publication is then ever due.
    public var weekdays: Set<Int>
    /// Local time at which the publication is usually out, in minutes after midnight.
    public var expectedMinute: Int
    public var cadence: Cadence
    public var holidays: Holidays
    /// The zone `timeZone` names (UTC for a name the system does not know), looked up once.
    private let zone: ZoneOffsets

    /// Monday to Friday.
    public static let workingDays: Set<Int> = [1, 2, 3, 4, 5]

    /// The ECB's euro reference rates: TARGET days, about 16:00 Frankfurt time.
    public static let ecbReferenceRates = PublicationSchedule(timeZone: "Europe/Berlin", expectedMinute: 16 * 60, holidays: .target)

    public init(timeZone: String, weekdays: Set<Int> = workingDays, expectedMinute: Int, cadence: Cadence = .daily, holidays: Holidays = .unknown) {
        precondition(weekdays.isSubset(of: 1...7), "a schedule publishes on ISO weekdays")
        self.timeZone = timeZone
        self.weekdays = weekdays
        self.expectedMinute = expectedMinute
        self.cadence = cadence
        self.holidays = holidays
        self.zone = ZoneOffsets.named(timeZone)
    }

    // MARK: - Days

    /// Whether the schedule expects a publication on `day` (a day in the publisher's time zone):
    /// daily and weekly, on its weekdays that are not holidays; monthly, on the first such day of the
    /// month; quarterly, on the first such day of January, April, July and October.
    public func isPublicationDay(_ day: Day) -> Bool {
        guard isOpen(day) else { return false }
        switch cadence {
        case .daily, .weekly: return true
        case .monthly: return (1..<day.parts.day).allSatisfy { !isOpen(day.adding(days: -$0)) }
        case .quarterly: return day.parts.month % 3 == 1 && (1..<day.parts.day).allSatisfy { !isOpen(day.adding(days: -$0)) }
        }
    }

    /// A weekday of the schedule that is not a holiday.
    private func isOpen(_ day: Day) -> Bool {
        guard weekdays.contains(day.isoWeekday) else { return false }
        switch holidays {
        case .unknown: return true
        case .target: return !Self.isTargetHoliday(day)
        }
    }

    /// The instant at which the publication of `day` is expected: `expectedMinute` of that day in the publisher's time zone.
    public func expectedTime(of day: Day) -> Date {
        let localNoon = day.startOfDayUTC.addingTimeInterval(12 * 3600)
        return day.startOfDayUTC.addingTimeInterval(TimeInterval(expectedMinute * 60 - zone.secondsFromGMT(for: localNoon)))
    }

    /// The newest publication day whose expected time is at or before `date` (looking back at most a year and a week).
    public func latestPublication(asOf date: Date) -> Day {
        var day = localDay(containing: date)
        var steps = 0
        while steps < 373, !isPublicationDay(day) || expectedTime(of: day) > date {
            day = day.adding(days: -1)
            steps += 1
        }
        return day
    }

    /// The first publication day whose expected time is after `date` (looking ahead at most a year and a week).
    public func nextPublication(after date: Date) -> Day {
        var day = localDay(containing: date)
        var steps = 0
        while steps < 373, !isPublicationDay(day) || expectedTime(of: day) <= date {
            day = day.adding(days: 1)
            steps += 1
        }
        return day
    }

    /// Publication days after `start` up to and including `end`.
    public func publicationDays(after start: Day, through end: Day) -> [Day] {
        guard start < end else { return [] }
        return (start.dayNumber + 1...end.dayNumber).map(Day.init(dayNumber:)).filter(isPublicationDay)
    }

    /// How many publications the schedule expected after the one of `latest`, as of `now`
    /// (counted up to a year): the publication days after `latest` whose expected time has passed.
    public func publicationsDue(after latest: Day, asOf now: Date) -> Int {
        let through = latestPublication(asOf: now)
        return publicationDays(after: max(latest, through.adding(days: -366)), through: through).count
    }

    /// The publisher's local day at `date`: the day it falls on in the publisher's time zone.
    public func localDay(containing date: Date) -> Day {
        Day(containing: date, utcOffset: zone.secondsFromGMT(for: date))
    }

    /// Today's day in the publisher's time zone, by the system clock.
    public func today() -> Day { localDay(containing: Date()) }

    // MARK: - TARGET

    /// Whether `day` is a TARGET2 closing day (weekends aside).
    static func isTargetHoliday(_ day: Day) -> Bool {
        let (year, month, dayOfMonth) = day.parts
        switch (month, dayOfMonth) {
        case (1, 1), (5, 1), (12, 25), (12, 26): return true
        default:
            let easter = easterSunday(year: year)
            return day == easter.adding(days: -2) || day == easter.adding(days: 1)
        }
    }

    /// Easter Sunday in the Gregorian calendar (anonymous Gregorian algorithm).
    public static func easterSunday(year: Int) -> Day {
        let a = year % 19
        let b = year / 100
        let c = year % 100
        let d = b / 4
        let e = b % 4
        let f = (b + 8) / 25
        let g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4
        let k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return Day(year: year, month: month, day: day)!
    }
}
