import RatesCore

/// The Central Bank of Sri Lanka's indicative exchange rates of the rupee (53 currencies).
///
/// - Source: the bank's exchange-rate lookup. A fetch first gets the form, `https://www.cbsl.gov.lk/cbsl_custom/exrates/exrates.php`
///   (``sessionRequest(for:)``), for the currencies it offers (check boxes `chk_cur[]` valued `AUD~Australian Dollar`), then posts them all to
///   `…/exrates_results.php`:
///   `lookupPage=lookup_daily_exchange_rates.php&rangeType=dates&txtStart=2025-05-15&txtEnd=2025-05-19&chk_cur%5B%5D=AUD%7EAustralian+Dollar&…&submit_button=Submit`.
///   The answer is a page with one table per currency, headed `Date | 1 AUD -> LKR | 1 LKR -> AUD`, one row per day:
///   `2025-05-19 | 191.8850 | 0.0052`. The tables are followed by the rest of the page: an answer without its closing `</html>` was cut short
///   (between two tables it would read as fewer currencies) and is rejected. A range without rates (a weekend, a Poya day) answers the tables with no
///   rows: no publication.
/// - Quote convention: the first figure, rupees per 1 unit of the currency (``PublishedQuote/Direction/pivotPerUnits``, unit 1), as published with
///   its four decimals (so the figures of currencies worth little carry few digits: VND `0.0115`); the inverse column (`0.0052`) is not read.
///   Skipped: `XAU` (gold, not a currency). The offshore yuan (`CNH`, outside ISO 4217) is its own currency, beside `CNY`; a table of any other code
///   that is not ISO 4217's rejects the answer.
/// - Schedule: Asia/Colombo (UTC+5:30), Monday to Friday, by about 09:30; a figure is dated the day it applies to.
/// - Ranges: one post for the whole range (`txtStart`, `txtEnd` both included); the newest publication is the last seven days up to today. Without
///   the form (``requests(for:)``, what an import reads files as), the post names no currency; an answer names each table's currency itself.
public struct CBSLProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The lookup's folder, `…/cbsl_custom/exrates`.
    var folderURL: String { baseURL + "/cbsl_custom/exrates" }

    /// Tables that are not a currency's: gold.
    static let skipped: Set<String> = ["XAU"]

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? { ProviderRequest(url: folderURL + "/exrates.php") }

    public func requests(for window: FetchWindow) -> [ProviderRequest] { post(window, currencies: []) }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        let form = try HTMLDocument(parsing: session.body)
        let currencies = form.startTags("input").filter { $0["name"] == "chk_cur[]" && $0["type"] == "checkbox" }.compactMap { $0["value"] }
        guard !currencies.isEmpty, currencies.allSatisfy({ $0.count > 4 && $0.dropFirst(3).first == "~" }) else {
            throw .layout("the form offers no currencies (check boxes chk_cur[] valued CODE~Name)")
        }
        return post(window, currencies: currencies)
    }

    /// The form post of `window`'s days for `currencies` (check box values).
    func post(_ window: FetchWindow, currencies: [String]) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today()) else { return [] }
        let fields: [(name: String, value: String)] = [
            ("lookupPage", "lookup_daily_exchange_rates.php"), ("rangeType", "dates"), ("txtStart", first.description), ("txtEnd", last.description),
        ] + currencies.map { (name: "chk_cur[]", value: $0) } + [(name: "submit_button", value: "Submit")]
        return [.formPost(url: folderURL + "/exrates_results.php", fields: fields)]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let page = try HTMLDocument(parsing: body)
        var days: [Day: [PublishedQuote]] = [:]
        var tables = 0
        for table in page.tables {
            guard let header = table.rows.first?.texts, header.first == "Date" else { continue }
            tables += 1
            let codeText = header.count == 3 ? String(header[1].dropFirst(2).prefix(3)) : ""
            guard header.count == 3, header[1] == "1 \(codeText) -> LKR", header[2] == "1 LKR -> \(codeText)" else {
                throw .layout("a table headed \(HTMLDocument.shown(header)), not Date | 1 XXX -> LKR | 1 LKR -> XXX")
            }
            for row in table.rows.dropFirst() {
                let cells = row.texts
                guard cells.count == 3 else { throw .layout("a row of \(cells.count) cells in the table of \(codeText)") }
                let day = try Day(parsing: cells[0], .iso)
                if Self.skipped.contains(codeText) { continue }
                guard let code = CurrencyCode(codeText), code.name != nil else { throw .invalidCurrencyCode(codeText, day: day) }
                guard RateText.isValid(cells[1]) else { throw .invalidRate(currency: code, day: day, text: cells[1]) }
                days[day, default: []].append(PublishedQuote(currency: code, value: cells[1], unit: 1, direction: .pivotPerUnits))
            }
        }
        guard tables > 0 else { throw .layout("no table headed Date | 1 XXX -> LKR | 1 LKR -> XXX") }
        // A page cut between two tables would read as fewer currencies: the whole page ends with </html>.
        guard page.tokens.contains(.end("html")) else { throw .layout("the page ends before its </html>: it was cut short") }
        // The tables are there but hold no day (a range of a weekend or holidays): no publication.
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
