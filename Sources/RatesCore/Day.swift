import Foundation

/// A calendar day (proleptic Gregorian, no time zone), written `YYYY-MM-DD`.
///
/// Rates are published per day, so the day is the unit of every query. Arithmetic uses a
/// day number (days since 1970-01-01), which keeps it exact and cheap.
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    /// Creates a day from its parts; `nil` when the parts name no real day (2024-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= Day.daysIn(month: month, year: year) else {
            return nil
        }
        self.dayNumber = Day.dayNumber(year: year, month: month, day: day)
    }

    /// Parses exactly `YYYY-MM-DD`; `nil` for any other text or a day that does not exist.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The UTC calendar day containing `date`, shifted by `utcOffset` seconds.
    public init(containing date: Date, utcOffset: Int = 0) {
        let seconds = Int((date.timeIntervalSince1970).rounded(.down)) + utcOffset
        self.dayNumber = Int((Double(seconds) / 86_400).rounded(.down))
    }

    /// Year, month and day of month.
    public var parts: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// ISO weekday: 1 is Monday, 7 is Sunday.
    public var isoWeekday: Int { ((dayNumber % 7 + 7 + 3) % 7) + 1 }

    /// Midnight UTC at the start of this day.
    public var startOfDayUTC: Date { Date(timeIntervalSince1970: TimeInterval(dayNumber) * 86_400) }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> Day { Day(dayNumber: dayNumber + count) }

    public var description: String {
        let (year, month, day) = parts
        return String(year).leftPadded(4) + "-" + String(month).leftPadded(2) + "-" + String(day).leftPadded(2)
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.dayNumber < rhs.dayNumber }

    // MARK: - Calendar arithmetic

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days_from_civil.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
