import RatesCore
import Testing

@testable import RatesUpstream

@Suite("Day notations of the providers")
struct DayProviderFormatsTests {
    let day = Day("2026-03-04")!

    @Test("reads each notation as its providers write it")
    func reads() {
        let cases: [(String, Day.ProviderFormat)] = [
            ("2026-03-04", .iso), ("20260304", .compact), ("04.03.2026", .dayMonthYear(separator: ".")),
            ("04/03/2026", .dayMonthYear(separator: "/")), ("4.3.2026", .dayMonthYear(separator: ".", padded: false)),
            ("03-04-2026", .monthDayYear(separator: "-")), ("3/4/2026", .monthDayYear(separator: "/", padded: false)),
            ("04-Mar-2026", .dayMonthNameYear(separator: "-")), ("4 Mar 2026", .dayMonthNameYear(separator: " ")),
            ("March 04, 2026", .monthNameDayYear), ("2026M03D04", .statbank), ("2026-03-04T00:00:00", .midnightTimestamp),
            ("2026-03-04T00:00:00.000Z", .midnightTimestamp),
        ]
        for (text, format) in cases {
            #expect(Day(text, format) == day, "\(text) as \(format)")
        }
    }

    @Test("refuses other widths, signs, other separators and days that do not exist, throwing invalidDay with the text")
    func refuses() {
        let cases: [(String, Day.ProviderFormat)] = [
            ("2026-3-04", .iso), ("2026034", .compact), ("+2026034", .compact), ("4.03.2026", .dayMonthYear(separator: ".")),
            ("04/03/2026", .dayMonthYear(separator: ".")), ("31.02.2026", .dayMonthYear(separator: ".")),
            ("004.3.2026", .dayMonthYear(separator: ".", padded: false)), ("3/4/26", .monthDayYear(separator: "/", padded: false)),
            ("+4-Mar-2026", .dayMonthNameYear(separator: "-")), ("04-MAR-2026", .dayMonthNameYear(separator: "-")),
            ("March 4, 2026", .monthNameDayYear), ("2026-03-04", .statbank), ("2026-03-04T12:00:00", .midnightTimestamp),
            ("", .iso), ("٠٤.٠٣.٢٠٢٦", .dayMonthYear(separator: ".")),
        ]
        for (text, format) in cases {
            #expect(Day(text, format) == nil, "\(text) as \(format)")
            #expect(throws: UpstreamDataError.invalidDay(text)) { try Day(parsing: text, format) }
        }
    }

    @Test("writes each notation padded, as queries take it")
    func writes() {
        #expect(day.text(.iso) == "2026-03-04")
        #expect(day.text(.compact) == "20260304")
        #expect(day.text(.dayMonthYear(separator: "/")) == "04/03/2026")
        #expect(day.text(.dayMonthYear(separator: "")) == "04032026")
        #expect(day.text(.monthDayYear(separator: "-", padded: false)) == "03-04-2026")
        #expect(day.text(.dayMonthNameYear(separator: "/")) == "04/Mar/2026")
        #expect(day.text(.monthNameDayYear) == "March 04, 2026")
        #expect(day.text(.statbank) == "2026M03D04")
        #expect(Day("2026-12-31")!.text(.dayMonthYear(separator: "")) == "31122026")
    }
}
