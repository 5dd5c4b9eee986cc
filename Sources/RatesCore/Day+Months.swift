extension Day {
    /// The first day of this day's month.
    public var monthStart: Day { Day(year: parts.year, month: parts.month, day: 1)! }

    /// The last day of this day's month.
    public var monthEnd: Day { addingMonths(1).monthStart.adding(days: -1) }

    /// The first day of the month `count` months after this day's (before it when negative).
    public func addingMonths(_ count: Int) -> Day {
        let index = parts.year * 12 + (parts.month - 1) + count
        return Day(year: index / 12, month: index % 12 + 1, day: 1)!
    }

    /// The first days of the months from `first`'s through `last`'s, in order: what a monthly
    /// source is asked for. Empty when `last` is before `first`.
    public static func months(from first: Day, through last: Day) -> [Day] {
        guard first <= last else { return [] }
        return Array(sequence(first: first.monthStart) { $0.addingMonths(1) }.prefix { $0 <= last })
    }
}
