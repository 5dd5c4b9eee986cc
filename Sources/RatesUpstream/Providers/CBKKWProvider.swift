import RatesCore

/// The Central Bank of Kuwait's exchange rates of the dinar: about 100 currencies, in fils.
///
/// - Source: the bank's lookup, one currency per request. A fetch first gets the form,
///   `https://www.cbk.gov.kw/en/monetary-policy/market-operations/exchange-rates/usd` (``sessionRequest(for:)``), for
///   its hidden `formId` and the currencies it offers (options of `selCurrency` valued `CODE:ID`: `USD:128735`), then
///   posts, for each currency, `formId=127906&selCurrency=USD%3A128735&txtDateFrom=05%2F09%2F2026&txtDateTo=08%2F09%2F2026`
///   (days as DD/MM/YYYY) to `…/exchange-rates/get-exchange-rates`, with the form's cookies. The answer is a fragment
///   of a page holding one table, headed `Date | KWD / USD`, one row per day: `08.09.2026 | 306.650`. A currency the
///   bank no longer quotes (VEF) answers the table without rows, as a span without rates (a Friday–Saturday) is
///   taken to: no publication. An answer whose table is of another currency than the one asked for is rejected.
/// - Quote convention: the figure is in fils (1 dinar = 1000 fils) for 1 unit of the currency: 306.650 fils per US
///   dollar is 0.30665 dinars per dollar, that is 306.650 dinars per 1000 dollars. So the figure is kept as published,
///   digit for digit (three decimals for most, `1.9980` for JPY, `221.20` for AUD), as dinars for 1000 units of the
///   currency: ``RatesCore/PublishedQuote/Direction/pivotPerUnits``, unit 1000; nothing is computed. Skipped, and not
///   asked for: `ECS` and `VEF`, codes ISO 4217 has withdrawn, whose figures the bank derives from their successors
///   (0.012 fils per "ECS" is the dollar's figure at 25,000 sucres to the dollar), the dinar itself, and any option
///   whose code is not ISO 4217's.
/// - Schedule: Asia/Kuwait, Sunday to Thursday; a figure is dated the day it applies to. The bank states no time.
/// - Ranges: one post per currency the form offers, for the whole range (`txtDateFrom` and `txtDateTo` both included;
///   the form states no limit, and its page gives 2008-01-02 as the first day it answers); the newest publication is
///   asked for as the last seven days up to today. Without the form (``requests(for:)``, what `rates-relay import`
///   reads files as), one post names no currency, and an answer is read as the currency its table names.
public struct CBKKWProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The lookup's folder, `…/monetary-policy/market-operations/exchange-rates`.
    var folderURL: String { baseURL + "/en/monetary-policy/market-operations/exchange-rates" }
    /// Where the form is posted.
    var postURL: String { folderURL + "/get-exchange-rates" }

    /// Fils per unit are dinars per this many units.
    static let unit = 1000
    /// Codes the form offers that are skipped and not asked for, as the doc comment says why.
    static let skipped: Set<String> = ["ECS", "VEF"]

    /// One currency the form offers: its code and the option's value (`USD:128735`).
    struct Option: Equatable {
        var code: String
        var value: String
    }

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        ProviderRequest(url: folderURL + "/usd")
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today()) else { return [] }
        return [post(formID: "", option: "", first: first, last: last, cookie: nil)]
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        let form = try HTMLDocument(parsing: session.body)
        let ids = form.startTags("input").filter { $0["name"] == "formId" }.compactMap { $0["value"] }
        guard ids.count == 1, let formID = ids.first, !formID.isEmpty else { throw .layout("the form has no single formId to post") }
        let options = try Self.options(in: form).filter { option in
            guard let code = CurrencyCode(option.code), code.name != nil else { return false }
            return code != pivot && !Self.skipped.contains(option.code)
        }
        guard !options.isEmpty else { throw .layout("the form offers no currency to ask for") }
        let cookie = session.cookieHeader
        return window.requests(each: options, named: \.code, latestDays: 7, today: today()) { option, first, last in
            post(formID: formID, option: option.value, first: first, last: last, cookie: cookie)
        }
    }

    /// The currencies the form's `selCurrency` offers, in its order (the empty `Select` option left out).
    static func options(in form: HTMLDocument) throws(UpstreamDataError) -> [Option] {
        var options: [Option] = []
        var inSelect = false
        for token in form.tokens {
            switch token {
            case .start(let tag) where tag.name == "select":
                inSelect = tag["name"] == "selCurrency"
            case .end("select"):
                inSelect = false
            case .start(let tag) where inSelect && tag.name == "option":
                let value = tag["value"] ?? ""
                if value.isEmpty { continue }
                let parts = value.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, CurrencyCode(parts[0]) != nil, !parts[1].isEmpty, PublishedText.isDigits(parts[1]) else {
                    throw .layout("the form offers \(UpstreamDataError.quoted(value)), not a currency as CODE:ID")
                }
                options.append(Option(code: String(parts[0]), value: value))
            default:
                break
            }
        }
        return options
    }

    /// The post of one currency's option (`USD:128735`) for `first` through `last`.
    func post(formID: String, option: String, first: Day, last: Day, cookie: String?) -> ProviderRequest {
        .formPost(url: postURL, cookie: cookie, fields: [
            ("formId", formID), ("selCurrency", option),
            ("txtDateFrom", first.text(.dayMonthYear(separator: "/"))), ("txtDateTo", last.text(.dayMonthYear(separator: "/"))),
        ])
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let tables = try HTMLDocument(parsing: body).tables.filter { table in
            guard let header = table.rows.first?.texts, header.count == 2, header[0] == "Date" else { return false }
            return header[1].hasPrefix("KWD / ")
        }
        guard tables.count == 1, let table = tables.first, let header = table.rows.first?.texts else {
            throw .layout("\(tables.count) tables headed Date | KWD / XXX, expected one")
        }
        let codeText = String(header[1].dropFirst("KWD / ".count))
        if let asked = request.subject, asked != codeText {
            throw .layout("the table is of \(UpstreamDataError.quoted(codeText)), the answer for \(asked) was asked for")
        }
        // The table without rows: no rates in the span, or a currency the bank no longer quotes.
        return try table.rows.dropFirst().map { row throws(UpstreamDataError) -> ProviderPublication? in
            let cells = try row.texts(count: 2)
            let day = try Day(parsing: cells[0], .dayMonthYear(separator: "."))
            if Self.skipped.contains(codeText) { return nil }
            guard let code = CurrencyCode(codeText), code.name != nil, code != pivot else { throw .invalidCurrencyCode(codeText, day: day) }
            let figure = try PublishedQuote.reading(cells[1], of: code, unit: Self.unit, direction: .pivotPerUnits, day: day)
            return ProviderPublication(day: day, quotes: [figure])
        }.compactMap { $0 }
    }
}
