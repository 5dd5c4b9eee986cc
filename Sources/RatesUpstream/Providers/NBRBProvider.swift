import RatesCore

/// The National Bank of the Republic of Belarus's official exchange rates, in BYN.
///
/// - Source: `https://api.nbrb.by/exrates/rates?periodicity=0` for today's daily rates (about 30 currencies) and `…&ondate=YYYY-MM-DD` for another
///   day's: `[{"Cur_ID":440,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"AUD","Cur_Scale":1,"Cur_Name":…,"Cur_OfficialRate":2.0700}, …]`. The
///   all-currency answer is one day at a time, so a range makes one request per working day, Monday to Friday. The bank's history of one currency,
///   `https://api.nbrb.by/exrates/rates/dynamics/{Cur_ID}?startDate=…&endDate=…`, is read too (for `rates-relay import`): one row per calendar day,
///   `{"Cur_ID":440,"Date":"2026-03-01T00:00:00","Cur_OfficialRate":2.0310}`, without code or scale. The bank gives a currency a new `Cur_ID` when
///   its scale changes, so ``currencies`` (the IDs of the daily list) says both; a row of an ID not in it rejects the answer.
/// - Quotes: `Cur_OfficialRate`, BYN per `Cur_Scale` units (``PublishedQuote/Direction/pivotPerUnits``; 10 DKK, 100 JPY, 1000 AMD, 100 000 IRR…),
///   code `Cur_Abbreviation`.
/// - Day: `Date`, the day the rate is official for (`2026-03-17T00:00:00`); the bank sets it the working day before.
/// - Schedule: Europe/Minsk, Monday to Friday, the day's rates out by about 12:00.
/// - History: from 2016-07-01 (``historyStart``), the redenominated rouble (BYN); the bank's earlier rates are in the old rouble (BYR) under other
///   IDs, and an answer holding such a day is rejected.
/// - Skipped, as not publications: Saturdays and Sundays, whose official rates repeat Friday's. So an answer for a weekend day (`.latest` fetched on
///   a Saturday), or an empty list, is no publication.
public struct NBRBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies of the daily list by `Cur_ID`, with their scale: what a `dynamics` row, which names neither, is.
    public static let currencies: [Int: (code: CurrencyCode, scale: Int)] = ([
        371: ("CAD", 1), 394: ("KWD", 1), 421: ("SGD", 1), 426: ("CHF", 1), 429: ("GBP", 1), 431: ("USD", 1), 440: ("AUD", 1),
        448: ("NZD", 1), 449: ("UAH", 100), 450: ("DKK", 10), 451: ("EUR", 1), 452: ("PLN", 10), 453: ("ISK", 100), 454: ("MDL", 10),
        455: ("NOK", 10), 456: ("RUB", 100), 457: ("XDR", 1), 458: ("KGS", 100), 459: ("KZT", 1000), 460: ("TRY", 10), 461: ("IRR", 100_000),
        462: ("CNY", 10), 463: ("CZK", 100), 464: ("SEK", 10), 508: ("JPY", 100), 510: ("AMD", 1000), 511: ("INR", 100), 512: ("VND", 100_000),
        513: ("AED", 10), 514: ("BRL", 10),
    ] as [Int: (code: String, scale: Int)]).mapValues { (CurrencyCode($0.code)!, $0.scale) }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let url = baseURL + "/rates?periodicity=0"
        return window.requests(latest: [ProviderRequest(url: url)], eachDayOn: schedule.weekdays) { ProviderRequest(url: url + "&ondate=\($0)") }
    }

    /// Reads a daily list or a currency's `dynamics`: an array of rows, each with `Cur_ID`, `Date` and `Cur_OfficialRate`.
    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        var rows: [(day: Day, quote: PublishedQuote)] = []
        for (index, row) in try ProviderJSON(answer: body).array("the answer").enumerated() {
            let what = "rate \(index + 1)"
            let day = try Day(parsing: row.string("Date", of: what), .midnightTimestamp)
            let rate = try row.field("Cur_OfficialRate", of: what)
            let (code, scale): (String, Int)
            if row["Cur_Abbreviation"] != nil {
                (code, scale) = (try row.string("Cur_Abbreviation", of: what), try row.integer("Cur_Scale", of: what))
            } else {
                let id = try row.integer("Cur_ID", of: what)
                guard let currency = Self.currencies[id] else { throw .layout("\(what) (\(day)) is of Cur_ID \(id), not in the daily list") }
                (code, scale) = (currency.code.rawValue, currency.scale)
            }
            let quote = try PublishedQuote.reading(code: code, value: rate, unit: scale, direction: .pivotPerUnits, day: day)
            if day.isoWeekday <= 5 { rows.append((day, quote)) }
        }
        return ProviderPublication.byDay(rows)
    }
}
