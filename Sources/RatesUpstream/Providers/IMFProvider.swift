import RatesCore

/// The International Monetary Fund's representative exchange rates for selected currencies, against
/// the US dollar: about 35 currencies, most reported to the Fund by their own central banks.
///
/// - Endpoint: `GET https://www.imf.org/external/np/fin/data/rms_mth.aspx?SelectDate=YYYY-MM-DD&reportType=REP&tsvflag=Y`
///   answers the whole month containing `SelectDate` as tab-separated text: a title line, then two half-month
///   blocks (`Currency\tMarch 02, 2026\t…`, one row per currency named in English, such as `Chinese yuan`),
///   then `Notes:` and footnotes. The newest publication is in this month's report; a range asks for each month it touches.
/// - Quote convention: units of the currency per 1 USD (``RatesCore/PublishedQuote/Direction/unitsPerPivot``),
///   except the names marked `(1)` (`Euro(1)`, `U.K. pound(1)`, `Australian dollar(1)`, `New Zealand dollar(1)`,
///   `Botswana pula(1)`), which are USD per 1 unit of the currency (``RatesCore/PublishedQuote/Direction/pivotPerUnits``).
///   Figures above 999 carry thousands separators (`1,435.400000`), which are dropped; all digits are kept.
/// - Names: ``currencyNames`` maps the English names to codes; a name it does not know rejects the answer
///   (add it there). The `U.S. dollar` row (always 1) is the pivot and left out.
/// - Skipped: `NA` cells (no rate reported that day).
/// - Schedule: America/New_York, Monday to Friday, usually out by 14:00 local time.
public struct IMFProvider: RatesProvider {
    public let key = "IMF"
    public let name = "International Monetary Fund"
    public let country: String? = nil
    public let pivot = CurrencyCode("USD")!
    public let rateType = "representative rate"
    public let schedule = PublicationSchedule(timeZone: "America/New_York", expectedMinute: 14 * 60)

    /// The real endpoint.
    public static let defaultBaseURL = "https://www.imf.org/external/np/fin/data/rms_mth.aspx"

    /// The currency names of the representative-rates report (footnote marks removed) and their codes.
    public static let currencyNames: [String: String] = [
        "Algerian dinar": "DZD", "Australian dollar": "AUD", "Botswana pula": "BWP", "Brazilian real": "BRL",
        "Brunei dollar": "BND", "Canadian dollar": "CAD", "Chilean peso": "CLP", "Chinese yuan": "CNY",
        "Czech koruna": "CZK", "Danish krone": "DKK", "Euro": "EUR", "Indian rupee": "INR",
        "Israeli New Shekel": "ILS", "Japanese yen": "JPY", "Korean won": "KRW", "Kuwaiti dinar": "KWD",
        "Malaysian ringgit": "MYR", "Mauritian rupee": "MUR", "Mexican peso": "MXN", "New Zealand dollar": "NZD",
        "Norwegian krone": "NOK", "Omani rial": "OMR", "Peruvian sol": "PEN", "Philippine peso": "PHP",
        "Polish zloty": "PLN", "Qatari riyal": "QAR", "Saudi Arabian riyal": "SAR", "Singapore dollar": "SGD",
        "Swedish krona": "SEK", "Swiss franc": "CHF", "Thai baht": "THB", "Trinidadian dollar": "TTD",
        "U.A.E. dirham": "AED", "U.K. pound": "GBP", "U.S. dollar": "USD", "Uruguayan peso": "UYU",
    ]

    private let baseURL: String
    private let today: @Sendable () -> Day

    /// - Parameters:
    ///   - baseURL: The `rms_mth.aspx` URL; `nil` for the real one.
    ///   - today: Today's day in Washington; the default reads the clock (UTC−5).
    public init(baseURL: String? = nil, today: @escaping @Sendable () -> Day = Day.clock(utcOffset: -5 * 3600)) {
        self.baseURL = baseURL ?? Self.defaultBaseURL
        self.today = today
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        switch window {
        case .latest:
            return [request(selecting: today())]
        case .range(let first, let last):
            guard first <= last else { return [] }
            // One report per month: select the range's last day in its last month, the month's last day before.
            var requests: [ProviderRequest] = []
            var (year, month, _) = first.parts
            while true {
                let nextMonth = month == 12 ? Day(year: year + 1, month: 1, day: 1)! : Day(year: year, month: month + 1, day: 1)!
                let selected = min(nextMonth.adding(days: -1), last)
                requests.append(request(selecting: selected))
                if nextMonth > last { break }
                (year, month, _) = nextMonth.parts
            }
            return requests
        }
    }

