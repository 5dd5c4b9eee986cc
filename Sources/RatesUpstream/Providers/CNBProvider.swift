import RatesCore

/// The Czech National Bank's daily exchange rate fixing: about 30 currencies in CZK.
///
/// - Endpoints:
///   - latest: `GET https://www.cnb.cz/cs/financni-trhy/devizovy-trh/kurzy-devizoveho-trhu/kurzy-devizoveho-trhu/denni_kurz.txt`,
///     the classic pipe-separated text: a first line `21.04.2000 #80` (day and running number), a header
///     `země|měna|množství|kód|kurz`, rows such as `Japonsko|jen|100|JPY|36,850` (comma decimals). Files from
///     before 2002 carry a second block of the euro's legacy currencies with the header
///     `země|denominace|množství|kód|poměr`; its figures are CZK per amount too and are read the same way.
///     The English `daily.txt` of the same fixing (`…/en/financial-markets/…/daily.txt`) is read alike: a first
///     line `13 Feb 2026 #31` (or with the day as `13.02.2026`), the header `Country|Currency|Amount|Code|Rate`,
///     rows such as `USA|dollar|1|USD|22.345` (decimal points).
///   - ranges: `GET https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=YYYY`, one request per calendar
///     year touched by the range; each answer holds the whole year published so far
///     (`{"rates":[{"currencyCode":"JPY","amount":100,"validFor":"2026-01-02","rate":13.141},…]}`), none for
///     a year before its first fixing (`"rates":[]`, no publication).
///     The rates are JSON numbers: they are read from their text in the body, so `24.170` stays `24.170`.
/// - Quote convention: CZK per `amount` units of the currency (1, 100 or 1000: JPY, HUF, INR per 100, IDR per 1000),
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``.
/// - History: the fixing goes back to 1991-01-01 (``historyStart``), in both the text and the yearly JSON.
/// - Schedule: Europe/Prague, Monday to Friday, published after 14:30 local time.
public struct CNBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The text file of the newest fixing, in the table's folder.
    var textURL: String { baseURL + "/denni_kurz.txt" }
    /// The JSON API root: on its own host, or under a replaced base (one root for both files).
    var apiURL: String { source.base(otherwise: "https://api.cnb.cz") + "/cnbapi" }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: textURL)]) { first, last in
            (first.parts.year...last.parts.year).map { year in
                ProviderRequest(url: "\(apiURL)/exrates/daily-year?lang=EN&year=\(year)", headers: ["Accept": "application/json"])
            }
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        request.url.contains("/exrates/daily-year") ? try parseYear(body) : [try parseText(body)]
    }

    // MARK: - denni_kurz.txt

    /// The header of the Czech file and of the English one.
    static let headers = [["země", "měna", "množství", "kód", "kurz"], ["Country", "Currency", "Amount", "Code", "Rate"]]
    static let legacyHeader = ["země", "denominace", "množství", "kód", "poměr"]

    func parseText(_ body: [UInt8]) throws(UpstreamDataError) -> ProviderPublication {
        let lines = try DelimitedText.lines(body)
        guard let first = lines.first, !DelimitedText.isBlank(first) else { throw .empty }
        // `21.04.2000 #80` (Czech), `13 Feb 2026 #31` (English)
        let title = first.split(separator: " #", omittingEmptySubsequences: false)
        guard title.count == 2, !title[1].isEmpty, title[1].allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .layout("the first line is not \"DD.MM.YYYY #N\" or \"DD Mon YYYY #N\": \(DelimitedText.shown(first))")
        }
        let dayText = String(title[0])
        guard let day = Day(dayText, .dayMonthYear(separator: ".")) ?? Day(dayText, .dayMonthNameYear(separator: " ")) else {
            throw .invalidDay(dayText)
        }
        guard lines.count > 1, Self.headers.contains(try DelimitedText.fields(lines[1], separator: "|")) else {
            throw .layout("the second line is not the header země|měna|množství|kód|kurz or Country|Currency|Amount|Code|Rate")
        }
        var quotes: [PublishedQuote] = []
        var expectHeader = false
        for line in lines.dropFirst(2) {
            if DelimitedText.isBlank(line) {
                expectHeader = true
                continue
            }
            let fields = try DelimitedText.fields(line, separator: "|")
            if expectHeader {
                guard fields == Self.legacyHeader else {
                    throw .layout("after a blank line, \(DelimitedText.shown(line)) is not the legacy-currency header")
                }
                expectHeader = false
                continue
            }
            guard fields.count == 5 else {
                throw .layout("\(fields.count) fields instead of 5 in \(DelimitedText.shown(line))")
            }
            quotes.append(try quote(code: fields[3], amount: fields[2], rate: fields[4], day: day))
        }
        guard !quotes.isEmpty else { throw .emptyDay(day) }
        return ProviderPublication(day: day, quotes: quotes.filter { $0.currency != pivot })
    }

    func quote(code text: String, amount: String, rate: String, day: Day) throws(UpstreamDataError) -> PublishedQuote {
        guard let code = CurrencyCode(text) else { throw .invalidCurrencyCode(text, day: day) }
        guard let unit = Int(amount), unit > 0, amount.allSatisfy(\.isASCII), ProviderValidation.isPowerOfTen(unit) else {
            throw .layout("the amount \(DelimitedText.shown(amount)) of \(code) on \(day) is not 1, 10, 100, …")
        }
        return try PublishedQuote.reading(rate, of: code, unit: unit, direction: .pivotPerUnits, day: day)
    }

    // MARK: - daily-year JSON

    func parseYear(_ body: [UInt8]) throws(UpstreamDataError) -> [ProviderPublication] {
        guard let items = try ProviderJSON(answer: body)["rates"]?.elements else {
            throw .layout("no \"rates\" array at the top level")
        }
        var quotesByDay: [Day: [PublishedQuote]] = [:]
        for item in items {
            guard let dayText = item["validFor"]?.stringValue, let code = item["currencyCode"]?.stringValue,
                let amount = item["amount"]?.numberText, let rate = item["rate"]?.numberText
            else {
                throw .layout("a rate without the text validFor and currencyCode and the numbers amount and rate")
            }
            let day = try Day(parsing: dayText, .iso)
            let quote = try quote(code: code, amount: amount, rate: rate, day: day)
            if quote.currency != pivot { quotesByDay[day, default: []].append(quote) }
        }
        return quotesByDay.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
