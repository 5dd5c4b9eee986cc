import RatesCore

/// A source that publishes one file per calendar month, dated the month's first day and valid
/// through its last (HMRC, the European Commission's InforEuro): a month's rates come out in the
/// last days of the month before.
///
/// The newest publication is the file of today's month and, on a month's last day, of tomorrow's
/// (a publication dated tomorrow is the newest a fetch takes); a range asks for the file of every
/// month it touches; a catch-up asks for whole months (a range starting in the middle of a month
/// would leave that month's publication out).
protocol MonthlyFileProvider: RatesProvider {
    /// The request for the file of `month`'s month.
    func request(for month: Day) -> ProviderRequest
}

extension MonthlyFileProvider {
    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 1, today: today().adding(days: 1)) else { return [] }
        return Day.months(from: first, through: last).map(request(for:))
    }

    public func catchUp(after stored: Day?, backfillDays: Int, today: Day) -> FetchWindow {
        let recent = today.adding(days: -backfillDays)
        let from = stored.map { min($0.adding(days: 1), recent) } ?? recent
        return from.monthStart >= today.monthStart ? .latest : .range(from.monthStart, today)
    }
}
