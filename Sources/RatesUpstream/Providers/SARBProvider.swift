import RatesCore

/// The South African Reserve Bank's daily exchange rates of the rand (23 currencies), one series each.
///
/// - Source: the bank's web indicators API, one request per series and range:
///   `https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations/EXCX135D/2026-03-23T00:00:00/2026-03-27T00:00:00`
///   (``ProviderRequest/subject`` is the series code), answering the series' observations, newest first:
///   `[{"Period":"2026-03-27T00:00:00","Timeseries":"Rand per US Dollar","Description":…,"Value":17.1302,"FormatNumber":"0.0000",…},…]`. `Value` is a
///   JSON number read as written (`7.5890` keeps its zero). The answer does not name its series code; its `Timeseries` title says which currency it
///   is, so a file reads as its own series only.
/// - Quote convention: the weighted average of the banks' rates at about 10:30. Three series are rand for one unit (`Rand per US Dollar`,
///   `… British Pound`, `… Euro`: ``PublishedQuote/Direction/pivotPerUnits``), the other twenty units for one rand (`Japan: Yen per Rand`:
///   ``PublishedQuote/Direction/unitsPerPivot``). A title the adapter does not know, or one that is not its request's series, rejects the answer. The
///   kwacha series runs under its title from 2000 without restating Zambia's 2013 rebasing (612.34 per rand on 2012-12-31, 0.6188 on 2013-01-02): its
///   figures before 2013-01-01 are the old kwacha's (`ZMK`, ``Redenomination``). An observation whose `Value` is `null` or empty is no figure.
/// - Day: `Period`. A range without observations (a holiday) is an empty array: no publication.
/// - Schedule: Africa/Johannesburg, Monday to Friday, the 10:30 rates out by about 11:00; the series are read from 2000-01-01.
/// - Ranges: one request per series covering the whole range; the newest publication is asked for as the last seven days up to today.
public struct SARBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// One series: its code, currency, title and direction.
    struct Series: Sendable {
        let code, currency, title: String
        /// Rand for one unit in a `Rand per …` series, units for one rand in the others (`Japan: Yen per Rand`).
        var direction: PublishedQuote.Direction { title.hasPrefix("Rand per ") ? .pivotPerUnits : .unitsPerPivot }
    }

    /// The series read, in request order.
    static let series = table.map { Series(code: $0.code, currency: $0.currency, title: $0.title) }

    private static let table: [(code: String, currency: String, title: String)] = [
        ("EXCX135D", "USD", "Rand per US Dollar"), ("EXCZ001D", "GBP", "Rand per British Pound"),
        ("EXCZ002D", "EUR", "Rand per Euro"), ("EXCB080D", "AUD", "Australia: Dollar per Rand"),
        ("EXCB051D", "BWP", "Botswana: Pula per Rand"), ("EXCB036D", "BRL", "Brazil: Real per Rand"),
        ("EXCB031D", "CAD", "Canada: Dollar per Rand"), ("EXCB121D", "CNY", "China: Yuan per Rand"),
        ("EXCB003D", "DKK", "Denmark: Krone per Rand"), ("EXCB122D", "HKD", "Hong Kong: Dollar per Rand"),
        ("EXCB123D", "INR", "India: Rupee per Rand"), ("EXCB094D", "ILS", "Israel: Shekel per Rand"),
        ("EXCB120D", "JPY", "Japan: Yen per Rand"), ("EXCB059D", "KES", "Kenya: Schilling per Rand"),
        ("EXCB063D", "MWK", "Malawi: Kwacha per Rand"), ("EXCB081D", "NZD", "New Zealand: Dollar per Rand"),
        ("EXCB013D", "NOK", "Norway: Krone per Rand"), ("EXCB015D", "SEK", "Sweden: Krona per Rand"),
        ("EXCB016D", "CHF", "Switzerland: Franc per Rand"), ("EXCB126D", "TWD", "Taiwan: NT Dollar per Rand"),
        ("EXCB115D", "THB", "Thailand: Baht per Rand"), ("EXCB071D", "ZMW", "Zambia: Kwacha per Rand"),
        ("EXCB118D", "KRW", "South Korea: Won per Rand"),
    ]

    /// The API root (`…/GetTimeseriesObservations`), without a trailing slash.
    var endpoint: String { baseURL + "/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations" }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(each: Self.series, named: \.code, latestDays: 7, today: today()) { series, first, last in
            ProviderRequest(url: "\(endpoint)/\(series.code)/\(first.text(.midnightTimestamp))/\(last.text(.midnightTimestamp))")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        var publications: [ProviderPublication] = []
        var series: Series?
        for (index, observation) in try ProviderJSON(answer: body).array("the answer").enumerated() {
            let what = "observation \(index + 1)"
            let title = try observation.string("Timeseries", of: what)
            if series == nil {
                guard let known = Self.series.first(where: { $0.title == title }) else {
                    throw .layout("the series \(UpstreamDataError.quoted(title)) is not one the adapter reads")
                }
                if let subject = request.subject, subject != known.code {
                    throw .layout("the answer is \(known.code) (\(known.title)), the request for \(subject)")
                }
                series = known
            }
            guard let series, title == series.title else {
                throw .layout("\(what) is of \(UpstreamDataError.quoted(title)), the answer's first of \(series?.title ?? "")")
            }
            let day = try Day(parsing: observation.string("Period", of: what), .midnightTimestamp)
            let value = try observation.field("Value", of: "\(series.currency) on \(day)")
            if value.isNoFigure { continue }  // no figure that day
            let quote = try PublishedQuote.reading(
                code: Redenomination.code(series.currency, on: day), value: value, direction: series.direction, day: day)
            publications.append(ProviderPublication(day: day, quotes: [quote]))
        }
        return publications
    }
}
