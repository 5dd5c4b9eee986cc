import RatesCore

/// The Banque Centrale du Congo's average (middle) rates of the Congolese franc: about 20 currencies.
///
/// - Source: the rates page `https://www.bcc.cd/marche-des-changes/cours-de-change`, asked for as its
///   React Server Components payload (request header `Rsc: 1`, answered as `text/x-component`). The
///   payload is lines `ID:VALUE`; a value that is a JSON array or object holds the page's data, among it
///   object members `"history"` (the table's, `content.history`, and the chart's, `chart.history`): per
///   currency code, the recent days' rates,
///   `{"USD":[{"date":"2026-09-01","buy":2212.52,"average":2263.57,"sell":2314.62,"unit":1},…],…}`.
///   Every `"history"` object in the payload is read, and their days are joined: two that give one
///   currency of one day different figures reject the answer. Other lines (module references `I[…]`,
///   text chunks `T…`) are not read. For any day, `…/cours-de-change/YYYY-MM-DD` answers an HTML page listing
///   that day's averages of the main currencies in one list `<dl>` of `<dt>USD (cours moyen)</dt><dd>2264</dd>`;
///   the page does not name its day, which is the request's (``ProviderRequest/subject``).
/// - Quote convention: `average` francs for `unit` units of the currency,
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits`` (2264 CDF per USD; `unit` must be a power of
///   ten). The buying and selling rates are not read. A page's figures are per 1 unit, as the payload's
///   are for the same currencies (the page's averages equal the payload's). `null` is no figure; a
///   figure that is not a positive decimal, a code that is not three capital letters, a day that does
///   not exist, or one currency of one day given two figures rejects the answer.
/// - Schedule: Africa/Kinshasa, Monday to Friday; the day's rates are on the page by about 12:00.
/// - Ranges: the payload holds the last days only, so a range asks for the payload and for the page of
///   each weekday in it; a fetch keeps the range's days.
public struct BCCCDProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let payload = ProviderRequest(url: baseURL, headers: ["Rsc": "1"])
        return window.requests(latest: [payload]) { first, last in
            [payload] + Day.days(from: first, through: last, on: schedule.weekdays).map { day in
                ProviderRequest(url: "\(baseURL)/\(day.text(.iso))", subject: day.text(.iso))
            }
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        guard let subject = request.subject else { return try payload(body) }
        guard let day = Day(subject, .iso) else { throw .layout("the request names no day: \(subject)") }
        return [ProviderPublication(day: day, quotes: try dayPage(body, day: day))]
    }

    /// The averages of one day's page.
    private func dayPage(_ body: [UInt8], day: Day) throws(UpstreamDataError) -> [PublishedQuote] {
        let page = try HTMLDocument(parsing: body)
        // A page cut short would still hold a shorter list: the list must end.
        guard page.tokens.contains(.end("dl")) else { throw .layout("no complete list <dl> of rates") }
        let terms = page.texts(of: "dt")
        let figures = page.texts(of: "dd")
        guard !terms.isEmpty, terms.count == figures.count else {
            throw .layout("\(terms.count) terms <dt> and \(figures.count) figures <dd>: not a list of rates")
        }
        return try zip(terms, figures).map { term, figure throws(UpstreamDataError) in
            let suffix = " (cours moyen)"
            guard term.hasSuffix(suffix), let currency = CurrencyCode(String(term.dropLast(suffix.count))) else {
                throw .layout("the term \(UpstreamDataError.quoted(term)) is not \"XXX (cours moyen)\"")
            }
            return try .reading(figure, of: currency, direction: .pivotPerUnits, day: day)
        }
    }

    /// The days of every `"history"` object in the payload.
    private func payload(_ body: [UInt8]) throws(UpstreamDataError) -> [ProviderPublication] {
        guard !body.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else { throw .empty }
        var histories: [ProviderJSON] = []
        for line in body.split(separator: UInt8(ascii: "\n")) {
            // `ID:` (lower-case hex digits) then the value: a JSON array or object holds data; module references and text chunks do not.
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex, colon + 1 < line.endIndex,
                line[..<colon].allSatisfy({ $0.isASCIIDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }),
                line[colon + 1] == UInt8(ascii: "[") || line[colon + 1] == UInt8(ascii: "{")
            else { continue }
            histories += try Self.histories(in: ProviderJSON(answer: Array(line[(colon + 1)...])))
        }
        guard !histories.isEmpty else { throw .layout("no \"history\" of rates in the payload") }
        var days: [Day: [CurrencyCode: PublishedQuote]] = [:]
        for history in histories {
            for member in try history.members("the history") {
                for (index, record) in try member.value.array("the history of \(member.key)").enumerated() {
                    let what = "\(member.key) record \(index + 1)"
                    let day = try Day(parsing: record.field("date", of: what).string("the date of \(what)"), .iso)
                    let average = try record.field("average", of: what)
                    if average == .null { continue }
                    let unit = try record.field("unit", of: what).integer("the unit of \(what)")
                    let quote = try PublishedQuote.reading(code: member.key, value: average, unit: unit, direction: .pivotPerUnits, day: day)
                    if let seen = days[day]?[quote.currency], seen != quote { throw .duplicateCurrency(quote.currency, day: day) }
                    days[day, default: [:]][quote.currency] = quote
                }
            }
        }
        return days.map { day, quotes in ProviderPublication(day: day, quotes: quotes.values.sorted { $0.currency < $1.currency }) }
    }

    /// The values of every member named `history` in `value`, depth first.
    private static func histories(in value: ProviderJSON) -> [ProviderJSON] {
        switch value {
        case .object(let members): members.flatMap { $0.key == "history" ? [$0.value] : histories(in: $0.value) }
        case .array(let elements): elements.flatMap(histories(in:))
        default: []
        }
    }
}
