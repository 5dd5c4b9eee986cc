import RatesCore

/// The Monetary Authority of Singapore's daily exchange rates of the Singapore dollar (21 currencies),
/// from its Financial Database.
///
/// - Source: the ASP.NET page `https://eservices.mas.gov.sg/statistics/msb/ExchangeRates.aspx`. A fetch
///   first gets the page (``sessionRequest(for:)``) for its form state (the hidden `__VIEWSTATE`,
///   `__VIEWSTATEGENERATOR` and `__EVENTVALIDATION`) and its currency check boxes, then posts the form back
///   with the `Download` button, frequency `D` (daily), a start and end year and month, and every
///   end-of-period check box on. The answer is CSV: title lines (`MAS: Financial Database - Exchange Rates`,
///   `Exchange Rates (Daily)`, `Mar 2026 to Mar 2026`), the header `End of Period,,,S$ Per Unit of Euro,…,
///   S$ Per 100 Units of Australian Dollar,…`, one row per day (`2026,Mar,02,1.4940,…`; the year and the
///   month written only where they change: `,,03,1.4877,…`), a blank line and footnotes (`"* Daily figures
///   are values as of noon."`, and any other line, such as a note on the source), the daily one of which must
///   be there: without it the answer is taken as cut.
/// - Quote convention: Singapore dollars per 1 unit (EUR, GBP, USD) or per 100 units (the others) of the
///   currency, as each column's title says: ``PublishedQuote/Direction/pivotPerUnits``, unit 1 or 100. Columns
///   name currencies in English: a fixed table maps the 21 names the database uses to their codes, and a
///   column with any other name rejects the answer. An empty cell (no figure that day) is skipped.
/// - History: the daily series start on 1988-01-01 (``historyStart``; the form's first year).
/// - Schedule: Asia/Singapore, Monday to Friday; the day's noon figures are in the database by about 18:00.
/// - Ranges: the form asks for whole months: a range is one request from its first day's month through its
///   last day's, and the fetch keeps the range's own days. The newest publication is asked for as the
///   previous and the current month.
public struct MASProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The page's URL.
    var pageURL: String { baseURL + "/statistics/msb/ExchangeRates.aspx" }

    /// The currencies' names in the database's column titles, and their codes.
    static let currencies: [String: String] = [
        "Euro": "EUR", "Pound Sterling": "GBP", "US Dollar": "USD", "Australian Dollar": "AUD", "Canadian Dollar": "CAD",
        "Chinese Renminbi": "CNY", "Hong Kong Dollar": "HKD", "Indian Rupee": "INR", "Indonesian Rupiah": "IDR",
        "Japanese Yen": "JPY", "Korean Won": "KRW", "Malaysian Ringgit": "MYR", "New Taiwan Dollar": "TWD",
        "New Zealand Dollar": "NZD", "Philippine Peso": "PHP", "Qatar Riyal": "QAR", "Saudi Arabia Riyal": "SAR",
        "Swiss Franc": "CHF", "Thai Baht": "THB", "UAE Dirham": "AED", "Vietnamese Dong": "VND",
    ]

    /// The beginnings of the column titles, and the units of the currency each quotes per.
    static let titlePrefixes = [(prefix: "S$ Per Unit of ", unit: 1), (prefix: "S$ Per 100 Units of ", unit: 100)]
    /// The footnote that ends a daily download.
    static let dailyFootnote = "* Daily figures are values as of noon."
    /// The form's field names (an ASP.NET page's controls).
    static let field = "ctl00$ContentPlaceHolder1$"
    /// The hidden fields posted back as the page gave them.
    static let stateFields = ["__VIEWSTATE", "__VIEWSTATEGENERATOR", "__EVENTVALIDATION"]
    /// The check boxes of the end-of-period series: the per-unit and the per-100-units currencies.
    static let checkBoxLists = ["EndOfPeriodPerUnitCheckBoxList$", "EndOfPeriodPer100UnitsCheckBoxList$"]

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        ProviderRequest(url: pageURL)
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        download(window, state: [], checkBoxes: [])
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        let inputs = try HTMLDocument(parsing: session.body).startTags("input")
        let state = try Self.stateFields.map { name throws(UpstreamDataError) -> (name: String, value: String) in
            let matches = inputs.filter { $0["name"] == name }
            guard matches.count == 1, let value = matches[0]["value"], !value.isEmpty || name != "__VIEWSTATE" else {
                throw .layout("the page has \(matches.count) \(name) fields with a value, expected one")
            }
            return (name, value)
        }
        let checkBoxes = inputs.filter { $0["type"] == "checkbox" }.compactMap { $0["name"] }.filter { name in
            Self.checkBoxLists.contains { name.hasPrefix(Self.field + $0) }
        }
        guard !checkBoxes.isEmpty else { throw .layout("the page has no end-of-period currency check boxes") }
        return download(window, state: state, checkBoxes: checkBoxes)
    }

    /// The form post that downloads `window`'s months as CSV.
    func download(_ window: FetchWindow, state: [(name: String, value: String)], checkBoxes: [String]) -> [ProviderRequest] {
        let today = today()
        guard case let (first, last)? = window.map(latest: (today.monthStart.adding(days: -1), today), range: { ($0, $1) }) else { return [] }
        let form: [(name: String, value: String)] = [
            (Self.field + "StartYearDropDownList", String(first.parts.year)),
            (Self.field + "EndYearDropDownList", String(last.parts.year)),
            (Self.field + "StartMonthDropDownList", String(first.parts.month)),
            (Self.field + "EndMonthDropDownList", String(last.parts.month)),
            (Self.field + "FrequencyDropDownList", "D"),
            (Self.field + "DownloadButton", "Download"),
        ]
        return [.formPost(url: pageURL, fields: state + form + checkBoxes.map { (name: $0, value: "on") })]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        guard !body.isEmpty else { throw .empty }
        let lines = try DelimitedText.lines(body)
        guard let headerIndex = lines.firstIndex(where: { $0.hasPrefix("End of Period,") }) else {
            throw .layout("no \"End of Period\" header line: not the database's CSV")
        }
        guard lines[..<headerIndex].contains("Exchange Rates (Daily)") else {
            throw .layout("the CSV is not the daily series (no \"Exchange Rates (Daily)\" title)")
        }
        let header = try DelimitedText.fields(lines[headerIndex], separator: ",")
        guard header.count > 3, header[1].isEmpty, header[2].isEmpty else {
            throw .layout("the header \(DelimitedText.shown(lines[headerIndex])) is not End of Period, year, month, day")
        }
        let columns = try header.dropFirst(3).map { title throws(UpstreamDataError) -> (code: CurrencyCode, unit: Int) in
            guard let kind = Self.titlePrefixes.first(where: { title.hasPrefix($0.prefix) }) else {
                throw .layout("a column \(DelimitedText.shown(title)), not \"S$ Per Unit of …\" or \"S$ Per 100 Units of …\"")
            }
            let currency = title.dropFirst(kind.prefix.count)
            guard let code = Self.currencies[String(currency)].flatMap({ CurrencyCode($0) }) else {
                throw .layout("a column of \(DelimitedText.shown(currency)), a currency the adapter does not know")
            }
            return (code, kind.unit)
        }

        // The rows end at a blank line; the footnotes after it end the answer, and a cut answer lacks them: checked
        // before any row is read, so that a cut inside a row is reported as a cut.
        let end = lines[(headerIndex + 1)...].firstIndex(where: { DelimitedText.isBlank($0) }) ?? lines.count
        let footnotes = try lines[end...].filter { !DelimitedText.isBlank($0) }.map { line throws(UpstreamDataError) in
            try DelimitedText.fields(line, separator: ",").joined(separator: ",")
        }
        guard footnotes.contains(Self.dailyFootnote) else {
            throw .layout("no footnote \"\(Self.dailyFootnote)\" after the rows: the answer is cut")
        }

        var publications: [ProviderPublication] = []
        var year: Substring?
        var month: Substring?
        for line in lines[(headerIndex + 1)..<end] {
            let fields = try DelimitedText.fields(line, separator: ",")
            guard fields.count == header.count else {
                throw .layout("the line \(DelimitedText.shown(line)) has \(fields.count) fields, the header \(header.count)")
            }
            if !fields[0].isEmpty { year = Substring(fields[0]) }
            if !fields[1].isEmpty { month = Substring(fields[1]) }
            guard let year, let month else { throw .layout("the first day \(DelimitedText.shown(line)) has no year or month") }
            let dayText = "\(fields[2])-\(month)-\(year)"
            guard fields[2].count == 2, let day = Day(dayText, .dayMonthNameYear(separator: "-")) else { throw .invalidDay(dayText) }
            var quotes: [PublishedQuote] = []
            for (column, text) in zip(columns, fields.dropFirst(3)) where !text.isEmpty {
                guard RateText.isValid(text) else { throw .invalidRate(currency: column.code, day: day, text: text) }
                quotes.append(PublishedQuote(currency: column.code, value: text, unit: column.unit, direction: .pivotPerUnits))
            }
            publications.append(ProviderPublication(day: day, quotes: quotes))
        }
        return publications
    }
}
