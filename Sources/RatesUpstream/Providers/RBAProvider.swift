import RatesCore

/// The Reserve Bank of Australia's daily exchange rates (table F11.1): about 20 currencies per 1 AUD.
///
/// - Endpoint: `GET https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv`, the whole table from 2023-01-03 to the newest day (earlier years
///   are in separate historical workbooks, not read here); the same file answers the newest publication and any range, so parse returns every day in
///   it. Layout: a metadata block (`F11.1 EXCHANGE RATES`, then rows `Title`, `Description`, `Frequency`, `Type`, `Units`, blank lines, `Source`,
///   `Publication date`, `Series ID`), then one row per day (`03-Jan-2023,0.6828,61.40,…`), then blank lines.
/// - Quote convention: units of the currency per 1 AUD (titles `A$1=USD`), ``RatesCore/PublishedQuote/Direction/unitsPerPivot``; the column in units
///   `SDR` is the IMF's special drawing right, code `XDR`.
/// - Skipped: the trade-weighted index column (units `Index`: not a currency) and empty cells (a series the RBA no longer publishes, such as AED and
///   ZAR since October 2024, or a day it has no figure for).
/// - Schedule: Australia/Sydney, Monday to Friday, rates at 16:00 local time, the file updated about 16:30.
public struct RBAProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.wholeHistory([ProviderRequest(url: baseURL)])
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let (lines, title) = try DelimitedText.header(body, separator: ",")
        guard title[0].hasPrefix("F11.1") else { throw .layout("the first line is not the F11.1 title: \(DelimitedText.shown(lines[0]))") }
        // The metadata block, up to and including `Series ID`, the line before the table.
        var metadata: [String: [String]] = [:]
        var seriesLine = 0
        for line in lines.dropFirst() where metadata["Series ID"] == nil {
            seriesLine += 1
            guard !DelimitedText.isBlank(line) else { continue }
            let fields = try DelimitedText.fields(line, separator: ",")
            metadata[fields[0]] = Array(fields.dropFirst())
        }
        guard let titles = metadata["Title"], let units = metadata["Units"], metadata["Series ID"]?.count == titles.count,
            units.count == titles.count
        else { throw .layout("the metadata block lacks Title, Units or Series ID rows of one width") }
        // What each column holds: a currency, or nil for the index.
        let currencies = try zip(titles, units).map { title, unit throws(UpstreamDataError) -> CurrencyCode? in
            if unit == "Index" { return nil }
            guard title == "A$1=\(unit)", let currency = CurrencyCode(unit == "SDR" ? "XDR" : unit) else {
                throw .layout("a column titled \(DelimitedText.shown(title)) in units \(DelimitedText.shown(unit)), not A$1=<currency>")
            }
            return currency
        }
        let rows = try DelimitedText.rows(after: Array(lines[seriesLine...]), separator: ",", count: currencies.count + 1)
        return try rows.map { row throws(UpstreamDataError) in
            let day = try Day(parsing: row.fields[0], .dayMonthNameYear(separator: "-"))
            var quotes: [PublishedQuote] = []
            for (currency, text) in zip(currencies, row.fields.dropFirst()) {
                guard let currency, !text.isEmpty else { continue }
                quotes.append(try .reading(text, of: currency, direction: .unitsPerPivot, day: day))
            }
            return ProviderPublication(day: day, quotes: quotes)
        }
    }
}
