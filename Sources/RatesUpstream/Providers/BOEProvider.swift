import RatesCore

/// The Bank of England's daily spot exchange rates against sterling: 26 currencies per 1 GBP.
///
/// - Endpoint: the Interactive Statistical Database,
///   `GET https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp?csv.x=yes&Datefrom=17/Mar/2026&Dateto=20/Mar/2026&SeriesCodes=XUDLUSS,…&CSVF=TN&UsingCodes=Y`
///   (one request for any range; the newest publication is asked for as the last seven days up to `now`). The answer is a CSV pivoted by series:
///   `DATE,XUDLUSS,XUDLERS,…`, one row per day (`17 Mar 2026,1.3343,…`); for a range without an observation (a holiday span), the header alone: no
///   publication.
/// - Series: ``series`` maps each series code to its currency (the code's letters are the Bank's own, not ISO's: `XUDLSRS` is the Saudi riyal,
///   `XUDLBK78` the shekel). A column of any other series is a layout error.
/// - Quote convention: units of the currency per 1 GBP, ``RatesCore/PublishedQuote/Direction/unitsPerPivot``.
/// - Skipped: an empty cell (no figure for that series on that day).
/// - Schedule: Europe/London, Monday to Friday, rates at 16:00 local time, published about 16:30.
public struct BOEProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The daily spot series (`XUDL…`, units of currency per 1 GBP) and their currencies, in request order.
    public static let series: KeyValuePairs<String, String> = [
        "XUDLUSS": "USD", "XUDLERS": "EUR", "XUDLJYS": "JPY", "XUDLCDS": "CAD", "XUDLSFS": "CHF", "XUDLADS": "AUD",
        "XUDLNDS": "NZD", "XUDLNKS": "NOK", "XUDLSKS": "SEK", "XUDLDKS": "DKK", "XUDLHDS": "HKD", "XUDLSGS": "SGD",
        "XUDLSRS": "SAR", "XUDLZRS": "ZAR", "XUDLTWS": "TWD", "XUDLBK25": "CZK", "XUDLBK33": "HUF", "XUDLBK47": "PLN",
        "XUDLBK78": "ILS", "XUDLBK83": "MYR", "XUDLBK87": "THB", "XUDLBK89": "CNY", "XUDLBK93": "KRW", "XUDLBK95": "TRY",
        "XUDLBK97": "INR", "XUDLZOS4": "RON",
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let slashed = Day.ProviderFormat.dayMonthNameYear(separator: "/")
        let dates = window.map(latest: (from: today().adding(days: -7).text(slashed), to: "now")) { (from: $0.text(slashed), to: $1.text(slashed)) }
        guard let dates else { return [] }
        let codes = Self.series.map(\.key).joined(separator: ",")
        return [ProviderRequest(url: "\(baseURL)?csv.x=yes&Datefrom=\(dates.from)&Dateto=\(dates.to)&SeriesCodes=\(codes)&CSVF=TN&UsingCodes=Y")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let (lines, header) = try DelimitedText.header(body, separator: ",")
        guard header.first == "DATE", header.count > 1 else {
            throw .layout("the first line is not DATE and series codes: \(DelimitedText.shown(lines[0]))")
        }
        let currencies = try header.dropFirst().map { code throws(UpstreamDataError) in
            guard let currency = Self.series.first(where: { $0.key == code }).flatMap({ CurrencyCode($0.value) }) else {
                throw .layout("a column of series \(DelimitedText.shown(code)), which has no currency here")
            }
            return currency
        }
        // The header alone: no observation in the range (a holiday span).
        return try DelimitedText.rows(after: lines, separator: ",", count: header.count).map { _, fields throws(UpstreamDataError) in
            let day = try Day(parsing: fields[0], .dayMonthNameYear(separator: " "))
            let quotes = try zip(currencies, fields.dropFirst()).filter { _, text in !text.isEmpty }.map { currency, text throws(UpstreamDataError) in
                try PublishedQuote.reading(text, of: currency, direction: .unitsPerPivot, day: day)
            }
            return ProviderPublication(day: day, quotes: quotes)
        }
    }
}
