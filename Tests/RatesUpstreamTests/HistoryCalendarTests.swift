import Foundation
import RatesCore
import RatesUpstream
import RatesTestFixtures
import Testing

@Suite("The ECB's schedule against the real history")
struct HistoryCalendarTests {
    @Test("the ECB's schedule, TARGET holidays included, names exactly the days the ECB published from 2002 to 2026-10-30")
    func calendarMatchesHistory() throws {
        let history = try ECBHistoryFile.read(contentsOf: Fixtures.historyZip)
        let start = Day("2002-01-01")!
        let end = Day("2026-10-30")!
        let published = Set(history.days.map(\.day).filter { $0 >= start })
        let calendar = ProviderRegistry.referenceSchedule
        let expected = Set(calendar.publicationDays(after: start.adding(days: -1), through: end))
        #expect(published.subtracting(expected).isEmpty, "published on a day the schedule calls closed")
        #expect(expected.subtracting(published).isEmpty, "the schedule expects a day that was never published")
        #expect(published.count == 6_358)
    }
}
