import RatesCore

/// What a window asks a source for, in the shapes adapters' ``RatesProvider/requests(for:)`` share,
/// each said in one expression. A range that ends before it starts asks for nothing.
extension FetchWindow {
    // MARK: - Spans and days
    /// The first and last day a fetch asks for, at a source that takes any span of days: a range
    /// as given, ``latest`` as the `latestDays` days before `today` through `today`. `nil` for a
    /// range that ends before it starts.
    func span(latestDays: Int, today: Day) -> (first: Day, last: Day)? {
        map(latest: (today.adding(days: -latestDays), today)) { ($0, $1) }
    }

    /// The days a source that answers one day per request is asked for: `latest` for the newest
    /// publication, and a range's days whose ISO weekday is in `weekdays` (``Day/days(from:through:on:)``).
    func days(latest: Day, on weekdays: Set<Int>) -> [Day] {
        map(latest: [latest]) { Day.days(from: $0, through: $1, on: weekdays) } ?? []
    }

    /// The span a fetch asks for (``span(latestDays:today:)``) cut into consecutive spans of at most
    /// `maxDays` days (``Day/spans(from:through:maxDays:)``), for a source that limits how many days
    /// one request covers; one span when `maxDays` is `nil`. Empty for a range that ends before it starts.
    func spans(latestDays: Int, today: Day, maxDays: Int? = nil) -> [(first: Day, last: Day)] {
        guard let span = span(latestDays: latestDays, today: today) else { return [] }
        guard let maxDays else { return [span] }
        return Day.spans(from: span.first, through: span.last, maxDays: maxDays)
    }

    /// The days of the span a fetch asks for (``span(latestDays:today:)``) whose ISO weekday is in
    /// `weekdays`, for a source that answers one day per request and is asked for the last few days
    /// as its newest publication. Empty for a range that ends before it starts.
    func days(latestDays: Int, today: Day, on weekdays: Set<Int>) -> [Day] {
        guard let span = span(latestDays: latestDays, today: today) else { return [] }
        return Day.days(from: span.first, through: span.last, on: weekdays)
    }

    // MARK: - The newest publication or a range

    /// `latest` for the newest publication, `range(first, last)` for a range; `nil` for a range that
    /// ends before it starts.
    func map<Value>(latest: @autoclosure () -> Value, range: (_ first: Day, _ last: Day) -> Value) -> Value? {
        switch self {
        case .latest: latest()
        case .range(let first, let last): first <= last ? range(first, last) : nil
        }
    }

    /// The requests of a source that is asked one way for its newest publication (`latest`) and
    /// another for a range (`range(first, last)`); none for a range that ends before it starts.
    func requests(latest: @autoclosure () -> [ProviderRequest], range: (_ first: Day, _ last: Day) -> [ProviderRequest]) -> [ProviderRequest] {
        map(latest: latest(), range: range) ?? []
    }

    /// The requests of a source that is asked one way for its newest publication (`latest`) and one day
    /// at a time for a range: `request(day)` for each of its days whose ISO weekday is in `weekdays`
    /// (``Day/days(from:through:on:)``).
    func requests(latest: @autoclosure () -> [ProviderRequest], eachDayOn weekdays: Set<Int>, _ request: (Day) -> ProviderRequest) -> [ProviderRequest] {
        requests(latest: latest()) { first, last in Day.days(from: first, through: last, on: weekdays).map(request) }
    }

    /// The requests of a source whose answers hold its whole history (one file of every day): `requests`
    /// for the newest publication and any range alike; none for a range that ends before it starts.
    func wholeHistory(_ requests: @autoclosure () -> [ProviderRequest]) -> [ProviderRequest] {
        if case .range(let first, let last) = self, first > last { return [] }
        return requests()
    }

    // MARK: - One request per currency

    /// One request per currency or series (`subjects`) over the span a fetch asks for
    /// (``spans(latestDays:today:maxDays:)``), each naming its subject (``ProviderRequest/subject``,
    /// which this sets to `subject`'s name): for a source whose endpoint answers one currency at a time.
    /// Span by span, each span's requests in the order of `subjects`; none for a range that ends before it starts.
    func requests<Subject>(
        each subjects: [Subject], named name: (Subject) -> String, latestDays: Int, today: Day, maxDays: Int? = nil,
        _ request: (_ subject: Subject, _ first: Day, _ last: Day) -> ProviderRequest
    ) -> [ProviderRequest] {
        spans(latestDays: latestDays, today: today, maxDays: maxDays).flatMap { span in
            subjects.map { subject in
                var made = request(subject, span.first, span.last)
                made.subject = name(subject)
                return made
            }
        }
    }

    /// ``requests(each:named:latestDays:today:maxDays:_:)`` for subjects that are their own names (`"USD"`).
    func requests(
        each subjects: [String], latestDays: Int, today: Day, maxDays: Int? = nil,
        _ request: (_ subject: String, _ first: Day, _ last: Day) -> ProviderRequest
    ) -> [ProviderRequest] {
        requests(each: subjects, named: { $0 }, latestDays: latestDays, today: today, maxDays: maxDays, request)
    }
}
