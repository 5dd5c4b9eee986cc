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
///   currency; rows that disagree are not a layout this adapter knows). Codes are ISO 4217's, but
///   for labels of HMRC's own: `ZIG` is Zimbabwe Gold (ZWG), `VED` the bolívar soberano (VES, whose
///   magnitude its figures have), `SLE` before March 2023 the old leone (SLL, about 15,600 per £1),
///   and Ecuador's `ECS` row is skipped (it repeats the US dollar's figure under the sucre's code).
///   Any other code ISO 4217 does not list rejects the answer; a row of GBP itself would be skipped.
/// - Schedule: Europe/London, monthly. The rates of a month are published in the penultimate week
///   of the month before and hold from its first day through its last: a publication is dated its
///   month's first day and stays current 31 days (``validityDays``). When a currency moves more
///   than 5% within the month, HMRC issues a corrected rate from a later day: the file then holds
///   a row of that currency with its own `Start date` (`15/10/2026`, through the month's last day),
///   and the month-start row may end the day before. Such a row is a publication of its own,
///   dated its `Start date`, holding the corrected currencies. Every row's period lies within one
///   calendar month, and some row starts on its first day; anything else rejects the answer. A
///   publication dated tomorrow is the newest a fetch takes, so the next month's is read on a
///   month's last day.
/// - Ranges: one request per month from the month of the range's first day through its last's;
///   the newest publication is the file of the month of today and, on a month's last day, of
///   tomorrow's month (UTC): ``MonthlyFileProvider``.
public struct HMRCProvider: MonthlyFileProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The header of every month's file.
    static let header = ["Country/Territories", "Currency", "Currency Code", "Currency Units per £1", "Start date", "End date"]

    /// The request for the file of `month`'s month.
    func request(for month: Day) -> ProviderRequest {
        ProviderRequest(url: "\(baseURL)/uk/api/exchange_rates/files/monthly_csv_\(month.parts.year)-\(month.parts.month).csv")
    }

    /// Labels HMRC writes for currencies ISO 4217 codes otherwise: `VED` for the bolívar soberano
    /// (its figures are VES's magnitude, not the digital bolívar's) and `ZIG` for Zimbabwe Gold.
    static let aliases = ["VED": CurrencyCode("VES")!, "ZIG": CurrencyCode("ZWG")!]
    /// Ecuador's row, labelled with the sucre's withdrawn code, carries the US dollar's figure.
    static let dollarAsSucre = "ECS"
    /// Until this month HMRC's `SLE` rows price the old leone (about 15,600 per £1), not the new one.
    static let newLeoneFrom = Day(year: 2023, month: 3, day: 1)!

    /// The currency a row's `Currency Code` names in the month starting `start`; `nil` for Ecuador's `ECS` row.
    func currency(labelled label: String, from start: Day) throws(UpstreamDataError) -> CurrencyCode? {
        guard label != Self.dollarAsSucre else { return nil }
        if let alias = Self.aliases[label] { return alias }
        guard let currency = CurrencyCode(label), currency.name != nil else { throw .invalidCurrencyCode(label, day: start) }
        if currency == CurrencyCode("SLE")!, start < Self.newLeoneFrom { return CurrencyCode("SLL")! }
        return currency
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let (lines, header) = try DelimitedText.header(body, separator: ",")
        guard header == Self.header else {
            throw .layout("the first line is not HMRC's header: \(DelimitedText.shown(lines[0]))")
        }
        var month: Day?
        var quotes = RepeatedQuotes()
        for (_, fields) in try DelimitedText.rows(after: lines, separator: ",", count: Self.header.count) {
            let start = try Day(parsing: fields[4], .dayMonthYear(separator: "/"))
            let end = try Day(parsing: fields[5], .dayMonthYear(separator: "/"))
            let fileMonth = month ?? start.monthStart
            month = fileMonth
            guard start.monthStart == fileMonth, start <= end, end <= fileMonth.monthEnd else {
                throw .layout("the period \(fields[4])–\(fields[5]) is not within the file's month, \(fileMonth)")
            }
            guard let currency = try self.currency(labelled: fields[2], from: start) else { continue }
            guard RateText.isValid(fields[3]) else { throw .invalidRate(currency: currency, day: start, text: fields[3]) }
            guard currency != pivot else { continue }
            try quotes.add(PublishedQuote(currency: currency, value: fields[3], unit: 1, direction: .unitsPerPivot), on: start)
        }
        guard let month else { throw .empty }
        let publications = quotes.publications
        guard publications.contains(where: { $0.day == month }) else {
            throw .layout("no row starts on the first of the file's month, \(month)")
        }
        return publications
    }
}

/// A month's file not out yet answers 404, as the adapter documents.
extension HMRCProvider: NoPublicationStatus {}
