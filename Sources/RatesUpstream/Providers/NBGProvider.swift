import RatesCore

/// The National Bank of Georgia's official exchange rates, in GEL.
///
/// - Source: `https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/?date=YYYY-MM-DD`, the rates
///   valid on that day; without `date`, the rates valid today (`.latest`). The API answers one
///   day at a time, so a range makes one request per day, Sundays left out (a Sunday's answer is
///   the Saturday's set, which the Saturday's or the Monday's request also returns).
/// - Quotes: `rate`, GEL per `quantity` units (``PublishedQuote/Direction/pivotPerUnits``; 10 AED,
///   100 JPY, 1000 AMD, 10 000 IRR…), a JSON number written as the bank formats it (`rateFormated`).
/// - Day: the set's `date`, the day its rates apply from, which each currency's `validFromDate` repeats
///   (a currency whose rate was not reset keeps an earlier `validFromDate`: its rate is still the one in
///   force, read under the set's day; a later one rejects the answer). The bank sets them on a working day
///   (about 17:00) for the next day, so a Friday's set is valid from the
///   Saturday (and through the Monday): the answers have Saturdays and no Mondays.
/// - Schedule: Asia/Tbilisi, Monday to Friday, set by about 17:15.
/// - History: from 1995-10-14 (``historyStart``). For a day without rates (before that, or one the bank has no
///   set for) the API answers an empty list: no publication.
public struct NBGProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    var endpoint: String { baseURL + "/currencies/" }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: endpoint)], eachDayOn: [1, 2, 3, 4, 5, 6]) { day in
            ProviderRequest(url: endpoint + "?date=\(day)")
        }
    }

    /// Reads `[{"date":"2026-02-28T00:00:00.000Z","currencies":[{"code":"AED","quantity":10,"rate":7.2853,"validFromDate":"2026-02-28T00:00:00.000Z",…}]}]`.
    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        try ProviderJSON(answer: body).array("the answer").enumerated().map { index, entry throws(UpstreamDataError) in
            let what = "entry \(index + 1)"
            let dayText = try entry.string("date", of: what)
            let day = try Day(parsing: dayText, .midnightTimestamp)
            let quotes = try entry.field("currencies", of: what).array("\(what)'s \"currencies\"").map { currency throws(UpstreamDataError) in
                let code = try currency.field("code", of: "a currency of \(what)").string("a currency's \"code\"")
                let validFrom = try currency.field("validFromDate", of: "currency \(code)").string("\(code)'s \"validFromDate\"")
                guard try Day(parsing: validFrom, .midnightTimestamp) <= day else {
                    throw .layout(
                        "\(code) is valid from \(UpstreamDataError.quoted(validFrom)), after the answer's date \(dayText)")
                }
                let quantity = try currency.field("quantity", of: "currency \(code)").integer("\(code)'s \"quantity\"")
                let rate = try currency.field("rate", of: "currency \(code)")
                return try PublishedQuote.reading(code: code, value: rate, unit: quantity, direction: .pivotPerUnits, day: day)
            }
            return ProviderPublication(day: day, quotes: quotes)
        }
    }
}
