import RatesCore

extension FetchWindow {
    /// The days a source that answers one day per request is asked for: `latest` for the newest
    /// publication, and a range's days whose ISO weekday is in `weekdays` (``Day/days(from:through:on:)``).
    func days(latest: Day, on weekdays: Set<Int>) -> [Day] {
        switch self {
        case .latest: [latest]
        case .range(let first, let last): Day.days(from: first, through: last, on: weekdays)
        }
    }
}
