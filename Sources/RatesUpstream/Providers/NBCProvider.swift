import RatesCore

/// The National Bank of Cambodia's official exchange rate of the riel (KHR) against the US dollar, and its rates of 27 other currencies.
///
/// - Source: `https://www.nbc.gov.kh/english/economic_research/exchange_rate.php`, an HTML page in UTF-8. A `GET` answers the newest table; the table
///   of a day `D` is a `POST` of the page's form, `exdate=YYYY-MM-DD&tk=…&view=View`, where `tk` is the hidden token of a page just fetched (the
///   session request, ``sessionRequest(for:)``; its cookies go along). The page holds a small form table whose cells read
///   `Exchange Rate on : 2026-05-18` and `Official Exchange Rate : 4014 KHR / USD`, then the rates table (`class="tbl-responsive"`) whose first row
///   is `Currency | Symbol | Unit | Bid | Ask | Average`, one row per currency: `Australian Dollar | AUD/KHR | 1 | 2874 | 2903 | 2888.50`.
/// - Quote convention: riels for `Unit` units of the currency (2545.50 KHR per 100 JPY): ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. The
///   figure is the bank's `Average` as published; bid and ask are not read. The dollar, which the table does not list, is the official exchange rate
///   of the form table (riels per dollar, unit 1). A symbol no currency has is skipped; the offshore yuan (`CNH`) is read as its own currency, beside
///   the onshore `CNY`; the SDR, written `SDR`, is stored as ISO 4217's `XDR`.
/// - Schedule: Asia/Phnom_Penh, Monday to Friday, usually by 16:00; a table is dated the day it is for, published on the working day before it
///   (Friday's page is dated Monday).
/// - Ranges: one `POST` per weekday of the range, all with the token of one session request. The bank gives a new token with every page it serves
///   (each answer's form carries its own `tk`), as if each were good for one post; a day it answers with its newest table instead is read under that
///   table's own date, so such a day is missing from the range, never misdated. The newest publication is the page without a form post, no session
///   needed.
public struct NBCProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let header = ["Currency", "Symbol", "Unit", "Bid", "Ask", "Average"]

    private var pageURL: String { "\(baseURL)/english/economic_research/exchange_rate.php" }

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        window == .latest ? nil : ProviderRequest(url: pageURL)
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        posts(for: window, token: "", cookie: nil)
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        guard window != .latest else { return requests(for: window) }
        let page = try HTMLDocument(parsing: session.body)
        guard let token = page.startTags("input").first(where: { $0["name"] == "tk" })?["value"], !token.isEmpty else {
            throw .layout("the page has no form token (an <input name=\"tk\">)")
        }
        return posts(for: window, token: token, cookie: session.cookieHeader)
    }

    /// The page for `.latest`; for a range, one form post per weekday with `token` and `cookie`.
    private func posts(for window: FetchWindow, token: String, cookie: String?) -> [ProviderRequest] {
        guard case .range(let first, let last) = window else { return [ProviderRequest(url: pageURL)] }
        var headers = ["Content-Type": "application/x-www-form-urlencoded", "Referer": pageURL]
        headers["Cookie"] = cookie
        return Day.days(from: first, through: last, on: PublicationSchedule.workingDays).map { day in
            ProviderRequest(url: pageURL, method: .post, headers: headers, body: "exdate=\(day.text(.iso))&tk=\(FormBody.encode(token))&view=View")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let page = try HTMLDocument(parsing: body)
        let formCells = page.tables.flatMap { $0.rows.flatMap(\.texts) }
        let dated = formCells.filter { $0.hasPrefix("Exchange Rate on : ") }
        guard dated.count == 1 else { throw .layout("\(dated.count) cells \"Exchange Rate on : …\", expected one") }
        let day = try Day(parsing: dated[0].dropFirst("Exchange Rate on : ".count), .iso)
        let official = formCells.filter { $0.hasPrefix("Official Exchange Rate : ") }
        guard official.count == 1, official[0].hasSuffix(" KHR / USD") else {
            throw .layout("no single cell \"Official Exchange Rate : … KHR / USD\" on \(day)")
        }
        let dollarText = String(official[0].dropFirst("Official Exchange Rate : ".count).dropLast(" KHR / USD".count))
        let dollarValue = try GroupedDecimal.rate(dollarText, of: .usDollar, day: day, decimalMark: ".", groupMark: ",")
        var quotes = [PublishedQuote(currency: .usDollar, value: dollarValue, unit: 1, direction: .pivotPerUnits)]
        let (table, rows) = try page.table(withHeader: Self.header)
        guard table.tag.hasClass("tbl-responsive") else { throw .layout("the rates table is not class=\"tbl-responsive\"") }
        for row in rows {
            let cells = row.texts
            guard cells.count == 6, cells[1].hasSuffix("/KHR") else {
                throw .layout("a row that is not a currency's against KHR on \(day): \(HTMLDocument.shown(cells))")
            }
            let symbol = String(cells[1].dropLast("/KHR".count))
            let currency = try PublishedText.currency(symbol == "SDR" ? "XDR" : symbol, day: day)
            guard currency.name != nil else { continue }
            let unit = try PublishedText.unit(cells[2], of: currency, day: day)
            let value = try GroupedDecimal.rate(cells[5], of: currency, day: day, decimalMark: ".", groupMark: ",")
            quotes.append(PublishedQuote(currency: currency, value: value, unit: unit, direction: .pivotPerUnits))
        }
        // A table is out the working day before its date: a Friday's is dated Monday.
        return [ProviderPublication(day: day, quotes: quotes)]
    }
}
