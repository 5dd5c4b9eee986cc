import RatesCore

/// The Central Bank of Egypt's official buying and selling rates of the pound: 18 currencies, as their midpoints.
///
/// - Source: the historical-data page, `https://www.cbe.org.eg/en/economic-research/statistics/cbe-exchange-rates/historical-data`,
///   holds a form protected against forgery: a fetch first gets the page (``sessionRequest(for:)``) for the form's
///   hidden fields (`__RequestVerificationToken`, `DataSourceId`, `FallbackUrl`, `LanguageName`) and the cookies
///   that go with them, then posts them to `/api/statistics/GetHistoricalData` with `FromDateRaw` and `ToDateRaw`
///   (DD/MM/YYYY), one `SelectedSelectOptions` per currency name (`US Dollar`, `Japanese Yen 100`) and
///   `SubmitAction=2` (the "Download As Excel" button). The answer is an Excel workbook (read with ``XLSXWorkbook``)
///   of one sheet: a title row, the header `Date | Currency | Buy | Sell`, then one row per day and currency, the
///   day an Excel date serial (`46121`: 2026-04-09), the currency by its English name, the two figures as numbers.
///   A page without the hidden fields fails the fetch: the post would be refused. A span without rates (a
///   Friday–Saturday, a holiday) gives the header and no row: no publication.
/// - Quote convention: pounds for 1 unit of the currency (for 100 yen: the name says `Japanese Yen 100`),
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``; the bank publishes no middle rate, so each figure is the
///   exact midpoint of its buying and selling rates (`RateText.midpoint`: 53.0734 and 53.2067 give 53.14005). A
///   currency name this adapter does not know rejects the answer.
/// - Schedule: Africa/Cairo (UTC+2, UTC+3 in summer), Sunday to Thursday, by about 10:00; a figure is dated the
///   day it applies to.
/// - Ranges: one post per year of the range (the recording shows 9 days; the form states no limit); the newest
///   publication is asked for as the last seven days up to today. History from 2024-03-01.
public struct CBEProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The page whose form is posted.
    static let pagePath = "/en/economic-research/statistics/cbe-exchange-rates/historical-data"
    /// Where the form posts.
    static let formPath = "/api/statistics/GetHistoricalData"
    /// The form's hidden fields in its order, posted back as the page gives them; here with the values the page
    /// gave in May 2026 (the token left empty), for the requests known without the page (`rates-relay import`).
    static let hiddenFields: KeyValuePairs<String, String> = [
        "__RequestVerificationToken": "", "DataSourceId": "19CFFDDBFF494350A5E9C6A4397FC7DF", "FallbackUrl": pagePath, "LanguageName": "en",
    ]
    /// The currencies by the names the form and the workbook give them, with the units their figures are for.
    static let currencies: KeyValuePairs<String, (code: String, unit: Int)> = [
        "US Dollar": ("USD", 1), "Euro": ("EUR", 1), "Pound Sterling": ("GBP", 1), "Canadian Dollar": ("CAD", 1), "Danish Krone": ("DKK", 1),
        "Norwegian Krone": ("NOK", 1), "Swedish Krona": ("SEK", 1), "Swiss Franc": ("CHF", 1), "Japanese Yen 100": ("JPY", 100),
        "Saudi Riyal": ("SAR", 1), "Kuwaiti Dinar": ("KWD", 1), "UAE Dirham": ("AED", 1), "Australian Dollar": ("AUD", 1),
        "Bahraini Dinar": ("BHD", 1), "Omani Riyal": ("OMR", 1), "Qatari Riyal": ("QAR", 1), "Jordanian Dinar": ("JOD", 1),
        "Chinese Yuan": ("CNY", 1),
    ]
    static let byName = Dictionary(uniqueKeysWithValues: currencies.map { ($0.key, $0.value) })
    /// The sheet's header row.
    static let header = ["Date", "Currency", "Buy", "Sell"]

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        ProviderRequest(url: baseURL + Self.pagePath)
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        posts(window, fields: Self.hiddenFields.map { ($0.key, $0.value) }, cookie: nil)
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        let inputs = try HTMLDocument(parsing: session.body).startTags("input")
        let fields = try Self.hiddenFields.map { name, _ throws(UpstreamDataError) -> (name: String, value: String) in
            let matches = inputs.filter { $0["name"] == name }
            guard matches.count == 1, let value = matches[0]["value"], !value.isEmpty else {
                throw .layout("the page has no \(name) to post the form with")
            }
            return (name, value)
        }
        return posts(window, fields: fields, cookie: session.cookieHeader)
    }

    /// The form posts of `window`'s days, one per year, with the hidden `fields` (name and value, in the form's order).
    func posts(_ window: FetchWindow, fields: [(name: String, value: String)], cookie: String?) -> [ProviderRequest] {
        window.spans(latestDays: 7, today: today(), maxDays: 366).map { span in
            .formPost(
                url: baseURL + Self.formPath, cookie: cookie,
                fields: fields
                    + [("FromDateRaw", span.first.text(.dayMonthYear(separator: "/"))), ("ToDateRaw", span.last.text(.dayMonthYear(separator: "/")))]
                    + Self.currencies.map { ("SelectedSelectOptions", $0.key) } + [("SubmitAction", "2")])
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try XLSXWorkbook(body)
        guard workbook.sheets.count == 1 else { throw .layout("the workbook has \(workbook.sheets.count) sheets, expected one") }
        let sheet = try workbook.sheet(workbook.sheets[0])
        // A title row, then the header.
        guard let header = sheet.rows.first(where: { $0.cells.map { $0.text ?? "" } == Self.header }), header.cells.map(\.column) == [0, 1, 2, 3] else {
            throw .layout("no header row Date | Currency | Buy | Sell")
        }
        var days: [Day: [PublishedQuote]] = [:]
        for row in sheet.rows where row.number > header.number {
            guard row.cells.map(\.column) == [0, 1, 2, 3], let serial = row[0]?.number, let name = row[1]?.text else {
                throw .layout("row \(row.number) is not a date, a currency and two figures")
            }
            let day = try workbook.day(serial: serial)
            guard let currency = Self.byName[name], let code = CurrencyCode(currency.code) else { throw .invalidCurrencyCode(name, day: day) }
            guard let buying = row[2]?.decimalText, let selling = row[3]?.decimalText,
                let value = RateText.midpoint(buying, selling)
            else { throw .invalidRate(currency: code, day: day, text: (row[2]?.text ?? row[2]?.number ?? "") + " / " + (row[3]?.text ?? row[3]?.number ?? "")) }
            days[day, default: []].append(PublishedQuote(currency: code, value: value, unit: currency.unit, direction: .pivotPerUnits))
        }
        // The header and no row: no rates in the span (a Friday–Saturday, a holiday).
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
