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
///   an answer without `<FxRate>` (a day the service holds no table for) is no publication. With nothing stored, a fetch asks for the litas' last
///   `backfillDays` days (its last table when that is 0); once that table is stored, for the days after it, which make no request.
public struct LBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public static let lastDay = Day(year: 2014, month: 12, day: 31)!

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let days = window.days(latest: Self.lastDay, on: schedule.weekdays).filter { $0 >= historyStart && $0 <= Self.lastDay }
        return days.map { ProviderRequest(url: "\(baseURL)/getFxRates?tp=LT&dt=\($0)") }
    }

    public func catchUp(after stored: Day?, backfillDays: Int, today: Day) -> FetchWindow {
        guard let stored else { return backfillDays > 0 ? .range(Self.lastDay.adding(days: -backfillDays), Self.lastDay) : .latest }
        guard stored < Self.lastDay else { return .range(Self.lastDay.adding(days: 1), max(today, Self.lastDay.adding(days: 1))) }
        return .range(min(stored.adding(days: 1), Self.lastDay.adding(days: -backfillDays)), Self.lastDay)
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "FxRates")
        guard root.namespaceURI == "http://www.lb.lt/WebServices/FxRates" else { throw .layout("<FxRates> is not in the FxRates namespace") }
        try XMLFields.expectOnly(["FxRate"], in: root)
        return ProviderPublication.byDay(try root.children.map { rate throws(UpstreamDataError) -> (day: Day, quote: PublishedQuote) in
            try XMLFields.expectOnly(["Tp", "Dt", "CcyAmt"], in: rate)
            let day = try Day(parsing: XMLFields.text(rate, "Dt", in: "<FxRate>"), .iso)
            let type = try XMLFields.text(rate, "Tp", in: "<FxRate> of \(day)")
            guard type == "LT" else { throw .layout("<FxRate> of \(day) is of type \(UpstreamDataError.quoted(type)), expected LT (litas rates)") }
            let amounts = try rate.children("CcyAmt").map { part throws(UpstreamDataError) in
                let code = try PublishedText.currency(XMLFields.text(part, "Ccy", in: "<CcyAmt> of \(day)"), day: day)
                return (code: code, amount: try XMLFields.text(part, "Amt", in: "<CcyAmt> \(code) of \(day)"))
            }
            let litasFirst = amounts.first?.code == pivot
            guard amounts.count == 2, litasFirst != (amounts[1].code == pivot) else { throw .layout("<FxRate> of \(day) is no LTL pair") }
            let (currency, direction) = litasFirst ? (amounts[1].code, PublishedQuote.Direction.pivotPerUnits) : (amounts[0].code, .unitsPerPivot)
            let unit = try PublishedText.unit(amounts[1].amount, of: currency, day: day)
            return (day, try .reading(amounts[0].amount, of: currency, unit: unit, direction: direction, day: day))
        })
    }
}
