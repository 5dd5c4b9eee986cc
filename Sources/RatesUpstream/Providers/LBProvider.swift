import RatesCore

/// The Bank of Lithuania's official rates of the litas (about 88 currencies), 1994 to 2014: the history of a retired currency.
///
/// - Source: `https://www.lb.lt/webservices/FxRates/FxRates.asmx/getFxRates?tp=LT&dt=YYYY-MM-DD`, one day's litas rates (type `LT`) as UTF-8 XML:
///   `<FxRates>` (namespace `http://www.lb.lt/WebServices/FxRates`) holding one `<FxRate>` per currency with `<Tp>LT</Tp>`, `<Dt>2014-12-29</Dt>` and
///   two `<CcyAmt>` (`<Ccy>`, `<Amt>`): an amount of litas and the amount of the currency it buys.
/// - Quote convention: as the file pairs them: `LTL` first, its amount litas for the second amount's units of the currency (3.4528 LTL per 1 EUR,
///   7.6881 per 10 AED, 6.1387 per 1000 AMD): ``PublishedQuote/Direction/pivotPerUnits``; were a pair written the other way round (the currency's
///   amount per a power of ten of litas), it is read as ``PublishedQuote/Direction/unitsPerPivot``. A pair without `LTL`, or with a type other than
///   `LT`, rejects the answer. Every code is kept as published, also those since retired (`BYR`, `VEF`, `HRK`, …): they were current then.
/// - Schedule: none any more. Lithuania adopted the euro on 2015-01-01; the last litas table is 2014-12-31 (``lastDay``). The schedule kept is the
///   bank's former one (Lithuanian working days, after 14:00 Vilnius time), but nothing is asked for after ``lastDay``: a fetch of days after it
///   makes no request, and the newest publication is the table of ``lastDay``.
/// - Ranges: one request per Monday–Friday in the range, within 1994-04-01 (``historyStart``, the first table the service holds) through ``lastDay``;
///   an answer without `<FxRate>` (a day the service holds no table for) is no publication. With nothing stored, a fetch asks for the last
///   `backfillDays` days of the litas.
public struct LBProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public let emptyAnswerIsNoPublication = true

    /// The last day of the litas: the euro replaced it on 2015-01-01.
    public static let lastDay = Day(year: 2014, month: 12, day: 31)!

    static let namespace = "http://www.lb.lt/WebServices/FxRates"

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let days = window.days(latest: Self.lastDay, on: schedule.weekdays).filter { $0 >= historyStart && $0 <= Self.lastDay }
        return days.map { ProviderRequest(url: "\(baseURL)/getFxRates?tp=LT&dt=\($0)") }
    }

    /// With nothing stored, the litas' last `backfillDays` days (its last table when that is 0); once its last table is stored, nothing more: the
    /// range after it makes no request.
    public func catchUp(after stored: Day?, backfillDays: Int, today: Day) -> FetchWindow {
        guard let stored else { return backfillDays > 0 ? .range(Self.lastDay.adding(days: -backfillDays), Self.lastDay) : .latest }
        guard stored < Self.lastDay else { return .range(Self.lastDay.adding(days: 1), max(today, Self.lastDay.adding(days: 1))) }
        return .range(min(stored.adding(days: 1), Self.lastDay.adding(days: -backfillDays)), Self.lastDay)
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "FxRates")
        guard root.namespaceURI == Self.namespace else { throw .layout("<FxRates> is not in the namespace \(Self.namespace)") }
        try XMLFields.expectOnly(["FxRate"], in: root)
        var days: [Day: [PublishedQuote]] = [:]
        for rate in root.children {
            try XMLFields.expectOnly(["Tp", "Dt", "CcyAmt"], in: rate)
            let day = try Day(parsing: XMLFields.text(rate, "Dt", in: "<FxRate>"), .iso)
            let type = try XMLFields.text(rate, "Tp", in: "<FxRate> of \(day)")
            guard type == "LT" else { throw .layout("<FxRate> of \(day) is of type \(UpstreamDataError.quoted(type)), expected LT (litas rates)") }
            let pair = rate.children("CcyAmt")
            guard pair.count == 2 else { throw .layout("<FxRate> of \(day) has \(pair.count) <CcyAmt>, expected two") }
            let amounts = try pair.map { part throws(UpstreamDataError) in
                let code = try PublishedText.currency(XMLFields.text(part, "Ccy", in: "<CcyAmt> of \(day)"), day: day)
                return (code: code, amount: try XMLFields.text(part, "Amt", in: "<CcyAmt> \(code) of \(day)"))
            }
            guard (amounts[0].code == pivot) != (amounts[1].code == pivot) else {
                throw .layout("<FxRate> of \(day) pairs \(amounts[0].code) with \(amounts[1].code), expected LTL and a currency")
            }
            // Either way round, the first amount is the figure and the second its unit.
            let (currency, direction): (CurrencyCode, PublishedQuote.Direction) =
                amounts[0].code == pivot ? (amounts[1].code, .pivotPerUnits) : (amounts[0].code, .unitsPerPivot)
            let value = try PublishedText.rate(amounts[0].amount, currency: currency, day: day)
            let unit = try PublishedText.unit(amounts[1].amount, of: currency, day: day)
            days[day, default: []].append(PublishedQuote(currency: currency, value: value, unit: unit, direction: direction))
        }
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
