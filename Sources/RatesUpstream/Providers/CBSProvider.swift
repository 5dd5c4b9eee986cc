import RatesCore

/// The Central Bank of Samoa's daily indicative reference rates: 8 currencies per tala.
///
/// - Source: the page `https://cbs.gov.ws/daily-exchange-rates` links the current workbook of historical
///   daily rates (`/media/Historical-Daily-Rates-June032026.xlsx`: its name changes with each update), an
///   Excel workbook (read with ``XLSXWorkbook``) of one sheet per year since 2008 (`2008` … `2026`). Each
///   sheet holds one block per month: a row naming the month (`JANUARY`), a header row (`DATE`, then one
///   column per currency: `TALA/USD`, `TALA/NZD`, … or, in 2009–2012, `US/TALA`, `NZ/TALA`, … for the same
///   figures), then one row per working day, its date an Excel date serial in column B.
/// - Quote convention: units of the currency per 1 WST, whichever way the header writes the pair
///   (0.36023 USD, 56.47811 JPY per tala): ``RatesCore/PublishedQuote/Direction/unitsPerPivot``, unit 1.
///   ``currencies`` maps the headers' names to codes (`YEN` is JPY, `US` USD, `AUS` AUD), and a name that is
///   an ISO 4217 code is that currency, and the `CNH` column the offshore yuan's, beside the onshore CNY's;
///   headers are read in any case and spacing (`Tala / usd`). Skipped: cells
///   `n/a` in any case and spacing (no figure that day); and rows without a date, which are monthly and
///   quarterly averages (`Jan`, `Dec qtr avg`, or no label at all, in any case) and their headers (`usd`,
///   `nzd`, …), month names, and other words (a heading, a note); a month's label typed as a number (a
///   "date" without figures); cells right of the header's last currency (a reckoning such as `=1/H135`
///   beside 2017-06-30); and a row dated outside the rows around it, a slip whose figures' day is unknown
///   (2026-01-12 between 2026-02-11 and 2026-02-13; 2015-06-30, the 2015 sheet's row, among the days of
///   2014). A date is an Excel date serial or, where typed as text, `5/01/2026`, `5-Jan-2026` or
///   `2026-01-05`; a label with digits that is none of these rejects the answer. Figures are stored as
///   doubles and read as ``XLSXCell/decimalText`` says (`0.36022999999999999` is `0.36023`).
/// - Schedule: Pacific/Apia, Monday to Friday; a day's rates are set in the morning, by about 08:00.
/// - Ranges: the one workbook holds every day since 2008-01-03, for the newest publication and any range;
///   its days are kept from it. A fetch first reads the page for the workbook's address
///   (``sessionRequest(for:)``); without the page (`rates-relay import`), the request is the workbook at
///   the address the page gave when the adapter was written (``lastKnownPath``).
public struct CBSProvider: LinkedFileProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The page that links the current workbook.
    static let indexPath = "/daily-exchange-rates"
    /// Where the page linked the workbook on 3 June 2026.
    static let lastKnownPath = "/media/Historical-Daily-Rates-June032026.xlsx"
    /// The workbooks ``isLinkedFile(_:)`` picks, in words.
    static let linkedFiles = "historical daily rates workbooks (Historical-Daily-Rates….xlsx)"

    /// Whether a link of the page is to the workbook.
    static func isLinkedFile(_ link: HTMLLinks.Link) -> Bool {
        link.href.hasSuffix(".xlsx") && link.href.contains("Historical-Daily-Rates")
    }

    /// The currencies by the names the headers give them beside `TALA`; `nil` for a column skipped.
    static let currencies: [String: String?] = [
        "USD": "USD", "US": "USD", "NZD": "NZD", "NZ": "NZD", "AUD": "AUD", "AUS": "AUD", "EURO": "EUR", "EUR": "EUR",
        "FJD": "FJD", "YEN": "JPY", "GBP": "GBP", "CNY": "CNY", "CNH": "CNH",
    ]
    /// The month names of the rows that start a block, in capitals.
    static let months: Set<String> = [
        "JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER",
    ]
    /// The labels of average rows, in any case: a month's (`Jan`, `Sept`) or a quarter's (`Dec qtr avg`),
    /// or any label saying `avg` or `average`.
    static func isAverage(_ label: String) -> Bool {
        let lower = label.lowercased()
        return ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"].contains(lower)
            || lower.contains("avg") || lower.contains("average")
    }
    /// The day a date typed as text names (`5/01/2026`, `05/01/2026`, `5-Jan-2026`, `2026-01-05`); `nil` for other text.
    static func textDay(_ label: String) -> Day? {
        Day(label, .dayMonthYear(separator: "/", padded: false)) ?? Day(label, .dayMonthNameYear(separator: "-"))
            ?? Day(label, .dayMonthNameYear(separator: " ")) ?? Day(label, .iso)
    }
    /// The code a header names beside `TALA`: the bank's own names (``currencies``) or an ISO 4217 code;
    /// `.some(nil)` for a column skipped, `nil` for a name neither.
    static func currency(named name: String) -> String?? {
        if let known = currencies[name] { return known }
        guard let code = CurrencyCode(name), code.name != nil else { return nil }
        return .some(code.rawValue)
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try XLSXWorkbook(body)
        return try workbook.everySheet { sheet throws(UpstreamDataError) in try read(sheet, of: workbook) }
    }

    /// The days of one year's sheet.
    private func read(_ sheet: XLSXSheet, of workbook: XLSXWorkbook) throws(UpstreamDataError) -> [ProviderPublication] {
        func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(sheet.name): \(text)") }
        var columns: [Int: CurrencyCode?]?
        var dated: [ProviderPublication] = []
        for row in sheet.rows {
            // A header: `TALA/USD` or `US/TALA` in each column after B (B says `DATE`, or names the month).
            if row.cells.contains(where: { $0.column > 1 && $0.words?.uppercased().contains("TALA") == true }) {
                var header: [Int: CurrencyCode?] = [:]
                for cell in row.cells where cell.column > 1 {
                    let pair = (cell.words ?? "").uppercased().split(separator: "/").map { $0.split(separator: " ").joined() }
                    guard pair.count == 2, pair.contains("TALA"), let name = pair.first(where: { $0 != "TALA" }), let code = Self.currency(named: name) else {
                        throw layout("header \(cell.reference) is \(UpstreamDataError.quoted(cell.words ?? "\(cell.value)")), not a currency the adapter knows against TALA")
                    }
                    header.updateValue(code.flatMap(CurrencyCode.init), forKey: cell.column)
                }
                columns = header
                continue
            }
            guard let first = row[1] else { continue }  // an average without a label, or the averages' own header
            let textDay = first.words.flatMap(Self.textDay)
            if let label = first.words, textDay == nil {
                // A month's name, an average's label, a word (a heading, a note): no day's row.
                guard Self.months.contains(label.uppercased()) || Self.isAverage(label) || !label.contains(where: \.isNumber) else {
                    throw layout("row \(row.number) is labelled \(UpstreamDataError.quoted(label))")
                }
                continue
            }
            let serial = first.number
            guard textDay != nil || serial != nil else { throw layout("\(first.reference) is not a date") }
            guard let columns else { throw layout("row \(row.number) comes before any header") }
            let last = columns.keys.max() ?? 0
            var quotes: [PublishedQuote] = []
            var day: Day?
            for cell in row.cells where cell.column > 1 && cell.column <= last {
                guard let column = columns[cell.column] else { throw layout("\(cell.reference) holds a value in a column without a currency") }
                guard let code = column else { continue }
                if cell.words?.lowercased() == "n/a" { continue }
                let rowDay = if let known = day ?? textDay { known } else { try workbook.day(serial: serial ?? "") }
                day = rowDay
                quotes.append(PublishedQuote(currency: code, value: try cell.rate(of: code, day: rowDay), direction: .unitsPerPivot))
            }
            if let day, !quotes.isEmpty { dated.append(ProviderPublication(day: day, quotes: quotes)) }
        }
        // A row dated outside the days around it is a slip of the sheet's, its figures' day unknown: left out.
        return dated.indices.filter { index in
            guard index > 0, index < dated.count - 1 else { return true }
            let (before, day, after) = (dated[index - 1].day, dated[index].day, dated[index + 1].day)
            return before >= after || (before < day && day < after)
        }.map { dated[$0] }
    }
}
