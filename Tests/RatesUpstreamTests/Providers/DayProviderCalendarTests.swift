import RatesCore
import Testing

@testable import RatesUpstream

@Suite("Which days the providers are asked for")
struct DayProviderCalendarTests {
    func day(_ text: String) -> Day { Day(text)! }

    @Test("the days of a range on given weekdays, none for a range that ends before it starts")
    func weekdays() {
        // 2026-03-06 is a Friday.
        #expect(Day.days(from: day("2026-03-06"), through: day("2026-03-10"), on: PublicationSchedule.workingDays) == [
            day("2026-03-06"), day("2026-03-09"), day("2026-03-10"),
        ])
        #expect(Day.days(from: day("2026-03-06"), through: day("2026-03-08"), on: [1, 2, 3, 4, 5, 6]) == [day("2026-03-06"), day("2026-03-07")])
        #expect(Day.days(from: day("2026-03-10"), through: day("2026-03-06"), on: PublicationSchedule.workingDays).isEmpty)
    }

    @Test("a range cut into spans of at most so many days")
    func spans() {
        let spans = Day.spans(from: day("2026-01-01"), through: day("2026-01-10"), maxDays: 4)
        #expect(spans.map(\.first) == [day("2026-01-01"), day("2026-01-05"), day("2026-01-09")])
        #expect(spans.map(\.last) == [day("2026-01-04"), day("2026-01-08"), day("2026-01-10")])
        #expect(Day.spans(from: day("2026-01-02"), through: day("2026-01-01"), maxDays: 4).isEmpty)
    }

    @Test("latest is the days before today through today; a range is itself, or nothing when reversed")
    func windowSpan() {
        let today = day("2026-03-09")
        #expect(FetchWindow.latest.span(latestDays: 7, today: today).map { [$0.first, $0.last] } == [day("2026-03-02"), today])
        #expect(FetchWindow.range(day("2026-01-01"), day("2026-01-31")).span(latestDays: 7, today: today).map { [$0.first, $0.last] } == [
            day("2026-01-01"), day("2026-01-31"),
        ])
        #expect(FetchWindow.range(day("2026-01-31"), day("2026-01-01")).span(latestDays: 7, today: today) == nil)
    }
}