    func request(selecting day: Day) -> ProviderRequest {
        ProviderRequest(url: "\(baseURL)?SelectDate=\(day)&reportType=REP&tsvflag=Y")
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let lines = try DelimitedText.lines(body, provider: key)
        guard let first = lines.first, !DelimitedText.isBlank(first) else { throw .empty }
        guard first.hasPrefix("Representative Exchange Rates for Selected Currencies") else {
            throw .unexpectedLayout(provider: key, "the first line is not the report title: \(DelimitedText.shown(first))")
        }
        var publications: [ProviderPublication] = []
        var blockDays: [Day]?  // the days of the block being read, nil between blocks
        var sawNotes = false
        for line in lines.dropFirst() {
            if DelimitedText.isBlank(line) {
                blockDays = nil
                continue
            }
            let fields = try DelimitedText.fields(line, separator: "\t", provider: key)
            if fields[0] == "Currency" {
                var days: [Day] = []
                for text in fields.dropFirst() { days.append(try Day(parsing: text, .monthNameDayYear)) }
                guard !days.isEmpty else { throw .unexpectedLayout(provider: key, "a block header without days") }
                blockDays = days
                publications += days.map { ProviderPublication(day: $0, quotes: []) }
                continue
            }
            guard let days = blockDays else {
                if line.hasPrefix("Notes:") {
                    sawNotes = true
                    break
                }
                // The "… Continued" title of the second block.
                guard line.hasPrefix("Representative Exchange Rates for Selected Currencies") else {
                    throw .unexpectedLayout(provider: key, "a line outside a block: \(DelimitedText.shown(line))")
                }
                continue
            }
            guard fields.count == days.count + 1 else {
                throw .unexpectedLayout(provider: key, "\(fields.count) fields instead of \(days.count + 1) in \(DelimitedText.shown(line))")
            }
            let (code, direction) = try currency(named: fields[0], day: days[0])
            if code == pivot { continue }
            for (day, text) in zip(days, fields.dropFirst()) where text != "NA" {
                guard let value = Self.rateText(text) else { throw .invalidRate(currency: code, day: day, text: text) }
                let index = publications.lastIndex { $0.day == day }!
                publications[index].quotes.append(PublishedQuote(currency: code, value: value, unit: 1, direction: direction))
            }
        }
        // The notes end every report: without them the body was cut short.
        guard sawNotes else { throw .unexpectedLayout(provider: key, "no \"Notes:\" after the blocks: the report is truncated") }
        return try ProviderValidation.validate(publications, notAfter: today().adding(days: 1))
    }

    /// The code and quote direction of a row's currency name (`Euro(1)` → EUR, USD per 1 EUR).
    func currency(named text: String, day: Day) throws(UpstreamDataError) -> (CurrencyCode, PublishedQuote.Direction) {
        var name = Substring(text)
        var direction = PublishedQuote.Direction.unitsPerPivot
        if name.hasSuffix("(1)") {
            name = name.dropLast(3)
            direction = .pivotPerUnits
        }
        guard let code = Self.currencyNames[String(name)].flatMap({ CurrencyCode($0) }) else {
            throw .unexpectedLayout(provider: key, "an unknown currency name \(DelimitedText.shown(text)) (a footnote mark other than (1)?)")
        }
        return (code, direction)
    }
    /// A figure as published (`3.073000`, `1,435.400000`) without its thousands separators; `nil` when the
    /// separators are not in groups of three before the point or the rest is not a rate text.
    static func rateText(_ text: String) -> String? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let groups = parts[0].split(separator: ",", omittingEmptySubsequences: false)
        guard groups.count == 1 || (groups[0].count <= 3 && groups.dropFirst().allSatisfy { $0.count == 3 }) else { return nil }
        let plain = groups.joined() + (parts.count > 1 ? "." + parts[1] : "")
        return RateText.isValid(plain) ? plain : nil
    }
}
