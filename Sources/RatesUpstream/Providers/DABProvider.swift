import RatesCore

/// Da Afghanistan Bank's rates of the afghani (AFN), ten currencies.
///
/// - Source: `https://www.dab.gov.af/exchange-rates?field_date_value=YYYY-MM-DD`, an HTML page in UTF-8: `<p>Last updated: 18 May 2026</p>` (the day
///   of the rates), then the day's table, whose header row is `Currency | Cash (Sell) | Cash (Buy) | Transfer (Sell) | Transfer (Buy)` (the page's
///   first table), one row per currency named in the bank's words (`USD$`, `EURO€`, `INDIAN Rs.`, `IRAN Toman`), read without currency symbols,
///   spacing or case through ``currencyNames``, or an ISO 4217 code; a row of any other label is left out, and a table without the US dollar rejects
///   the answer. A second table with the same header, the previous month's average rates, follows on most days and is not read. A day without rates
///   (a holiday) is a page saying `There were no results.`: no publication.
/// - Quote convention: afghanis for 1 unit of the currency, cash and transfer, each sold and bought. The figure stored is the exact midpoint of the
///   transfer selling and buying rates (``RatesCore/RateText/midpoint(_:_:)``: 64.0267 and 63.9267 give 63.9767 AFN per USD),
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. Only the transfer figures are read: the cash ones are not checked (the toman's are already
///   0.0009 and 0.0003, and may be blank or zero). A currency whose transfer figures are both blank, `-` or zero has none that day and is left out;
///   any other transfer figure that is not a decimal rejects the answer. The Iranian toman, ten rials, has no ISO 4217 code: its line is stored as
///   IRR with unit 10 (AFN per 10 IRR), digits unchanged.
/// - Schedule: Asia/Kabul, Saturday to Thursday, usually by 09:30; the rates are dated the day they are for.
/// - Ranges: one request per Saturday–Thursday of the range (the page answers one day); the newest publication is asked for as today's and the two
///   days' before it.
public struct DABProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The weekdays with rates: Saturday to Thursday.
    static let publicationWeekdays: Set<Int> = [6, 7, 1, 2, 3, 4]
    static let header = ["Currency", "Cash (Sell)", "Cash (Buy)", "Transfer (Sell)", "Transfer (Buy)"]

    /// The bank's names of the currencies, without their symbols and in capitals (`EURO€` is `EURO`, `INDIAN Rs.` is `INDIAN RS.`): the code and the
    /// unit the figure is for.
    static let currencyNames: [String: (code: String, unit: Int)] = [
        "USD": ("USD", 1), "EURO": ("EUR", 1), "POUND": ("GBP", 1), "SWISS": ("CHF", 1), "INDIAN RS.": ("INR", 1),
        "PAKISTAN RS.": ("PKR", 1), "IRAN TOMAN": ("IRR", 10), "CNY": ("CNY", 1), "UAE DIRHAM": ("AED", 1), "SAUDI RIYAL": ("SAR", 1),
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latestDays: 2, today: today(), on: Self.publicationWeekdays).map { day in
            ProviderRequest(url: "\(baseURL)/exchange-rates?field_date_value=\(day.text(.iso))")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let page = try HTMLDocument(parsing: body)
        if page.tables.isEmpty, page.hasText(containing: "There were no results.") { return [] }
        guard let updated = page.texts(of: "p").first(where: { $0.hasPrefix("Last updated: ") }) else { throw .layout("no \"Last updated: …\" line") }
        let date = updated.dropFirst("Last updated: ".count)
        let words = date.split(separator: " ")
        guard words.count == 3, let day = HTMLText.day(day: words[0], month: words[1], year: words[2]) else { throw .invalidDay(String(date)) }
        // The day's table is the page's first; the monthly averages', under the same header, follow it.
        guard let table = page.tables.first, let headerRow = table.rowIndex(ofHeader: Self.header) else {
            throw .layout("the page's first table has not the header \(HTMLDocument.shown(Self.header))")
        }
        var quotes: [PublishedQuote] = []
        for row in table.rows[(headerRow + 1)...] {
            let cells = try row.texts(count: 5, day: day)
            guard let name = Self.currency(labelled: cells[0]) else { continue }
            let currency = CurrencyCode(name.code)!
            if Self.isNoFigure(cells[3]) && Self.isNoFigure(cells[4]) { continue }
            for text in cells[3...4] where GroupedDecimal.rateText(text, decimalMark: ".") == nil {
                throw .invalidRate(currency: currency, day: day, text: text)
            }
            guard let value = RateText.midpoint(cells[3], cells[4]) else { throw .invalidRate(currency: currency, day: day, text: cells[3]) }
            quotes.append(PublishedQuote(currency: currency, value: value, unit: name.unit, direction: .pivotPerUnits))
        }
        guard quotes.contains(where: { $0.currency == .usDollar }) else { throw .layout("no US dollar row in the table of \(day)") }
        return [ProviderPublication(day: day, quotes: quotes)]
    }

    /// The code and unit of a row's label: the bank's words (``currencyNames``) or an ISO 4217 code, read without currency symbols, spacing or case
    /// (`USD$`, `USD $` and `usd` are the dollar); `nil` for a label that is neither.
    static func currency(labelled label: String) -> (code: String, unit: Int)? {
        let words = label.filter { !$0.isCurrencySymbol }.split(whereSeparator: \.isWhitespace).joined(separator: " ").uppercased()
        if let name = currencyNames[words] { return name }
        guard let code = CurrencyCode(words), code.name != nil else { return nil }
        return (code.rawValue, 1)
    }

    /// Whether a transfer cell gives no figure: empty, a dash, or zero.
    static func isNoFigure(_ text: String) -> Bool {
        text.isEmpty || text == "-" || (text.first == "0" && text.allSatisfy { $0 == "0" || $0 == "." } && text.filter { $0 == "." }.count <= 1)
    }
}
