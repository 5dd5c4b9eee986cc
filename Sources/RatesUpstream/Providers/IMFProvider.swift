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
/// - Names: the set of currencies changes from month to month (about 35 in 2026, others such as
///   `Hungarian forint`, `Russian ruble` or `South African rand` in other months). ``currencyNames`` maps
///   the English names the report uses, matched trimmed and in any case, to codes; a name it does not know
///   rejects the answer (add it there). A name kept across a redenomination means the code of its day
///   (``Redenomination``: `Venezuelan bolivar` is VEB before 2008, VEF until 2018-08-19, VES after). The
///   `U.S. dollar` row (always 1) is the pivot and left out.
/// - Skipped: `NA` cells (no rate reported that day), and rows with a footnote mark other than `(1)`
///   (`Name(2)`): the notes announce other marks but the report's text does not say what they mean.
/// - Schedule: America/New_York, Monday to Friday, usually out by 14:00 local time.
public struct IMFProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currency names of the representative-rates report, lower-cased, without footnote marks, and
    /// their codes (the names the report has used across its months; a month lists some of them).
    public static let currencyNames: [String: String] = [
        "afghan afghani": "AFN", "algerian dinar": "DZD", "angolan kwanza": "AOA", "australian dollar": "AUD", "bahamian dollar": "BSD",
        "bahrain dinar": "BHD", "bangladeshi taka": "BDT", "barbados dollar": "BBD", "botswana pula": "BWP", "brazilian real": "BRL",
        "brunei dollar": "BND", "canadian dollar": "CAD", "chilean peso": "CLP", "chinese yuan": "CNY", "colombian peso": "COP",
        "costa rican colon": "CRC", "czech koruna": "CZK", "danish krone": "DKK", "djibouti franc": "DJF", "egyptian pound": "EGP",
        "euro": "EUR", "fiji dollar": "FJD", "hungarian forint": "HUF", "icelandic krona": "ISK", "indian rupee": "INR",
        "iranian rial": "IRR", "israeli new shekel": "ILS", "japanese yen": "JPY", "jordanian dinar": "JOD", "kazakhstani tenge": "KZT",
        "korean won": "KRW", "kuwaiti dinar": "KWD", "libyan dinar": "LYD", "malaysian ringgit": "MYR", "mauritian rupee": "MUR",
        "mexican peso": "MXN", "moldovan leu": "MDL", "mongolian tugrik": "MNT", "moroccan dirham": "MAD", "mozambican metical": "MZN",
        "myanmar kyat": "MMK", "namibian dollar": "NAD", "nepalese rupee": "NPR", "new zealand dollar": "NZD", "nigerian naira": "NGN",
        "norwegian krone": "NOK", "omani rial": "OMR", "pakistani rupee": "PKR", "peruvian sol": "PEN", "philippine peso": "PHP",
        "polish zloty": "PLN", "qatari riyal": "QAR", "romanian leu": "RON", "russian ruble": "RUB", "rwandan franc": "RWF",
        "samoan tala": "WST", "saudi arabian riyal": "SAR", "singapore dollar": "SGD", "south african rand": "ZAR",
        "sri lankan rupee": "LKR", "swedish krona": "SEK", "swiss franc": "CHF", "thai baht": "THB", "trinidadian dollar": "TTD",
        "tunisian dinar": "TND", "u.a.e. dirham": "AED", "u.k. pound": "GBP", "u.s. dollar": "USD", "ugandan shilling": "UGX",
        "uruguayan peso": "UYU", "venezuelan bolivar": "VES", "yemeni rial": "YER", "zambian kwacha": "ZMW",
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [request(selecting: today())]) { first, last in
            // One report per month: select the range's last day in its last month, the month's last day before.
            Day.months(from: first, through: last).map { request(selecting: min($0.monthEnd, last)) }
        }
    }

    func request(selecting day: Day) -> ProviderRequest {
        ProviderRequest(url: "\(baseURL)?SelectDate=\(day)&reportType=REP&tsvflag=Y")
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let lines = try DelimitedText.lines(body)
        guard let first = lines.first, !DelimitedText.isBlank(first) else { throw .empty }
        guard first.hasPrefix("Representative Exchange Rates for Selected Currencies") else {
            throw .layout("the first line is not the report title: \(DelimitedText.shown(first))")
        }
        var publications: [ProviderPublication] = []
        var blockDays: [Day]?  // the days of the block being read, nil between blocks
        var sawNotes = false
        for line in lines.dropFirst() {
            if DelimitedText.isBlank(line) {
                blockDays = nil
                continue
            }
            let fields = try DelimitedText.fields(line, separator: "\t")
            if fields[0] == "Currency" {
                let days = try fields.dropFirst().map { text throws(UpstreamDataError) in try Day(parsing: Self.trimmed(text), .monthNameDayYear) }
                guard !days.isEmpty else { throw .layout("a block header without days") }
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
                    throw .layout("a line outside a block: \(DelimitedText.shown(line))")
                }
                continue
            }
            guard fields.count == days.count + 1 else {
                throw .layout("\(fields.count) fields instead of \(days.count + 1) in \(DelimitedText.shown(line))")
            }
            guard let row = try currency(named: fields[0]) else { continue }
            if row.code == pivot.rawValue { continue }
            for (day, text) in zip(days, fields.dropFirst()) where text != "NA" {
                let code = Self.code(row.code, on: day)
                guard let value = Self.rateText(text) else { throw .invalidRate(currency: code, day: day, text: text) }
                let index = publications.lastIndex { $0.day == day }!
                publications[index].quotes.append(PublishedQuote(currency: code, value: value, unit: 1, direction: row.direction))
            }
        }
        // The notes end every report: without them the body was cut short.
        guard sawNotes else { throw .layout("no \"Notes:\" after the blocks: the report is truncated") }
        return publications
    }

    /// The code (as of the report's current currencies) and quote direction of a row's currency name,
    /// matched trimmed and in any case (`Euro(1)` → EUR, USD per 1 EUR); `nil` for a row with a footnote
    /// mark other than `(1)`, whose convention the report does not state.
    func currency(named text: String) throws(UpstreamDataError) -> (code: String, direction: PublishedQuote.Direction)? {
        var name = Substring(Self.trimmed(text).lowercased())
        var direction = PublishedQuote.Direction.unitsPerPivot
        if name.hasSuffix("(1)") {
            name = name.dropLast(3)
            direction = .pivotPerUnits
        } else if name.last == ")", let open = name.lastIndex(of: "("),
            case let mark = name[name.index(after: open)..<name.index(before: name.endIndex)], !mark.isEmpty, mark.allSatisfy(\.isNumber)
        {
            return nil
        }
        guard let code = Self.currencyNames[Self.trimmed(String(name))] else {
            throw .layout("an unknown currency name \(DelimitedText.shown(text))")
        }
        return (code, direction)
    }

    /// The code `current` had on `day`: the code it replaced before a redenomination (``Redenomination``).
    static func code(_ current: String, on day: Day) -> CurrencyCode {
        CurrencyCode(Redenomination.code(current, on: day))!
    }

    /// `text` without leading, trailing or repeated whitespace.
    static func trimmed(_ text: some StringProtocol) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
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
