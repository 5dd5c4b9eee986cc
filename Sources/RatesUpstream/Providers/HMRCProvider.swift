import RatesCore

/// HM Revenue & Customs' monthly exchange rates: about 140 currencies per £1, each valid for one
/// calendar month (customs and VAT valuation).
///
/// - Source: `https://www.trade-tariff.service.gov.uk/uk/api/exchange_rates/files/monthly_csv_YYYY-M.csv`
///   (the month without a leading zero: `monthly_csv_2026-9.csv`), one CSV per month:
///   `Country/Territories,Currency,Currency Code,Currency Units per £1,Start date,End date`, then one
///   row per territory (`Albania,Lek,ALL,109.7955,01/08/2026,31/08/2026`). A month not out yet
///   answers 404 (`{"errors":[{"detail":"not found"}]}`): no publication (``NoPublicationStatus``).
/// - Quote convention: `Currency Units per £1` units of the currency per 1 GBP,
///   ``PublishedQuote/Direction/unitsPerPivot``, unit 1. Some codes repeat once per territory that
///   uses them (AED for Abu Dhabi, Dubai and the UAE; XCD, XOF, XAF, XPF): such rows are one quote
///   when their figures agree, and reject the answer when they do not (HMRC sets one rate per
///   currency; rows that disagree are not a layout this adapter knows). A code ISO 4217 does not
///   list rejects the answer; a row of GBP itself would be skipped.
/// - Schedule: Europe/London, monthly. The rates of a month are published in the penultimate week
///   of the month before and hold from its first day through its last: a publication is dated its
///   month's first day (the file's `Start date`, which must be a first of a month, with `End date`
///   the last of the same month) and stays current 31 days (``validityDays``). A publication
///   dated tomorrow is the newest a fetch takes, so the next month's is read on a month's last day.
/// - Ranges: one request per month from the month of the range's first day through its last's;
///   the newest publication is the file of the month of today and, on a month's last day, of
///   tomorrow's month (UTC).
public struct HMRCProvider: RatesProvider {
    public let key = "HMRC"
    public let name = "HM Revenue & Customs"
    public let country: String? = "GB"
    public let pivot = CurrencyCode("GBP")!
    public let rateType = "monthly exchange rate for customs and VAT"
    /// The first of every month, valid from midnight London time.
    public let schedule = PublicationSchedule(timeZone: "Europe/London", weekdays: Set(1...7), expectedMinute: 0, cadence: .monthly)
    /// A month's rates hold through its last day.
    public let validityDays: Int? = 31

    /// The header of every month's file.
    static let header = ["Country/Territories", "Currency", "Currency Code", "Currency Units per £1", "Start date", "End date"]

    /// The host the `uk/api/` path is under, without a trailing slash.
    public let baseURL: String
    private let today: @Sendable () -> Day

    /// - Parameters:
    ///   - baseURL: The host (`https://www.trade-tariff.service.gov.uk` when `nil`), for a test server or a mirror.
    ///   - today: Today's day (UTC); the default reads the clock.
    public init(baseURL: String? = nil, today: @escaping @Sendable () -> Day = Day.clock(utcOffset: 0)) {
        self.baseURL = baseURL ?? "https://www.trade-tariff.service.gov.uk"
        self.today = today
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        switch window {
        case .latest:
            let today = today()
            return Day.months(from: today, through: today.adding(days: 1)).map(request(for:))
        case .range(let first, let last):
            return Day.months(from: first, through: last).map(request(for:))
        }
    }

    /// The request for the file of `month`'s month.
    func request(for month: Day) -> ProviderRequest {
        ProviderRequest(url: "\(baseURL)/uk/api/exchange_rates/files/monthly_csv_\(month.parts.year)-\(month.parts.month).csv")
    }

    /// A month's file starts on its first day: with nothing stored, the months the backfill reaches
    /// are asked for whole (a range starting in the middle of a month would leave its publication out).
    public func catchUp(after stored: Day?, backfillDays: Int, today: Day) -> FetchWindow {
        let recent = today.adding(days: -backfillDays)
        let from = stored.map { min($0.adding(days: 1), recent) } ?? recent
        return from.monthStart >= today.monthStart ? .latest : .range(from.monthStart, today)
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let lines = try DelimitedText.lines(body, provider: key)
        guard let first = lines.first, !DelimitedText.isBlank(first) else { throw .empty }
        guard try DelimitedText.fields(first, separator: ",", provider: key) == Self.header else {
            throw .unexpectedLayout(provider: key, "the first line is not HMRC's header: \(DelimitedText.shown(first))")
        }
        var period: (start: String, end: String)?
        var day: Day?
        var quotes: [PublishedQuote] = []
        for (_, fields) in try DelimitedText.rows(after: lines, separator: ",", count: Self.header.count, provider: key) {
            if let period {
                guard period.start == fields[4], period.end == fields[5] else {
                    throw .unexpectedLayout(provider: key, "a row for \(fields[4])–\(fields[5]) in the file of \(period.start)–\(period.end)")
                }
            } else {
                let start = try Day(parsing: fields[4], .dayMonthYear(separator: "/"))
                let end = try Day(parsing: fields[5], .dayMonthYear(separator: "/"))
                guard start == start.monthStart, end == start.monthEnd else {
                    throw .unexpectedLayout(provider: key, "the period \(fields[4])–\(fields[5]) is not one calendar month")
                }
                period = (fields[4], fields[5])
                day = start
            }
            guard let day else { continue }
            guard let currency = CurrencyCode(fields[2]), currency.name != nil else { throw .invalidCurrencyCode(fields[2], day: day) }
            guard RateText.isValid(fields[3]) else { throw .invalidRate(currency: currency, day: day, text: fields[3]) }
            guard currency != pivot else { continue }
            let quote = PublishedQuote(currency: currency, value: fields[3], unit: 1, direction: .unitsPerPivot)
            if let earlier = quotes.first(where: { $0.currency == currency }) {
                guard earlier == quote else { throw .duplicateCurrency(currency, day: day) }
                continue
            }
            quotes.append(quote)
        }
        guard let day else { throw .empty }
        return try ProviderValidation.validate([ProviderPublication(day: day, quotes: quotes)])
    }
}

/// A month's file not out yet answers 404, as the adapter documents.
extension HMRCProvider: NoPublicationStatus {}
