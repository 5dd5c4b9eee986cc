import RatesCore

/// The Bank of Japan's Tokyo-market spot rates at 17:00 JST: the yen and the euro against the US dollar, the pivot (the yen is quoted here).
///
/// - Endpoint: the Time-Series Data Search API, both series in one request per calendar year touched (the newest publication, the months of the
///   last seven days up to today, in one), months as YYYYMM (an answer holds whole months: it may carry days either side of the range asked for):
///   `GET https://www.stat-search.boj.or.jp/api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04,FXERD34&startDate=202603&endDate=202603`.
///   The answer: `{"STATUS":200,…,"NEXTPOSITION":null,"RESULTSET":[{"SERIES_CODE":"FXERD04","UNIT":"Yen per U.S. Dollar",
///   "VALUES":{"SURVEY_DATES":[20260301,…],"VALUES":[null,156.99,…]}},…]}`; the figures are JSON numbers, read from their text. An answer the API
///   pages (a `NEXTPOSITION`) is not followed but rejected: a year is far below its page size.
/// - Series: ``series``: `FXERD04` is yen per 1 USD (``RatesCore/PublishedQuote/Direction/unitsPerPivot``), `FXERD34` USD per 1 euro
///   (``RatesCore/PublishedQuote/Direction/pivotPerUnits``). Each series' `UNIT` text must be the one listed there, so a series that changed its
///   quotation is rejected rather than read upside down. The series start on 1998-01-05 (``historyStart``); a 1998 answer is read like any other.
/// - Skipped: `null`, no figure that day (weekends, Japanese holidays: the API lists every day); nulls only (no business day yet): no publication.
/// - Schedule: Asia/Tokyo, Monday to Friday; a business day's 17:00 rates are in the API the next business morning, about 09:30 local time.
public struct BOJProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The series read (database FM08), in request order: id, currency, direction and the `UNIT` text the API gives.
    public static let series: [(id: String, currency: String, direction: PublishedQuote.Direction, unit: String)] = [
        ("FXERD04", "JPY", .unitsPerPivot, "Yen per U.S. Dollar"),
        ("FXERD34", "EUR", .pivotPerUnits, "U.S. Dollar per Euro"),
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        func month(_ day: Day) -> String { String(day.text(.compact).prefix(6)) }
        let codes = Self.series.map(\.id).joined(separator: ",")
        let spans = window.map(latest: [(today().adding(days: -7), today())]) { Day.yearSpans(from: $0, through: $1) } ?? []
        return spans.map { ProviderRequest(url: "\(baseURL)?format=json&lang=en&db=FM08&code=\(codes)&startDate=\(month($0))&endDate=\(month($1))") }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        guard document["STATUS"]?.numberText == "200"
        else { throw .layout("the API answered status \(document["STATUS"]?.numberText ?? "none"): \(document["MESSAGE"]?.stringValue ?? "")") }
        guard document["NEXTPOSITION"] == .null else { throw .layout("the answer is paged (NEXTPOSITION is set); ask for a shorter range") }
        var rows: [(day: Day, quote: PublishedQuote)] = []
        for result in try document.field("RESULTSET", of: "the answer").array("\"RESULTSET\"") {
            guard let id = result["SERIES_CODE"]?.stringValue, let unit = result["UNIT"]?.stringValue,
                let dates = result["VALUES"]?["SURVEY_DATES"]?.elements, let values = result["VALUES"]?["VALUES"]?.elements
            else { throw .layout("a series without SERIES_CODE, UNIT and the arrays VALUES.SURVEY_DATES and VALUES.VALUES") }
            guard let series = Self.series.first(where: { $0.id == id && $0.unit == unit }), let currency = CurrencyCode(series.currency)
            else { throw .layout("a series \(DelimitedText.shown(id)) in \(DelimitedText.shown(unit)), not one of those listed with its unit") }
            guard dates.count == values.count else { throw .layout("series \(id) has \(dates.count) dates and \(values.count) values") }
            for (date, value) in zip(dates, values) {
                guard let dateText = date.numberText else { throw .layout("a survey date of \(id) that is not a number") }
                let day = try Day(parsing: dateText, .compact)
                if value == .null { continue }
                guard let text = value.numberText else { throw .layout("a value of \(id) on \(day) that is neither a number nor null") }
                rows.append((day, PublishedQuote(currency: currency, value: text, direction: series.direction)))
            }
        }
        return ProviderPublication.byDay(rows)
    }
}
