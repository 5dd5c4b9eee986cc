import RatesCore

/// Norges Bank's daily exchange rates (middle rates at 14:15 Oslo time) of about 36 currencies in NOK.
///
/// - Endpoint: the SDMX REST API, `GET https://data.norges-bank.no/api/data/EXR/B..NOK.SP?format=csvdata&startPeriod=YYYY-MM-DD&endPeriod=YYYY-MM-DD`
///   (one request for any range; `lastNObservations=1` instead of the period for the newest day). The answer is SDMX-CSV, one row per series and day:
///   `FREQ,BASE_CUR,QUOTE_CUR,TENOR,DECIMALS,CALCULATED,UNIT_MULT,COLLECTION,TIME_PERIOD,OBS_VALUE`.
/// - Quote convention: NOK per 10^`UNIT_MULT` units of `BASE_CUR` (`UNIT_MULT` 2 for JPY, SEK, DKK, HUF, … → per 100),
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. `XDR` is marked `CALCULATED` and kept.
/// - Skipped: the index series `TWI` (trade-weighted index) and `I44` (import-weighted index): not currencies.
/// - Schedule: Europe/Oslo, Monday to Friday, published about 16:00 local time.
public struct NBProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// Series that are indices, not currencies.
    static let indices: Set<String> = ["TWI", "I44"]
    static let columns = ["BASE_CUR", "QUOTE_CUR", "UNIT_MULT", "TIME_PERIOD", "OBS_VALUE"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let series = "\(baseURL)/data/EXR/B..NOK.SP?format=csvdata"
        return window.requests(latest: [ProviderRequest(url: series + "&lastNObservations=1")]) { first, last in
            [ProviderRequest(url: series + "&startPeriod=\(first)&endPeriod=\(last)")]
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let table = try SDMXCSV(body, columns: Self.columns)
        var quotesByDay: [Day: [PublishedQuote]] = [:]
        for row in table.rows {
            let base = row[0]
            let day = try Day(parsing: row[3], .iso)
            guard row[1] == pivot.rawValue else {
                throw .layout("a rate quoted in \(DelimitedText.shown(row[1])), not NOK")
            }
            if Self.indices.contains(base) { continue }
            quotesByDay[day, default: []].append(try table.quote(base: base, unitMultiplier: row[2], value: row[4], day: day))
        }
        return quotesByDay.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
