import Foundation
import RatesCore

/// Bank Indonesia's transaction rates of the rupiah ("Kurs Transaksi BI"), buying and selling, about 25
/// currencies.
///
/// - Source: the SharePoint page `https://www.bi.go.id/en/statistik/informasi-kurs/transaksi-bi/default.aspx`.
///   Got plainly, it shows the latest rates: `Last Update 2 April 2026` and the table
///   `Currencies | Value | Sell | Buy | Graph`, one row per currency (`AED | 1 | 4,653.45 | 4,605.27 | …`). A
///   range is the page's search, one currency at a time: a fetch first gets the page (``sessionRequest(for:)``)
///   for its form state (every hidden input: `__VIEWSTATE`, `__EVENTVALIDATION`, `__REQUESTDIGEST`, …) and its
///   currency list (the `ddlmatauang1` select), then posts the form back per currency with `txtFrom` and `txtTo`
///   (`01-Mar-2026`) and the `btnSearch1` button, with the page's cookies. That answer names its currency
///   (`CURRENCIES AED`), which must be the one searched for, and holds the table `Value | Sell | Buy | Date`, one
///   row per day (`1.00 | 4,627.79 | 4,580.24 | 5 Mar 2026`). A search with no day in its range (a weekend, the
///   holidays of Idul Fitri) answers the currency's label without the table: no publication, when the page is
///   whole (it ends with `</html>`). A page with neither the label nor the table is rejected.
/// - Quote convention: rupiah for `Value` units of the currency (1, or 100 for JPY), selling and buying only. As for
///   every buy/sell-only source, the figure stored is their exact midpoint (``RatesCore/RateText/midpoint(_:_:)``:
///   `4,653.45` and `4,605.27` give `4629.36`), ``PublishedQuote/Direction/pivotPerUnits``; the thousands
///   separators are dropped, the digits kept. The offshore yuan (`CNH`, outside ISO 4217) is read and searched for
///   as its own currency, beside `CNY`; any other code ISO 4217 does not list rejects the answer.
/// - Schedule: Asia/Jakarta (UTC+7), Monday to Friday, by about 08:00; the latest table is dated by its
///   "Last Update", the search's rows by their own dates.
/// - Ranges: one search per currency for the whole range. Without the page's state (``requests(for:)``, what
///   an import reads files as), one post without a currency stands for them: each answer names its currency. A
///   `GET` is answered with the latest table, a post with a search's.
public struct BIProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The page's URL.
    var pageURL: String { baseURL + "/en/statistik/informasi-kurs/transaksi-bi/default.aspx" }

    static let latestHeader = ["Currencies", "Value", "Sell", "Buy", "Graph"]
    static let searchHeader = ["Value", "Sell", "Buy", "Date"]

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        window == .latest ? nil : ProviderRequest(url: pageURL)
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: pageURL)]) { _, _ in
            [ProviderRequest(url: pageURL, method: .post, headers: FormBody.contentType, body: "")]
        }
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        guard case .range(let first, let last) = window else { return requests(for: window) }
        guard first <= last else { return [] }
        let page = try HTMLDocument(parsing: session.body)
        // The web part's control prefix, from the currency list's name (`ctl00$PlaceHolderMain$g_…$ctl00$ddlmatauang1`).
        let lists = page.startTags("select").compactMap { $0["name"] }.filter { $0.hasSuffix("$ddlmatauang1") }
        guard lists.count == 1 else { throw .layout("the page has \(lists.count) currency lists (ddlmatauang1), expected one") }
        let prefix = String(lists[0].dropLast("ddlmatauang1".count))
        let inputs = page.startTags("input")
        guard let button = inputs.first(where: { $0["name"] == prefix + "btnSearch1" }), let buttonID = button["id"] else {
            throw .layout("the page has no search button (btnSearch1)")
        }
        let state: [(name: String, value: String)] = inputs.compactMap { input in
            guard input["type"]?.lowercased() == "hidden", let name = input["name"], name != prefix + "hidSourceID" else { return nil }
            return (name: name, value: input["value"] ?? "")
        }
        guard state.contains(where: { $0.name == "__VIEWSTATE" && !$0.value.isEmpty }), state.contains(where: { $0.name == "__EVENTVALIDATION" }) else {
            throw .layout("the page has no form state (__VIEWSTATE, __EVENTVALIDATION)")
        }
        var currencies: [String] = []
        var inList = false
        for token in page.tokens {
            switch token {
            case .start(let tag) where tag.name == "select": inList = tag["name"] == lists[0]
            case .end("select"): inList = false
            case .start(let tag) where inList && tag.name == "option":
                if let value = tag["value"], !value.trimmingCharacters(in: .whitespaces).isEmpty { currencies.append(value) }
            default: break
            }
        }
        guard !currencies.isEmpty else { throw .layout("the currency list has no options") }
        return currencies.map { currency in
            var request = ProviderRequest.formPost(url: pageURL, cookie: session.cookieHeader, fields: state + [
                (prefix + "ddlmatauang1", currency),
                (prefix + "txtFrom", first.text(.dayMonthNameYear(separator: "-"))),
                (prefix + "txtTo", last.text(.dayMonthNameYear(separator: "-"))),
                (prefix + "txtTanggal", ""),
                (prefix + "btnSearch1", "Search"),
                (prefix + "hidSourceID", buttonID),
            ])
            request.headers["Referer"] = pageURL
            request.subject = currency.trimmingCharacters(in: .whitespaces)
            return request
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let page = try HTMLDocument(parsing: body)
        return request.method == .post ? try search(page, asked: request.subject) : try latest(page)
    }

    /// The latest table, dated by its "Last Update".
    func latest(_ page: HTMLDocument) throws(UpstreamDataError) -> [ProviderPublication] {
        let (_, rows) = try page.table(withHeader: Self.latestHeader)
        // `Last Update&nbsp;<span>2 April 2026</span>`: the text, then the day in a span of its own.
        let updates = page.tokens.indices.dropLast(3).compactMap { index -> String? in
            guard case .text(let label) = page.tokens[index], HTMLText.collapsed(label) == "Last Update",
                case .start(let tag) = page.tokens[index + 1], tag.name == "span",
                case .text(let date) = page.tokens[index + 2], page.tokens[index + 3] == .end("span")
            else { return nil }
            return HTMLText.collapsed(date)
        }
        guard updates.count == 1, let update = updates.first else {
            throw .layout("\(updates.count) \"Last Update\" dates on the page, expected one")
        }
        let parts = update.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, let day = HTMLText.day(day: parts[0], month: parts[1], year: parts[2]) else { throw .invalidDay(update) }
        let quotes = try rows.map { row throws(UpstreamDataError) in
            let cells = try row.texts(count: Self.latestHeader.count)
            guard let code = CurrencyCode(cells[0]), code.name != nil else { throw .invalidCurrencyCode(cells[0], day: day) }
            return try quote(code, unit: cells[1], selling: cells[2], buying: cells[3], day: day)
        }
        return [ProviderPublication(day: day, quotes: quotes)]
    }

    /// The search's table of one currency, a row per day; `asked`: the currency searched for, when known.
    func search(_ page: HTMLDocument, asked: String?) throws(UpstreamDataError) -> [ProviderPublication] {
        let names = page.texts(of: "span").filter { $0.hasPrefix("CURRENCIES ") }
        guard names.count == 1 else { throw .layout("\(names.count) \"CURRENCIES\" labels on the page, expected one") }
        let codeText = String(names[0].dropFirst("CURRENCIES ".count))
        if let asked, asked != codeText {
            throw .layout("the search for \(asked) answers the table of \(UpstreamDataError.quoted(codeText))")
        }
        // No day in the range: the label without the table, on a whole page (one cut short may have lost it).
        if page.tables(withHeader: Self.searchHeader).isEmpty {
            guard page.tokens.last(where: { if case .text = $0 { return false } else { return true } }) == .end("html") else {
                throw .layout("the search's answer has no table Value | Sell | Buy | Date and ends before </html>")
            }
            return []
        }
        let (_, rows) = try page.table(withHeader: Self.searchHeader)
        return try rows.map { row throws(UpstreamDataError) in
            let cells = try row.texts(count: Self.searchHeader.count)
            let dayParts = cells[3].split(separator: " ", omittingEmptySubsequences: false)
            guard dayParts.count == 3, let day = HTMLText.day(day: dayParts[0], month: dayParts[1], year: dayParts[2]) else { throw .invalidDay(cells[3]) }
            guard let code = CurrencyCode(codeText), code.name != nil else { throw .invalidCurrencyCode(codeText, day: day) }
            let unit = cells[0].hasSuffix(".00") ? String(cells[0].dropLast(3)) : cells[0]
            return ProviderPublication(day: day, quotes: [try quote(code, unit: unit, selling: cells[1], buying: cells[2], day: day)])
        }
    }

    /// The exact midpoint of a row's selling and buying rates, per `unit` units.
    func quote(_ code: CurrencyCode, unit unitText: String, selling: String, buying: String, day: Day) throws(UpstreamDataError) -> PublishedQuote {
        let unit = try PublishedText.unit(unitText, of: code, day: day)
        guard let sell = GroupedDecimal.rateText(selling, decimalMark: ".", groupMark: ",") else { throw .invalidRate(currency: code, day: day, text: selling) }
        guard let buy = GroupedDecimal.rateText(buying, decimalMark: ".", groupMark: ","), let middle = RateText.midpoint(buy, sell) else {
            throw .invalidRate(currency: code, day: day, text: buying)
        }
        return PublishedQuote(currency: code, value: middle, unit: unit, direction: .pivotPerUnits)
    }
}
