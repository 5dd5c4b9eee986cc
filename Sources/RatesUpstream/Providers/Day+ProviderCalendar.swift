import RatesCore

extension Day {
    /// The days from `first` through `last` whose ISO weekday (1 = Monday … 7 = Sunday) is in
    /// `weekdays`, in order: what a source that answers one day per request is asked for.
    /// Empty when `last` is before `first`.
    static func days(from first: Day, through last: Day, on weekdays: Set<Int>) -> [Day] {
        guard first <= last else { return [] }
        return (first.dayNumber...last.dayNumber).map(Day.init(dayNumber:)).filter { weekdays.contains($0.isoWeekday) }
    }

    /// `first` through `last` cut into consecutive spans of at most `maxDays` days, for a source
    /// that limits how many days one request covers. Empty when `last` is before `first`.
    static func spans(from first: Day, through last: Day, maxDays: Int) -> [(first: Day, last: Day)] {
        stride(from: first.dayNumber, through: last.dayNumber, by: maxDays).map { start in
            (Day(dayNumber: start), min(Day(dayNumber: start + maxDays - 1), last))
        }
    }

    /// `first` through `last` cut at the ends of calendar years, for a source asked one year per request.
    /// Empty when `last` is before `first`.
    static func yearSpans(from first: Day, through last: Day) -> [(first: Day, last: Day)] {
        guard first <= last else { return [] }
        return (first.parts.year...last.parts.year).map { year in
            (max(first, Day(year: year, month: 1, day: 1)!), min(last, Day(year: year, month: 12, day: 31)!))
        }
    }
}
