import Foundation

/// When the ECB publishes its euro reference rates.
///
/// Rates appear about 16:00 Frankfurt time on TARGET working days: every weekday except
/// 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December. Frankfurt time is
/// CET (UTC+1), or CEST (UTC+2) from the last Sunday of March to the last Sunday of October.
public struct PublicationCalendar: Sendable {
    /// Local Frankfurt time of day at which a publication is expected, in minutes after midnight.
    public var publicationMinute: Int

    public init(publicationMinute: Int = 16 * 60) {
        self.publicationMinute = publicationMinute
    }

    /// Whether the ECB publishes on `day`.
    public func isPublicationDay(_ day: Day) -> Bool {
        guard day.isoWeekday <= 5 else { return false }
        let (year, month, dayOfMonth) = day.parts
        switch (month, dayOfMonth) {
        case (1, 1), (5, 1), (12, 25), (12, 26): return false
        default: break
        }
        let easter = Self.easterSunday(year: year)
        return day != easter.adding(days: -2) && day != easter.adding(days: 1)
    }

    /// The instant at which `day`'s publication is expected.
    public func publicationTime(of day: Day) -> Date {
        let offset = Self.frankfurtUTCOffset(on: day)
        return day.startOfDayUTC.addingTimeInterval(TimeInterval(publicationMinute * 60 - offset))
    }

    /// The newest publication day whose publication time is at or before `date`.
    public func latestPublication(asOf date: Date) -> Day {
        var day = Day(containing: date, utcOffset: 2 * 3600)
        while !isPublicationDay(day) || publicationTime(of: day) > date {
            day = day.adding(days: -1)
        }
        return day
    }

    /// The first publication day whose publication time is after `date`.
    public func nextPublication(after date: Date) -> Day {
        var day = Day(containing: date, utcOffset: 2 * 3600).adding(days: -1)
        while !isPublicationDay(day) || publicationTime(of: day) <= date {
            day = day.adding(days: 1)
        }
        return day
    }

    /// The newest publication day on or before `day`.
    public func publicationDay(onOrBefore day: Day) -> Day {
        var candidate = day
        while !isPublicationDay(candidate) { candidate = candidate.adding(days: -1) }
        return candidate
    }

    /// Publication days after `start` up to and including `end`.
    public func publicationDays(after start: Day, through end: Day) -> [Day] {
        guard start < end else { return [] }
        return (start.dayNumber + 1...end.dayNumber).map(Day.init(dayNumber:)).filter(isPublicationDay)
    }

    // MARK: - Dates

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

    /// Frankfurt's offset from UTC in seconds during the afternoon of `day`.
    static func frankfurtUTCOffset(on day: Day) -> Int {
        let year = day.parts.year
        let summerStart = lastSunday(month: 3, year: year)
        let summerEnd = lastSunday(month: 10, year: year)
        return day >= summerStart && day < summerEnd ? 7200 : 3600
    }

    static func lastSunday(month: Int, year: Int) -> Day {
        let last = Day(year: year, month: month, day: Day.daysIn(month: month, year: year))!
        return last.adding(days: -(last.isoWeekday % 7))
    }
}
