import RatesCore

/// The Banco de la República's representative market rate (TRM) of the Colombian peso against the dollar.
///
/// - Source: the TRM dataset on Colombia's open-data portal (Socrata), certified by the Superintendencia
///   Financiera from the day's market and published by the Banco de la República:
///   `https://www.datos.gov.co/resource/32sa-8pi3.json?$limit=50000&$order=vigenciadesde%20ASC&$where=vigenciadesde%3E=%272026-03-16T00:00:00.000%27%20AND%20vigenciadesde%3C=%272026-03-24T00:00:00.000%27`,
///   answered with a JSON array of `{"valor":"3691.9","unidad":"COP","vigenciadesde":"2026-03-17T00:00:00.000","vigenciahasta":"2026-03-17T00:00:00.000"}`.
/// - Quote convention: `valor` pesos per 1 US dollar, read as the text it is written in:
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``, USD only. A record with another `unidad` than
///   COP, or a `valor` that is not a plain decimal, rejects the answer. An empty array (no TRM starts in the
///   range) is no publication.
/// - Schedule: America/Bogota; each working day's market sets, by about 18:00 local time, the TRM of the
///   next calendar day: a record is dated `vigenciadesde`, the first day it holds. Friday's holds from
///   Saturday through `vigenciahasta` (the Monday, or the Tuesday after a Monday holiday): one publication,
///   dated Saturday, carried forward over the rest.
/// - Ranges: one request for any range (`vigenciadesde` within it, both included); the newest publication
///   is asked for as the seven days before tomorrow through tomorrow. The history starts on 2000-01-03.
public struct BANREPProvider: RatesProvider {
    public let key = "BANREP"
    public let name = "Banco de la República"
    public let country: String? = "CO"
    public let pivot = CurrencyCode("COP")!
    public let rateType = "representative market rate"
    /// Working days, by 18:00 Bogotá time (the rate carries the next calendar day's date).
    public let schedule = PublicationSchedule(timeZone: "America/Bogota", expectedMinute: 18 * 60)

    /// The real dataset's URL, without its query.
    public static let defaultBaseURL = "https://www.datos.gov.co/resource/32sa-8pi3.json"
    static let dollar = CurrencyCode("USD")!

    /// The dataset's URL, to which the query is appended.
    public let baseURL: String
    private let today: @Sendable () -> Day

    /// - Parameters:
    ///   - baseURL: The dataset's URL (`https://www.datos.gov.co/resource/32sa-8pi3.json` when `nil`), for a test server or a mirror.
    ///   - today: Today's day in Colombia; the default reads the clock (UTC−5, no summer time).
    public init(baseURL: String? = nil, today: @escaping @Sendable () -> Day = Day.clock(utcOffset: -5 * 3600)) {
        self.baseURL = baseURL ?? Self.defaultBaseURL
        self.today = today
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today().adding(days: 1)) else { return [] }
        let bound = { (day: Day) in "%27\(day.text(.iso))T00:00:00.000%27" }
        return [
            ProviderRequest(
                url: "\(baseURL)?$limit=50000&$order=vigenciadesde%20ASC"
                    + "&$where=vigenciadesde%3E=\(bound(first))%20AND%20vigenciadesde%3C=\(bound(last))")
        ]
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(parsing: body, provider: key)
        var publications: [ProviderPublication] = []
        for (index, record) in try document.array("the answer", provider: key).enumerated() {
            let what = "record \(index + 1)"
            let fromText = try record.field("vigenciadesde", of: what, provider: key).string("\(what)'s start", provider: key)
            let throughText = try record.field("vigenciahasta", of: what, provider: key).string("\(what)'s end", provider: key)
            let from = try Day(parsing: fromText, .midnightTimestamp)
            let through = try Day(parsing: throughText, .midnightTimestamp)
            guard through >= from else {
                throw .unexpectedLayout(provider: key, "the TRM of \(from) holds through \(through), before it starts")
            }
            let unit = try record.field("unidad", of: "the TRM of \(from)", provider: key).string("the unit of the TRM of \(from)", provider: key)
            guard unit == pivot.rawValue else {
                throw .unexpectedLayout(provider: key, "the TRM of \(from) is in \(UpstreamDataError.quoted(unit)), not COP")
            }
            let value = try record.field("valor", of: "the TRM of \(from)", provider: key).string("the TRM of \(from)", provider: key)
            guard RateText.isValid(value) else { throw .invalidRate(currency: Self.dollar, day: from, text: value) }
            let quote = PublishedQuote(currency: Self.dollar, value: value, unit: 1, direction: .pivotPerUnits)
            publications.append(ProviderPublication(day: from, quotes: [quote]))
        }
        return try ProviderValidation.validateAllowingNone(publications, notAfter: today().adding(days: 2))
    }
}
