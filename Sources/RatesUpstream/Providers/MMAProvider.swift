import RatesCore

/// The Maldives Monetary Authority's reference rate of the rufiyaa against the US dollar.
///
/// - Source: `https://www.mma.gov.mv/JSON/referencerates.json?v=YYYYMMDD`, the whole history since
///   2011-04-21 as one JSON array, newest first: `[{"Date": "21 May 2026", "Rate": "15.42"}, …]`
///   (`v` is only the website's cache key; it is today's date here). Dates are a day of two digits, the
///   English month name and the year.
/// - Quote convention: `Rate` rufiyaa for one US dollar, ``PublishedQuote/Direction/pivotPerUnits``;
///   the authority publishes no other currency (the rufiyaa is managed against the dollar).
///   The file lists a few days twice with the same rate (8 and 9 February 2021): such a repeat is read
///   once; a day listed twice with different rates rejects the answer.
/// - Schedule: Indian/Maldives, Sunday to Thursday (the Maldivian working week), the day's rate out
///   by about 08:00.
/// - Ranges: the same file; a fetch keeps the range's days.
public struct MMAProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        [ProviderRequest(url: baseURL + "/JSON/referencerates.json?v=" + today().text(.compact))]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let rows = try ProviderJSON(answer: body).array("the answer")
        var rates: [Day: String] = [:]
        for (index, row) in rows.enumerated() {
            let day = try Self.day(try row.string("Date", of: "row \(index + 1)"))
            let value = try row.field("Rate", of: "\(day)")
            guard let rate = value.publishedDecimal else { throw .invalidRate(currency: .usDollar, day: day, text: value.shown) }
            if let earlier = rates[day], earlier != rate { throw .duplicateDay(day) }
            rates[day] = rate
        }
        return rates.map { day, rate in
            ProviderPublication(day: day, currency: .usDollar, value: rate, direction: .pivotPerUnits)
        }
    }

    /// `21 May 2026`: a day of one or two digits, the English month name, a four-digit year.
    static func day(_ text: String) throws(UpstreamDataError) -> Day {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...2).contains(parts[0].utf8.count), parts[2].utf8.count == 4,
            PublishedText.isDigits(parts[0]), PublishedText.isDigits(parts[2]),
            let month = Day.ProviderFormat.monthNames.firstIndex(of: String(parts[1])),
            let day = Day(year: Int(parts[2])!, month: month + 1, day: Int(parts[0])!)
        else { throw .invalidDay(text) }
        return day
    }
}
