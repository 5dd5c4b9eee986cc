import Foundation
import RatesCore
import Testing

@Suite("Calendar days")
struct DayTests {
    @Test("parses and prints YYYY-MM-DD round trip", arguments: ["1999-01-04", "2000-02-29", "2026-10-30", "1970-01-01", "1969-12-31"])
    func roundTrip(text: String) throws {
        #expect(try #require(Day(text)).description == text)
    }

    @Test("rejects text that names no real day", arguments: ["0000-00-00", "2024-02-30", "2023-02-29", "2026-13-01", "2026-1-01", "2026/01/01", "20260101", "", "2026-01-01T00:00", "１９９９-01-04", "2026-00-10"])
    func rejects(text: String) {
        #expect(Day(text) == nil)
    }

    @Test("knows the weekday of known dates")
    func weekdays() throws {
        #expect(try #require(Day("1999-01-04")).isoWeekday == 1)  // a Monday
        #expect(try #require(Day("2026-11-22")).isoWeekday == 7)  // a Sunday
        #expect(try #require(Day("1970-01-01")).isoWeekday == 4)  // a Thursday
    }

    @Test("day numbers agree with Foundation's Gregorian calendar for every day from 1999 to 2030")
    func agreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let start = try #require(Day("1999-01-01"))
        for offset in 0..<(32 * 366) {
            let day = start.adding(days: offset)
            let parts = calendar.dateComponents([.year, .month, .day], from: day.startOfDayUTC)
            #expect(parts.year == day.parts.year && parts.month == day.parts.month && parts.day == day.parts.day)
            if parts.day != day.parts.day { break }
        }
    }
}

@Suite("Currency codes")
struct CurrencyCodeTests {
    @Test("accepts three capital letters and nothing else")
    func shape() {
        #expect(CurrencyCode("USD")?.rawValue == "USD")
        for text in ["usd", "US", "USDX", "U$D", "", "ÜSD", "12A"] { #expect(CurrencyCode(text) == nil) }
    }

    @Test("bytes and a letter triple follow the same rule as text")
    func bytesAndLetters() {
        let usd = CurrencyCode("USD")!
        #expect(CurrencyCode(ascii: Array("USD".utf8)) == usd)
        #expect(CurrencyCode(letters: usd.letters) == usd)
        for text in ["usd", "US", "USDX", "U$D", "", "ÜSD", "@SD", "US["] { #expect(CurrencyCode(ascii: Array(text.utf8)) == nil) }
        #expect(CurrencyCode(letters: (UInt8(ascii: "U"), UInt8(ascii: "s"), UInt8(ascii: "D"))) == nil)
    }

    @Test("codes keep their letters, compare alphabetically and are equal whatever text they came from")
    func lettersAndOrder() {
        let texts = ["USD", "AUD", "ZAR", "EUR", "CHF", "AZN", "BAM"]
        let codes = texts.compactMap { CurrencyCode($0) }
        #expect(codes.map(\.rawValue) == texts)
        #expect(codes.sorted().map(\.rawValue) == texts.sorted())
        #expect(CurrencyCode("xUSDx".dropFirst().dropLast()) == CurrencyCode("USD"))
        #expect(Set(codes + codes).count == texts.count)
    }

    @Test("names come from ISO 4217, withdrawn codes included")
    func names() {
        #expect(CurrencyCode("USD")?.name == "US Dollar")
        #expect(CurrencyCode("HRK")?.name == "Kuna")
        #expect(CurrencyCode("XXQ")?.name == nil)
    }
}
