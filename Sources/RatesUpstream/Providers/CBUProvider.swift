import RatesCore

/// The Central Bank of Uzbekistan's official exchange rates, in UZS.
///
/// - Source: `https://cbu.uz/en/arkhiv-kursov-valyut/json/all/YYYY-MM-DD/`, the rates of one day
///   (about 75 currencies), and `https://cbu.uz/en/arkhiv-kursov-valyut/json/` for today's
///   (`.latest`). The archive answers one day at a time, so a range makes one request per
///   working day (Monday to Friday).
/// - Quotes: `Rate`, UZS per `Nominal` units (``PublishedQuote/Direction/pivotPerUnits``; 10 for
///   the rupiah, the rial and the dong), both as strings (`"12194.21"`, `"1"`).
/// - Day: `Date`, written `DD.MM.YYYY`. The archive goes back to 1994-07-01 (``historyStart``, the som's
///   first day); a day it has no rates for is answered `[]`, no publication.
/// - Schedule: Asia/Tashkent, Monday to Friday, usually out by about 14:00.
public struct CBUProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    var endpoint: String { baseURL + "/json/" }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: endpoint)], eachDayOn: PublicationSchedule.workingDays) { day in
            ProviderRequest(url: endpoint + "all/\(day)/")
        }
    }

    /// Reads `[{"id":69,"Code":"840","Ccy":"USD","Nominal":"1","Rate":"12194.21","Diff":"-16.5","Date":"01.04.2026",…}, …]`.
    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        var days: [Day: [PublishedQuote]] = [:]
        for (index, row) in try ProviderJSON(answer: body).array("the answer").enumerated() {
            let what = "row \(index + 1)"
            let day = try Day(parsing: row.string("Date", of: what), .dayMonthYear(separator: "."))
            let code = try row.string("Ccy", of: what)
            let nominal = try row.integer("Nominal", of: what)
            let rate = try row.field("Rate", of: what)
            guard case .string = rate else { throw .layout("\(what)'s \"Rate\" is \(rate.kind), not a string") }
            days[day, default: []].append(try .reading(code: code, value: rate, unit: nominal, direction: .pivotPerUnits, day: day))
        }
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
