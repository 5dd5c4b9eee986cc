import Foundation
import GRDB
import RatesCore

/// A fetch record's dates in SQLite as GRDB stores a `Date` (`2026-11-29 19:42:56.123`, UTC), written
/// and read by arithmetic: GRDB's own formatter and calendar load ICU's locale and calendar code and
/// data into a server's memory for a format that needs neither. Text of another form (GRDB reads any
/// SQLite date) is read as GRDB reads it.
extension FetchRun {
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .custom { $0.storedText }
    }

    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .custom { value in String.fromDatabaseValue(value).flatMap(Date.init(storedText:)) ?? Date.fromDatabaseValue(value) }
    }
}

extension Date {
    /// `yyyy-MM-dd HH:mm:ss.SSS` in UTC, milliseconds truncated, as GRDB writes a date.
    var storedText: String {
        // Microseconds first, so that 11.375 held as 11.37499999 is 11.375.
        let microseconds = Int64((timeIntervalSince1970 * 1_000_000).rounded())
        let milliseconds = microseconds >= 0 ? microseconds / 1000 : -((-microseconds + 999) / 1000)
        let (days, ofDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, time) = ofDay < 0 ? (days - 1, ofDay + 86_400_000) : (days, ofDay)
        func digits(_ value: Int64, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return "\(Day(dayNumber: Int(day))) \(digits(time / 3_600_000, 2)):\(digits(time / 60_000 % 60, 2)):\(digits(time / 1000 % 60, 2))"
            + ".\(digits(time % 1000, 3))"
    }

    /// The instant `text` writes as ``storedText`` does, or without its milliseconds; `nil` for any other text.
    init?(storedText text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 19 || bytes.count == 23, bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), bytes.count == 19 || bytes[19] == UInt8(ascii: "."),
            let day = Day(text.prefix(10))
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            bytes[range].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                ? bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } : nil
        }
        guard let hours = number(11..<13), let minutes = number(14..<16), let seconds = number(17..<19),
            hours < 24, minutes < 60, seconds < 60, let milliseconds = bytes.count == 19 ? 0 : number(20..<23)
        else { return nil }
        let millisecondsOfDay = ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds
        self.init(timeIntervalSince1970: TimeInterval(day.dayNumber) * 86_400 + TimeInterval(millisecondsOfDay) / 1000)
    }
}
