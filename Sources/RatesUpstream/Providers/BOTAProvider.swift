import RatesCore

/// The Bank of Tanzania's indicative exchange rates of the shilling (about 42 currencies).
///
/// - Source: the "previous rates" page, `https://www.bot.go.tz/ExchangeRate/previous_rates`, an ASP.NET MVC
///   form protected against forgery: a fetch first gets the page (``sessionRequest(for:)``) for its hidden
///   `__RequestVerificationToken` and the cookie that goes with it, then posts
///   `__RequestVerificationToken=…&dateFrom=05%2F13%2F2026&dateTo=05%2F19%2F2026` (MM/DD/YYYY) with that cookie.
///   A page without the token fails the fetch: the post would be refused.
///   The answer is the same page with the table `S/N | Currency | Buy | Sell | Mean | Date` filled, one row per
///   currency and day: `<td>1</td><td>USD</td><td>2,589.0,500</td><td>2,615.0,600</td><td>2,602.0,545</td><td>19-May-26</td>`.
///   For a range without figures, the table is there with its header and no row (as on the page before any post): no publication.
/// - Quote convention: `Mean` shillings per 1 unit of the currency, ``PublishedQuote/Direction/pivotPerUnits``:
///   the bank's own mean of its buying and selling rates (it is not always their exact midpoint: 2,602.0,545
///   for 2,589.0,500 and 2,615.0,600), read as published. The bank groups the digits with commas on both
///   sides of the point (`2,589.0,500` is 2589.0500); the commas are dropped, the digits kept (the whole part
///   must be grouped in threes). The day is `DD-Mon-YY` (years 90–99 are the 1990s, the others 2000s).
///   Skipped: `GOLD` (not a currency), `RUR` (the rouble's code before 1998, listed beside `RUB` with the same
///   figures) and `ATS`, `NLG`, `MZM`, `ZWD`, `CUC`, withdrawn currencies the table may still list. Any other
///   code that is not a current or withdrawn ISO 4217 code rejects the answer.
/// - Schedule: Africa/Dar_es_Salaam (UTC+3), every day, by about 11:00; a figure is dated the day it applies to.
/// - Ranges: one post for the whole range (`dateFrom`, `dateTo` both included); the newest publication is asked
///   for as the last seven days up to today.
public struct BOTAProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The page's URL.
    var pageURL: String { baseURL + "/ExchangeRate/previous_rates" }

    /// Rows that are not a currency's figure: gold, the old rouble code, withdrawn currencies.
    static let skipped: Set<String> = ["GOLD", "RUR", "ATS", "NLG", "MZM", "ZWD", "CUC"]
    /// The table's header row.
    static let header = ["S/N", "Currency", "Buy", "Sell", "Mean", "Date"]
    static let tokenField = "__RequestVerificationToken"

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        ProviderRequest(url: pageURL)
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        post(window, token: "", cookie: nil)
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        let page = try HTMLDocument(parsing: session.body)
        let tokens = page.startTags("input").filter { $0["name"] == Self.tokenField }
        guard tokens.count == 1, let token = tokens[0]["value"], !token.isEmpty else {
            throw .layout("the page has no \(Self.tokenField) to post the form with")
        }
        return post(window, token: token, cookie: session.cookieHeader)
    }

    /// The form post of `window`'s days.
    func post(_ window: FetchWindow, token: String, cookie: String?) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today()) else { return [] }
        return [.formPost(url: pageURL, cookie: cookie, fields: [
            (Self.tokenField, token), ("dateFrom", first.text(.monthDayYear(separator: "/"))), ("dateTo", last.text(.monthDayYear(separator: "/"))),
        ])]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let (_, rows) = try HTMLDocument(parsing: body).table(withHeader: Self.header)
        var days: [Day: [PublishedQuote]] = [:]
        for row in rows {
            let cells = try row.texts(count: Self.header.count)
            let day = try Self.day(cells[5])
            if Self.skipped.contains(cells[1]) { continue }
            guard let code = CurrencyCode(cells[1]), code.name != nil else { throw .invalidCurrencyCode(cells[1], day: day) }
            guard code != pivot else { continue }
            guard let value = Self.figure(cells[4]) else { throw .invalidRate(currency: code, day: day, text: cells[4]) }
            days[day, default: []].append(PublishedQuote(currency: code, value: value, unit: 1, direction: .pivotPerUnits))
        }
        // The table's header without rows: no figures for the range.
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }

    /// The decimal text of a figure as the bank groups it, commas on both sides of the point (`2,589.0,500`:
    /// `2589.0500`, `0.7,050`: `0.7050`): the whole part in groups of three after the first, the fraction's
    /// digits with single commas between them; `nil` for anything else or a figure that is not positive.
    static func figure(_ text: String) -> String? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let groups = parts[0].split(separator: ",", omittingEmptySubsequences: false)
        let fraction = parts[1].split(separator: ",", omittingEmptySubsequences: false)
        guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }), fraction.allSatisfy({ !$0.isEmpty }) else {
            return nil
        }
        let value = groups.joined() + "." + fraction.joined()
        return RateText.isValid(value) ? value : nil
    }

    /// The day of `19-May-26`.
    static func day(_ text: String) throws(UpstreamDataError) -> Day {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].count == 2, PublishedText.isDigits(parts[2]), let year = Int(parts[2]),
            let day = Day("\(parts[0])-\(parts[1])-\(year >= 90 ? 1900 + year : 2000 + year)", .dayMonthNameYear(separator: "-"))
        else { throw .invalidDay(text) }
        return day
    }
}
