import RatesCore

/// Banca d'Italia's daily rates of about 150 currencies against the euro, most of the world's ("terze valute" portal): the broadest single source.
///
/// - Endpoint:
///   `GET https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates?referenceDate=YYYY-MM-DD&currencyIsoCode=EUR&lang=en` answers
///   one day as CSV: `Country,Currency,ISO Code,UIC Code,Rate,Rate convention,Reference date (CET)`, one row per country (a currency shared by
///   several countries, such as XOF, XAF or XCD, is listed once per country with the same figure), then blank lines and the `# DISCLAIMER` lines,
///   which must be there (without them the answer was cut short).
/// - Quote convention: every row says `Foreign currency amount for 1 Euro.`: units per 1 EUR (``PublishedQuote/Direction/unitsPerPivot``). A row with
///   any other convention (the portal also quotes against the US dollar) rejects the answer: the adapter does no cross arithmetic.
/// - Absent: `N.A.` in the rate column (currencies listed but not quoted that day, such as RUB, BYN, IRR and KPW in February 2026) is skipped. A day
///   without quotations (a TARGET or Italian holiday), answered with the header and the disclaimer alone or with rows all `N.A.`, is no publication.
/// - Schedule: Europe/Rome, Monday to Friday, after the ECB's concertation; out by about 17:00 local time.
/// - Requests: one day per request, as the endpoint answers: each weekday of a range; the newest publication is today's (Rome), or Friday's on a
///   weekend.
public struct BDIProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let perEuroConvention = "Foreign currency amount for 1 Euro."
    static let header = ["Country", "Currency", "ISO Code", "UIC Code", "Rate", "Rate convention", "Reference date (CET)"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        var latest = today()
        while latest.isoWeekday > 5 { latest = latest.adding(days: -1) }
        return window.days(latest: latest, on: PublicationSchedule.workingDays).map { day in
            let url = "\(baseURL)/dailyRates?referenceDate=\(day)&currencyIsoCode=EUR&lang=en"
            return ProviderRequest(url: url, headers: ["Accept": "text/csv"], subject: day.description)
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let (lines, header) = try DelimitedText.header(body, separator: ",")
        guard header == Self.header else { throw .layout("the first line is not the dailyRates header: \(DelimitedText.shown(lines[0]))") }
        var quotes = RepeatedQuotes()
        var sawDisclaimer = false
        for line in lines.dropFirst() {
            // Blank lines and the `#` disclaimer close the file; no row may follow them.
            if line == "# DISCLAIMER" { sawDisclaimer = true }
            if DelimitedText.isBlank(line) || line.hasPrefix("#") { continue }
            guard !sawDisclaimer else { throw .layout("a row after the disclaimer: \(DelimitedText.shown(line))") }
            let fields = try DelimitedText.fields(line, separator: ",")
            guard fields.count == Self.header.count else { throw .layout("\(fields.count) fields instead of 7 in \(DelimitedText.shown(line))") }
            let day = try Day(parsing: fields[6], .iso)
            if let wanted = request.subject, wanted != fields[6] { throw .layout("a row of \(fields[6]) in the answer for \(wanted)") }
            guard let code = CurrencyCode(fields[2]) else { throw .invalidCurrencyCode(fields[2], day: day) }
            guard fields[5] == Self.perEuroConvention else { throw .layout("\(code) is quoted as \(DelimitedText.shown(fields[5])), not per 1 euro") }
            if fields[4] == "N.A." { continue }
            let quote = try PublishedQuote.reading(fields[4], of: code, direction: .unitsPerPivot, day: day)
            if code != pivot { try quotes.add(quote, on: day) }
        }
        guard sawDisclaimer else { throw .layout("no \"# DISCLAIMER\" block at the end: the answer is truncated") }
        return quotes.publications
    }
}
