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
public struct NBRMProvider: RatesProvider {
    public let key = "NBRM"
    public let name = "National Bank of the Republic of North Macedonia"
    public let country: String? = "MK"
    public let pivot = CurrencyCode("MKD")!
    public let rateType = "middle rate"
    /// Every day, by 12:00 Skopje time.
    public let schedule = PublicationSchedule(timeZone: "Europe/Skopje", weekdays: [1, 2, 3, 4, 5, 6, 7], expectedMinute: 12 * 60)
    /// The service's first list.
    public let historyStart = Day(year: 1993, month: 1, day: 1)!

    /// The service's address (`…/KLServiceNOV/GetExchangeRate`).
    public let endpoint: String
    private let today: @Sendable () -> Day

    /// The most days one request covers.
    static let maxDays = 90

    /// - Parameters:
    ///   - baseURL: The host (`https://www.nbrm.mk` when `nil`), for a test server or a mirror.
    ///   - today: Today's day in Skopje; the default reads the clock (UTC+1).
    public init(baseURL: String? = nil, today: @escaping @Sendable () -> Day = Day.clock(utcOffset: 3600)) {
        self.endpoint = (baseURL ?? "https://www.nbrm.mk") + "/KLServiceNOV/GetExchangeRate"
        self.today = today
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today().adding(days: 1)) else { return [] }
        return Day.spans(from: first, through: last, maxDays: Self.maxDays).map { span in
            let format = Day.ProviderFormat.dayMonthYear(separator: ".")
            return ProviderRequest(url: "\(endpoint)?StartDate=\(span.first.text(format))&EndDate=\(span.last.text(format))&format=json")
        }
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let rows = try ProviderJSON(parsing: body, provider: key).array("the answer", provider: key)
        var days: [Day: [PublishedQuote]] = [:]
        for (index, row) in rows.enumerated() {
            let what = "row \(index + 1)"
            let datum = try row.field("datum", of: what, provider: key).string("\(what)'s \"datum\"", provider: key)
            let day = try Day(parsing: datum, .midnightTimestamp)
            let code = try row.field("oznaka", of: what, provider: key).string("\(what)'s \"oznaka\"", provider: key)
            let unit = try row.field("nomin", of: "\(code) on \(day)", provider: key).integer("\(code)'s \"nomin\" on \(day)", provider: key)
            let value = try row.field("sreden", of: "\(code) on \(day)", provider: key)
            guard code != pivot.rawValue else { continue }
            days[day, default: []].append(try .reading(code: code, value: value, unit: unit, direction: .pivotPerUnits, day: day))
        }
        guard !rows.isEmpty else { return [] }
        return try ProviderValidation.validate(days.map { ProviderPublication(day: $0.key, quotes: $0.value) }, notBefore: historyStart)
    }
}
