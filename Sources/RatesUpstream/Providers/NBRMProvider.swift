import RatesCore

/// The National Bank of the Republic of North Macedonia's middle exchange rates of the denar (31 currencies).
///
/// - Source: `https://www.nbrm.mk/KLServiceNOV/GetExchangeRate?StartDate=DD.MM.YYYY&EndDate=DD.MM.YYYY&format=json`,
///   every list from the first day through the last, one row per currency and day:
///   `[{"rBr":98,"datum":"2026-05-30T00:00:00","valuta":"978","oznaka":"EUR","nomin":1,"sreden":61.695,"nazivAng":"Euro","datum_f":"2026-05-28T00:00:00",…},…]`.
///   `sreden` is a JSON number, read as written (trailing zeros kept).
/// - Quote convention: `sreden` (the middle rate) denars for `nomin` units of the currency `oznaka`,
///   ``PublishedQuote/Direction/pivotPerUnits``. A row for the denar itself would be skipped.
/// - Day: `datum`, the day the list holds for. The bank dates a list for every calendar day: the list it
///   sets on a working day (`datum_f`) holds for the next day, and Friday's also for the weekend (the
///   weekend days are listed with the same rates, under their own dates, and stored so).
/// - Schedule: Europe/Skopje, every day (the lists for Saturday to Monday are set before the weekend),
///   usually out by 12:00; the service's lists go back to 1993-01-01 (``historyStart``).
/// - Ranges: one request per 90 days (the span the bank's own tools ask for); the newest publication is
///   asked for as the last week through tomorrow.
public struct NBRMProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The service's address (`…/KLServiceNOV/GetExchangeRate`).
    var endpoint: String { baseURL + "/KLServiceNOV/GetExchangeRate" }

    /// The most days one request covers.
    static let maxDays = 90

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.spans(latestDays: 7, today: today().adding(days: 1), maxDays: Self.maxDays).map { span in
            let format = Day.ProviderFormat.dayMonthYear(separator: ".")
            return ProviderRequest(url: "\(endpoint)?StartDate=\(span.first.text(format))&EndDate=\(span.last.text(format))&format=json")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let rows = try ProviderJSON(answer: body).array("the answer")
        var days: [Day: [PublishedQuote]] = [:]
        for (index, row) in rows.enumerated() {
            let what = "row \(index + 1)"
            let day = try Day(parsing: row.string("datum", of: what), .midnightTimestamp)
            let code = try row.string("oznaka", of: what)
            let unit = try row.field("nomin", of: "\(code) on \(day)").integer("\(code)'s \"nomin\" on \(day)")
            let value = try row.field("sreden", of: "\(code) on \(day)")
            guard code != pivot.rawValue else { continue }
            days[day, default: []].append(try .reading(code: code, value: value, unit: unit, direction: .pivotPerUnits, day: day))
        }
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
