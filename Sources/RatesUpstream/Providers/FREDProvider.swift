import RatesCore

/// The Federal Reserve Board's H.10 noon buying rates in New York, as served by the Federal Reserve Bank of St. Louis (FRED): 22 currencies against
/// the US dollar, one series each.
///
/// - Endpoint: `GET https://api.stlouisfed.org/fred/series/observations?series_id=DEXJPUS&api_key=KEY&file_type=json&…`, one request per series (the
///   API serves one per call; ``ProviderRequest/subject`` is the series id). The newest publication is asked for as the series' last ten observations
///   (`sort_order=desc&limit=10`, two weeks: H.10 is released weekly); a range as `observation_start` and `observation_end`. The API key goes in the
///   query, as FRED requires. The answer: `{"units":"lin",…,"observations":[{"date":"2026-03-02","value":"157.48",…},…]}`, values as JSON strings.
/// - Series: ``series`` maps each series id to its currency and direction. Most are units of the currency per 1 USD (`DEXJPUS`, "Japanese Yen to One
///   U.S. Dollar"), ``RatesCore/PublishedQuote/Direction/unitsPerPivot``; four are USD per 1 unit of the currency (`DEXUSAL`, `DEXUSEU`, `DEXUSNZ`,
///   `DEXUSUK`, "U.S. Dollars to One Euro"), ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. Only levels (`"units":"lin"`) are read.
/// - Skipped: the value `"."`, FRED's mark for a day without a figure (a US holiday, a market closed). A range without observations
///   (`"observations":[]`) or with none but `"."` is no publication.
/// - History: the series start on 1971-01-04 (``historyStart``; the euro's on 1999-01-04); a request without `observation_start` answers a series'
///   whole history.
/// - Schedule: America/New_York, weekly on Mondays about 16:15 local time (the daily figures of the week before).
public struct FREDProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The H.10 daily series, in request order: series id, currency, and which way round the series is quoted.
    public static let series: [(id: String, currency: String, direction: PublishedQuote.Direction)] =
        [
            ("DEXBZUS", "BRL"), ("DEXCAUS", "CAD"), ("DEXCHUS", "CNY"), ("DEXDNUS", "DKK"), ("DEXHKUS", "HKD"), ("DEXINUS", "INR"),
            ("DEXJPUS", "JPY"), ("DEXKOUS", "KRW"), ("DEXMAUS", "MYR"), ("DEXMXUS", "MXN"), ("DEXNOUS", "NOK"), ("DEXSDUS", "SEK"),
            ("DEXSFUS", "ZAR"), ("DEXSIUS", "SGD"), ("DEXSLUS", "LKR"), ("DEXSZUS", "CHF"), ("DEXTAUS", "TWD"), ("DEXTHUS", "THB"),
        ].map { ($0, $1, .unitsPerPivot) }
        + [("DEXUSAL", "AUD"), ("DEXUSEU", "EUR"), ("DEXUSNZ", "NZD"), ("DEXUSUK", "GBP")].map { ($0, $1, .pivotPerUnits) }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let query = window.map(latest: "sort_order=desc&limit=10") { first, last in "observation_start=\(first)&observation_end=\(last)" }
        guard let query else { return [] }
        return Self.series.map { series in
            ProviderRequest(url: "\(baseURL)?series_id=\(series.id)&api_key=\(apiKey)&file_type=json&\(query)", subject: series.id)
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        guard let subject = request.subject, let series = Self.series.first(where: { $0.id == subject }), let currency = CurrencyCode(series.currency)
        else { throw .layout("the request names no H.10 series: \(request.subject ?? "none")") }
        let document = try ProviderJSON(answer: body)
        if let message = document["error_message"]?.stringValue { throw .layout("FRED answered an error for \(subject): \(message)") }
        guard document["units"]?.stringValue == "lin", let observations = document["observations"]?.elements else {
            throw .layout("no \"units\":\"lin\" and \"observations\" array at the top level for \(subject)")
        }
        return try observations.map { observation throws(UpstreamDataError) -> ProviderPublication? in
            guard let dayText = observation["date"]?.stringValue, let text = observation["value"]?.stringValue else {
                throw .layout("an observation of \(subject) without the texts date and value")
            }
            let day = try Day(parsing: dayText, .iso)
            // "." is FRED's "no observation on this day".
            guard text != "." else { return nil }
            return ProviderPublication(day: day, quotes: [try PublishedQuote.reading(text, of: currency, direction: series.direction, day: day)])
        }.compactMap { $0 }
    }
}
