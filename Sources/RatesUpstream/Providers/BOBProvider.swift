import RatesCore

/// The Bank of Botswana's daily exchange rates of the pula: seven currencies per 1 BWP.
///
/// - Source: `https://www.bankofbotswana.bw/export/exchange-rates.csv?_format=csv&page`, the whole history since 2001 as one CSV (UTF-8 with a byte
///   order mark), newest days first but not in strict order: `Date,CHN,EUR,GBP,USD,SDR,YEN,ZAR`, then one row per day
///   (`"19 Mar 2026",0.5165,0.0653,0.0564,0.0748,0.0551,11.9500,1.2717`).
/// - Quote convention: units of the currency per 1 BWP, ``PublishedQuote/Direction/unitsPerPivot``, unit 1. The bank's column names are not all ISO
///   codes: ``columns`` maps `CHN` to CNY, `YEN` to JPY and `SDR` to XDR; any other column must be headed by an ISO 4217 code (`EUR`, or a currency
///   the bank adds), or the answer is rejected.
/// - Skipped: a figure of `0.0000`, the bank's mark for no figure (the yuan before September 2016, the yen on two days of 2005 and 2007). A day
///   written on two rows is read once when the rows agree; when they disagree (17 Jan 2018, 23 Oct 2018 and 13 Aug 2019 in the export of March 2026)
///   the day is left out, since nothing in the file says which row is the day's.
/// - Schedule: Africa/Gaborone, Monday to Friday, out by 12:00 local time (Frankfurter polls from 10:00 UTC); a row's date is the day the rates were
///   set.
/// - Ranges: the endpoint takes no dates: every fetch asks for the whole file (about 400 kB), and the fetch keeps the days asked for.
public struct BOBProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The bank's column names that are not the currency's ISO code, and the currencies they are.
    public static let columns: KeyValuePairs<String, String> = ["CHN": "CNY", "SDR": "XDR", "YEN": "JPY"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.wholeHistory([ProviderRequest(url: "\(baseURL)/export/exchange-rates.csv?_format=csv&page")])
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let (lines, header) = try DelimitedText.header(body, separator: ",")
        guard header.first == "Date", header.count > 1 else {
            throw .layout("the first line is not Date and currency columns: \(DelimitedText.shown(lines[0]))")
        }
        var currencies: [CurrencyCode] = []
        for column in header.dropFirst() {
            let code = Self.columns.first(where: { $0.key == column })?.value ?? column
            guard let currency = CurrencyCode(code), currency.name != nil else {
                throw .layout("a column \(DelimitedText.shown(column)), which names no currency known here")
            }
            guard !currencies.contains(currency) else { throw .layout("the column of \(currency) appears twice") }
            currencies.append(currency)
        }
        var days: [Day: [PublishedQuote]] = [:]
        var conflicting = Set<Day>()
        for (_, fields) in try DelimitedText.rows(after: lines, separator: ",", count: header.count) {
            let day = try Day(parsing: fields[0], .dayMonthNameYear(separator: " "))
            let figures = zip(currencies, fields.dropFirst()).filter { !ProviderValidation.isZero($1) }
            let quotes = try figures.map { currency, text throws(UpstreamDataError) in
                guard RateText.isValid(text) else { throw .invalidRate(currency: currency, day: day, text: text) }
                return PublishedQuote(currency: currency, value: text, unit: 1, direction: .unitsPerPivot)
            }
            if let earlier = days[day], earlier != quotes { conflicting.insert(day) }
            days[day] = quotes
        }
        return days.filter { !conflicting.contains($0.key) }.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
