import RatesCore

/// The Bangko Sentral ng Pilipinas' reference exchange rate bulletin: about 30 currencies in pesos.
///
/// - Source: the bank's SharePoint list of bulletins,
///   `https://www.bsp.gov.ph/_api/web/lists/getByTitle('RERB')/items?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100`,
///   answers JSON (`{"d":{"results":[{"Title":"28May2026","AttachmentFiles":{"results":[{"FileName":"28May2026.pdf",
///   "ServerRelativeUrl":"/Lists/RERB/Attachments/2281/28May2026.pdf"}]}}, …]}}`), one item per day, newest first; each names the day's PDF
///   (Flate-compressed, WinAnsi fonts). The bulletin, `REFERENCE EXCHANGE RATE BULLETIN`, is dated below its title (`28 May 2026`); its table is
///   headed `EURO | U.S.DOLLAR | PHIL.PESO` (each `EQUIVALENT`) after `COUNTRY | UNIT | SYMBOL`, one numbered row per currency:
///   `1 | UNITED STATES | DOLLAR | USD | 0.859771 | 1.000000 | 61.5820`; `N/A` in the three columns where a currency has no rate that day (Kuwait's
///   dinar on 28 May 2026). Below the table: the bank's buying, selling and reference rates of the dollar, the PDS closing rate
///   (`PDS Closing Rate (26-May-2026): PHP 61.560`), gold, silver and the SDR, then notes.
/// - Quote convention: the `PHIL.PESO` column, pesos per 1 unit of the currency, as published (`61.5820` per USD, `0.3862` per JPY):
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. They are Reuters' New York closing rates of the day before
///   (`Source: REUTERS' FOREX CLOSING PRICES as of NY Time - 27-May-2026`; the yuan's the Asian closing), in pesos; the `EURO` and `U.S.DOLLAR`
///   columns and the rates below the table are not read. The `SYMBOL` column names each currency (an ISO 4217 code); a row whose symbol is no
///   currency rejects the bulletin, a row of `N/A` is skipped.
/// - Schedule: Asia/Manila, Monday to Friday, by about 09:00 (the bulletin of 28 May 2026 was run at 08:36); a publication bears the bulletin's date.
/// - Ranges: the list's bulletins of the range's days (its newest 100), one request each; the newest publication is the newest bulletin listed.
///   Without the list (`rates-relay import` of a bulletin), the request is the bulletin listed last when the adapter was written (``lastKnownPath``):
///   the bulletin's text dates it.
public struct BSPProvider: IndexPageProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The list of bulletins, newest first, with their attachments.
    static let indexPath = "/_api/web/lists/getByTitle('RERB')/items?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100"
    /// The bulletin of 1 June 2026, as the list named it on that day.
    static let lastKnownPath = "/Lists/RERB/Attachments/2283/01Jun2026.pdf"

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        ProviderRequest(url: baseURL + Self.indexPath, headers: ["Accept": "application/json;odata=verbose"])
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        let items = try ProviderJSON(answer: session.body).field("d", of: "the list").field("results", of: "the list's d").array("the list's results")
        var bulletins: [Day: String] = [:]
        for item in items {
            let title = try item.field("Title", of: "an item").string("an item's Title")
            let attachments = try item.field("AttachmentFiles", of: "item \(title)").field("results", of: "item \(title)'s AttachmentFiles")
                .array("item \(title)'s attachments")
            // `28May2026`: the bulletin of 28 May 2026.
            guard let day = Self.day(title) else { throw .layout("the list's item \(UpstreamDataError.quoted(title)) is not dated DDMonYYYY") }
            for attachment in attachments {
                let path = try attachment.field("ServerRelativeUrl", of: "item \(title)'s attachment")
                    .string("item \(title)'s attachment's ServerRelativeUrl")
                guard path.lowercased().hasSuffix(".pdf") else { continue }
                guard bulletins[day] == nil, let url = HTMLLinks.url(path, site: identity.baseURL, base: baseURL) else {
                    throw .layout("the list names two bulletins for \(day), or one at a relative address")
                }
                bulletins[day] = url
            }
        }
        guard !bulletins.isEmpty else { throw .layout("the list names no bulletin") }
        return DailyBulletin.requests(for: window, bulletins: bulletins)
    }

    /// The day of a title written `28May2026` (or `1Jun2026`); `nil` for another title.
    static func day(_ title: String) -> Day? {
        let digits = title.prefix { $0.isASCII && $0.isNumber }
        let month = title.dropFirst(digits.count).prefix { $0.isASCII && $0.isLetter }
        let year = title.dropFirst(digits.count + month.count)
        guard (1...2).contains(digits.count), year.count == 4, PublishedText.isDigits(year),
            let number = DailyBulletin.englishMonths[month.lowercased()]
        else { return nil }
        return Day(year: Int(year)!, month: number, day: Int(digits)!)
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let rows = try DailyBulletin.rows(body)
        let day = try DailyBulletin.day(after: "RATE BULLETIN", in: rows.map(\.text).joined(separator: " "), months: DailyBulletin.englishMonths)
        guard let header = rows.firstIndex(where: { $0.cells.contains("PHIL.PESO") }) else { throw .layout("no table with a PHIL.PESO column") }
        guard rows[header].cells.suffix(3) == ["EURO", "U.S.DOLLAR", "PHIL.PESO"] else {
            let heading = UpstreamDataError.quoted(rows[header].cells.joined(separator: " | "))
            throw .layout("the table is headed \(heading), not EURO | U.S.DOLLAR | PHIL.PESO")
        }
        var quotes: [PublishedQuote] = []
        var numbered = 0
        for row in rows[(header + 1)...] {
            let cells = row.cells.filter { !$0.isEmpty }
            // A currency's row starts with its number: `1 | UNITED STATES | DOLLAR | USD | 0.859771 | 1.000000 | 61.5820`.
            guard let first = cells.first, (1...3).contains(first.count), PublishedText.isDigits(first) else { continue }
            numbered += 1
            guard cells.count >= 6 else { throw .layout("row \(first) has \(cells.count) cells, not a country, unit, symbol and three figures") }
            let symbol = cells[cells.count - 4]
            guard let currency = CurrencyCode(symbol), currency.name != nil else {
                throw .layout("row \(first)'s symbol \(UpstreamDataError.quoted(symbol)) is not a currency code")
            }
            if cells.suffix(3).allSatisfy({ $0 == "N/A" }) { continue }  // no rate that day
            let value = try GroupedDecimal.rate(cells[cells.count - 1], of: currency, day: day, decimalMark: ".", groupMark: ",")
            quotes.append(PublishedQuote(currency: currency, value: value, direction: .pivotPerUnits))
        }
        guard numbered > 0 else { throw .layout("the table has no numbered row") }
        return [ProviderPublication(day: day, quotes: quotes)]
    }
}
