import RatesCore

/// Sveriges Riksbank's daily exchange rates (group 130, "currencies against the Swedish krona"), in SEK.
///
/// - Source: the SWEA API, `https://api.riksbank.se/swea/v1/Observations/ByGroup/130/{from}/{to}`
///   for a range (one request for any span) and `…/Observations/Latest/ByGroup/130` for the
///   newest observation of each series.
/// - Quotes: series `SEKxxxPMI`, SEK per 1 unit of `xxx` (``PublishedQuote/Direction/pivotPerUnits``,
///   unit 1; the API gives the yen, the won and the rupiah per single unit too), values as JSON numbers.
///   The bank fills a successor's series with its predecessor's figures: `SEKEURPMI` before the euro's first
///   day, 1999-01-04, is the ECU (`XEU`), and `SEKRUBPMI` before 1998-01-01 the old rouble (`RUR`, 1000 to the
///   new one), and they are read as those codes (``Redenomination``).
/// - Day: the observation's `date`. History from 1993-01-04 (``historyStart``).
/// - Schedule: Europe/Stockholm, Monday to Friday, out by about 16:15.
///
/// Skipped: `SEKETT`, the group's "SEK per 1 SEK" series, always 1, and an observation whose `value` is
/// `null`. An empty list (a range of holidays) is no publication.
public struct RBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: "\(baseURL)/Observations/Latest/ByGroup/130")]) { first, last in
            [ProviderRequest(url: "\(baseURL)/Observations/ByGroup/130/\(first)/\(last)")]
        }
    }

    /// Reads `[{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":9.35344}, …]`, one observation per series and day.
    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        var days: [Day: [PublishedQuote]] = [:]
        for (index, observation) in try ProviderJSON(answer: body).array("the answer").enumerated() {
            let what = "observation \(index + 1)"
            let series = try observation.string("seriesId", of: what)
            let day = try Day(parsing: observation.string("date", of: what), .iso)
            let value = try observation.field("value", of: what)
            if series == "SEKETT" || value == .null { continue }
            let letters = Array(series.utf8)
            guard letters.count == 9, series.hasPrefix("SEK"), series.hasSuffix("PMI") else {
                throw .layout("\(what) is of series \(UpstreamDataError.quoted(series)), not SEKxxxPMI")
            }
            let code = Redenomination.code(String(decoding: letters[3..<6], as: UTF8.self), on: day)
            days[day, default: []].append(try .reading(code: code, value: value, direction: .pivotPerUnits, day: day))
        }
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
