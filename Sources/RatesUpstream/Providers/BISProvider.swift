import RatesCore

/// The Bank for International Settlements' monthly US dollar exchange rates (dataset WS_XRU): the
/// end-of-month rate of about 190 economies' currencies against the dollar.
///
/// - Source: the BIS SDMX API,
///   `https://stats.bis.org/api/v2/data/dataflow/BIS/WS_XRU/1.0/M...E?c%5BTIME_PERIOD%5D=ge:YYYY-MM%2Ble:YYYY-MM`
///   (monthly, end of period, every economy), as CSV: `DATAFLOW,FREQ,REF_AREA,CURRENCY,COLLECTION,
///   TIME_PERIOD,OBS_VALUE,UNIT_MULT,DECIMALS,AVAILABILITY,TITLE,OBS_STATUS,OBS_PRE_BREAK,OBS_CONF`, one
///   row per economy and month (`BIS:WS_XRU(1.0),M,TW,TWD,E,2025-01,32.85,0,6,A, Exchange rates against
///   USD Chinese Taipei - New Taiwan dollar - Monthly - End of period,A,,F`).
/// - Quote convention: `OBS_VALUE` units of `CURRENCY` per 1 USD, ``PublishedQuote/Direction/unitsPerPivot``,
///   unit 1; a row must be monthly (`M`), end of period (`E`) and without a multiplier (`UNIT_MULT` 0).
/// - Validation per economy and period: the BIS restates an economy's past in the currency it
///   uses today (Slovenia's tolar as euros before 2007, the Turkish lira of 2001 as new lira), and
///   some codes are not what the figures are in. ``rules`` is the fixed table of what is read when:
///   a row of an economy before its code was its currency is skipped (a restatement, not a
///   published rate: Suriname's dollar of 2004 in May 2001, 2.1785 for 2178.5 guilders), Venezuela's `VEF` is read as VES from 2018-08 (the figures are bolívares
///   soberanos since then), Sierra Leone's `SLL` as SLE from 2022-07 (the figures are new leones
///   throughout: before, restated), São Tomé's `STD` and Mauritania's `MRO` only through 2017-12
///   (later figures would be in a retired unit), Zimbabwe's `ZWL` never (its units changed too often
///   to be told apart). Economies not in the table are read for every month.
/// - One currency, several economies (the euro, the CFA francs, the East Caribbean dollar, the
///   Australian dollar of Kiribati): the issuing economy's row is read when it is there (``issuers``:
///   the euro area's for EUR, Australia's for AUD, …) and the others are skipped; otherwise their
///   figures must agree, or the answer is rejected.
/// - Skipped: the US dollar rows (the pivot), an empty or `NaN` value (no figure), and months
///   before 1999 (the history a daily source starts with; the BIS's older rows are restatements
///   for most economies): the answer for 1900-01 holds no figure the adapter keeps.
/// - Days: a month's end-of-period figure is dated the last day of its month, and stays current
///   31 days (``validityDays``): until the next month's end, whose figure comes weeks later.
/// - Schedule: Europe/Zurich, monthly; no usual time is documented (noon is assumed); figures of
///   a month appear some weeks after its end.
/// - Ranges: one request for the months from the range's first day through its last; the newest
///   publication is asked for as the last four months.
public struct BISProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// What is read of an economy's rows listed under one code: from and through which months
    /// (`YYYY-MM`, both included; `nil`: no bound), and as which currency (`nil`: the code itself).
    public struct Rule: Sendable {
        public let economy: String
        public let code: String
        public let from: String?
        public let through: String?
        public let reads: String?
    }

    /// The economies whose code names their figures for part of the history only.
    public static let rules: [Rule] = [
        // Currencies introduced since 1999, restated before.
        Rule(economy: "AF", code: "AFN", from: "2002-10", through: nil, reads: nil),
        Rule(economy: "AO", code: "AOA", from: "1999-12", through: nil, reads: nil),
        Rule(economy: "AZ", code: "AZN", from: "2006-01", through: nil, reads: nil),
        Rule(economy: "BY", code: "BYN", from: "2016-07", through: nil, reads: nil),
        Rule(economy: "GH", code: "GHS", from: "2007-07", through: nil, reads: nil),
        Rule(economy: "MG", code: "MGA", from: "2003-08", through: nil, reads: nil),
        Rule(economy: "MZ", code: "MZN", from: "2006-07", through: nil, reads: nil),
        Rule(economy: "RO", code: "RON", from: "2005-07", through: nil, reads: nil),
        Rule(economy: "RS", code: "RSD", from: "2006-10", through: nil, reads: nil),
        Rule(economy: "SD", code: "SDG", from: "2007-01", through: nil, reads: nil),
        Rule(economy: "SR", code: "SRD", from: "2004-01", through: nil, reads: nil),
        Rule(economy: "TJ", code: "TJS", from: "2000-11", through: nil, reads: nil),
        Rule(economy: "TM", code: "TMT", from: "2009-01", through: nil, reads: nil),
        Rule(economy: "TR", code: "TRY", from: "2005-01", through: nil, reads: nil),
        Rule(economy: "ZM", code: "ZMW", from: "2013-01", through: nil, reads: nil),
        // Euro members since 1999 (and Montenegro, which took the euro in 2002), restated before.
        Rule(economy: "GR", code: "EUR", from: "2001-01", through: nil, reads: nil),
        Rule(economy: "ME", code: "EUR", from: "2002-01", through: nil, reads: nil),
        Rule(economy: "SI", code: "EUR", from: "2007-01", through: nil, reads: nil),
        Rule(economy: "CY", code: "EUR", from: "2008-01", through: nil, reads: nil),
        Rule(economy: "MT", code: "EUR", from: "2008-01", through: nil, reads: nil),
        Rule(economy: "SK", code: "EUR", from: "2009-01", through: nil, reads: nil),
        Rule(economy: "EE", code: "EUR", from: "2011-01", through: nil, reads: nil),
        Rule(economy: "LV", code: "EUR", from: "2014-01", through: nil, reads: nil),
        Rule(economy: "LT", code: "EUR", from: "2015-01", through: nil, reads: nil),
        Rule(economy: "HR", code: "EUR", from: "2023-01", through: nil, reads: nil),
        Rule(economy: "BG", code: "EUR", from: "2026-01", through: nil, reads: nil),
        // Codes that are not what the figures are in.
        Rule(economy: "VE", code: "VEF", from: "2008-01", through: "2018-07", reads: nil),
        Rule(economy: "VE", code: "VEF", from: "2018-08", through: nil, reads: "VES"),
        Rule(economy: "SL", code: "SLL", from: "2022-07", through: nil, reads: "SLE"),
        Rule(economy: "ST", code: "STD", from: nil, through: "2017-12", reads: nil),
        Rule(economy: "MR", code: "MRO", from: nil, through: "2017-12", reads: nil),
        Rule(economy: "AN", code: "ANG", from: nil, through: "2025-06", reads: nil),
    ]

    /// Economies never read: Zimbabwe, whose dollar changed units too often to tell which a figure is in.
    public static let unreadEconomies: Set<String> = ["ZW"]

    /// The economy whose row is read for a currency several economies report.
    public static let issuers: [String: String] = [
        "EUR": "XM", "AUD": "AU", "NZD": "NZ", "INR": "IN", "ZAR": "ZA", "CHF": "CH", "DKK": "DK", "GBP": "GB", "XOF": "WA",
    ]

    /// The first month read.
    static let firstMonth = "1999-01"

    /// The columns a row must have.
    static let columns = ["FREQ", "REF_AREA", "CURRENCY", "COLLECTION", "TIME_PERIOD", "OBS_VALUE", "UNIT_MULT"]

    /// The dataflow's URL.
    var endpoint: String { baseURL + "/api/v2/data/dataflow/BIS/WS_XRU/1.0/M...E" }

    /// The request for the months of the range's first through its last day, or of the last four months.
    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let today = today()
        guard case let (first, last)? = window.map(latest: (today.addingMonths(-3), today), range: { ($0, $1) }) else { return [] }
        return [ProviderRequest(url: endpoint + "?c%5BTIME_PERIOD%5D=ge:\(first.yearMonth)%2Ble:\(last.yearMonth)")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let (lines, header) = try DelimitedText.header(body, separator: ",")
        let index = try DelimitedText.positions(of: Self.columns, in: header, line: lines[0])
        let records = try DelimitedText.rows(after: lines, separator: ",", count: header.count)
        guard !records.isEmpty else { throw .empty }
        var rows: [(day: Day, economy: String, quote: PublishedQuote)] = []
        for (line, fields) in records {
            func field(_ column: String) -> String { fields[index[column]!] }
            guard field("FREQ") == "M", field("COLLECTION") == "E", field("UNIT_MULT") == "0" else {
                throw .layout("a row that is not a monthly end-of-period rate: \(DelimitedText.shown(line))")
            }
            let period = field("TIME_PERIOD")
            guard let start = Day(period + "-01") else { throw .invalidDay(period) }
            let day = start.monthEnd
            let economy = field("REF_AREA")
            guard economy.count == 2, economy.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { throw .layout("the economy \(UpstreamDataError.quoted(economy)) in \(DelimitedText.shown(line))") }
            let code = field("CURRENCY")
            guard let listed = CurrencyCode(code), listed.name != nil else { throw .invalidCurrencyCode(code, day: day) }
            let value = field("OBS_VALUE")
            guard !value.isEmpty, value != "NaN" else { continue }
            guard RateText.isValid(value) else { throw .invalidRate(currency: listed, day: day, text: value) }
            guard period >= Self.firstMonth, let currency = Self.currency(listed, of: economy, in: period), currency != pivot else { continue }
            rows.append((day, economy, PublishedQuote(currency: currency, value: value, unit: 1, direction: .unitsPerPivot)))
        }
        // The days on which each currency's issuer has a row of its own.
        let issued = Set(rows.filter { Self.issuers[$0.quote.currency.rawValue] == $0.economy }.map { "\($0.day) \($0.quote.currency)" })
        var quotes = RepeatedQuotes()
        for row in rows {
            if let issuer = Self.issuers[row.quote.currency.rawValue], issuer != row.economy, issued.contains("\(row.day) \(row.quote.currency)") {
                continue
            }
            try quotes.add(row.quote, on: row.day)
        }
        // An answer whose every row is skipped (the 1900 answer) holds no publication.
        return quotes.publications
    }

    /// The currency an economy's row listed under `code` is read as in `period` (`YYYY-MM`), or `nil`
    /// when the row is skipped (``rules``).
    static func currency(_ code: CurrencyCode, of economy: String, in period: String) -> CurrencyCode? {
        guard !unreadEconomies.contains(economy) else { return nil }
        let rules = Self.rules.filter { $0.economy == economy && $0.code == code.rawValue }
        guard !rules.isEmpty else { return code }
        guard let rule = rules.first(where: { rule in rule.from.map { period >= $0 } ?? true && rule.through.map { period <= $0 } ?? true })
        else { return nil }
        return rule.reads.flatMap(CurrencyCode.init) ?? code
    }
}
