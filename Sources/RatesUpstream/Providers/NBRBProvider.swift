import RatesCore

/// The National Bank of the Republic of Belarus's official exchange rates, in BYN.
///
/// - Source: `https://api.nbrb.by/exrates/rates?periodicity=0` for today's daily rates (about 30
///   currencies) and `…&ondate=YYYY-MM-DD` for another day's. The all-currency answer is one day
///   at a time (the `dynamics` history is per currency and carries no scale), so a range makes one
///   request per working day, Monday to Friday.
/// - Quotes: `Cur_OfficialRate`, BYN per `Cur_Scale` units (``PublishedQuote/Direction/pivotPerUnits``;
///   10 DKK, 100 JPY, 1000 AMD, 100 000 IRR…), code `Cur_Abbreviation`.
/// - Day: `Date`, the day the rate is official for (`2026-03-17T00:00:00`); the bank sets it the
///   working day before.
/// - Schedule: Europe/Minsk, Monday to Friday, the day's rates out by about 12:00.
///
/// Skipped, as not publications: Saturdays and Sundays, whose official rates repeat Friday's. So an
/// answer for a weekend day (`.latest` fetched on a Saturday) holds nothing new and is rejected as
/// empty.
public struct NBRBProvider: RatesProvider {
    public let key = "NBRB"
    public let name = "National Bank of the Republic of Belarus"
    public let country: String? = "BY"
    public let pivot = CurrencyCode("BYN")!
    public let rateType = "official rate"
    public let schedule = PublicationSchedule(timeZone: "Europe/Minsk", expectedMinute: 12 * 60)

    let endpoint: String

    /// - Parameter baseURL: replaces `https://api.nbrb.by/exrates` (for tests).
    public init(baseURL: String? = nil) {
        endpoint = (baseURL ?? "https://api.nbrb.by/exrates") + "/rates?periodicity=0"
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        switch window {
        case .latest:
            return [ProviderRequest(url: endpoint)]
        case .range(let first, let last):
            return Day.days(from: first, through: last, on: PublicationSchedule.workingDays).map { ProviderRequest(url: endpoint + "&ondate=\($0)") }
        }
    }

    /// Reads `[{"Cur_ID":440,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"AUD","Cur_Scale":1,"Cur_Name":…,"Cur_OfficialRate":2.0700}, …]`.
    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        var days: [Day: [PublishedQuote]] = [:]
        for (index, row) in try ProviderJSON(parsing: body, provider: key).array("the answer", provider: key).enumerated() {
            let what = "rate \(index + 1)"
            let dayText = try row.field("Date", of: what, provider: key).string("\(what)'s \"Date\"", provider: key)
            let day = try Day(parsing: dayText, .midnightTimestamp)
            let code = try row.field("Cur_Abbreviation", of: what, provider: key).string("\(what)'s \"Cur_Abbreviation\"", provider: key)
            let scale = try row.field("Cur_Scale", of: what, provider: key).integer("\(what)'s \"Cur_Scale\"", provider: key)
            let rate = try row.field("Cur_OfficialRate", of: what, provider: key)
            let quote = try PublishedQuote.reading(code: code, value: rate, unit: scale, direction: .pivotPerUnits, day: day)
            if day.isoWeekday <= 5 { days[day, default: []].append(quote) }
        }
        return try ProviderValidation.validate(days.map { ProviderPublication(day: $0.key, quotes: $0.value) })
    }
}
