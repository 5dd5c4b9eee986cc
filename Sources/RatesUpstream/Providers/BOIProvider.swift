import RatesCore

/// The Bank of Israel's representative exchange rates of about 14 currencies in ILS.
///
/// - Endpoint: the SDMX edge server, `GET https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/?c%5BDATA_TYPE%5D=OF00&startperiod=YYYY-MM-DD&endperiod=YYYY-MM-DD&format=csv`
///   (one request for any range; the newest publication is asked for as the last seven days). The answer is
///   SDMX-CSV with the columns `SERIES_CODE,…,BASE_CURRENCY,COUNTER_CURRENCY,…,UNIT_MULT,…,TIME_PERIOD,OBS_VALUE,…`,
///   one row per currency and day; for a span without a representative rate, the header alone: no publication.
/// - Quote convention: ILS per 10^`UNIT_MULT` units of `BASE_CURRENCY` (JPY per 100, LBP per 10),
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. Only `DATA_TYPE` `OF00` (the representative rate) is read.
/// - Schedule: Asia/Jerusalem, Monday to Friday, published about 15:30 local time.
public struct BOIProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let columns = ["BASE_CURRENCY", "COUNTER_CURRENCY", "UNIT_MULT", "TIME_PERIOD", "OBS_VALUE", "DATA_TYPE"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard let span = window.span(latestDays: 7, today: today()) else { return [] }
        return [ProviderRequest(url: "\(baseURL)?c%5BDATA_TYPE%5D=OF00&startperiod=\(span.first)&endperiod=\(span.last)&format=csv")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let table = try SDMXCSV(body, columns: Self.columns)
        // The header alone: no representative rate in the range.
        return try ProviderPublication.byDay(table.rows.map { row throws(UpstreamDataError) in
            let day = try Day(parsing: row[3], .iso)
            guard row[1] == pivot.rawValue, row[5] == "OF00" else {
                throw .layout("a row of \(DelimitedText.shown(row[5])) in \(DelimitedText.shown(row[1])), not OF00 in ILS")
            }
            return (day, try table.quote(base: row[0], unitMultiplier: row[2], value: row[4], day: day))
        })
    }
}
