import RatesCore

/// The Bank of Canada's daily exchange rates, in CAD.
///
/// - Source: the Valet API's group `FX_RATES_DAILY`,
///   `https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json`: `?recent=1` for
///   the newest day, `?start_date=…&end_date=…` for a range (one request for any span). A range without a
///   business day (a weekend, 25–26 December) is answered with `"observations": []`: no publication.
/// - Quotes: series `FXxxxCAD`, CAD per 1 unit of `xxx` (``PublishedQuote/Direction/pivotPerUnits``,
///   unit 1), each value a string (`"v": "1.3706"`).
/// - Day: the observation's `d`.
/// - Schedule: America/Toronto, Monday to Friday, published by 16:30.
///
/// A series the group lists but does not observe on a day (in 2026 the ringgit, the baht and the
/// dong) is simply absent from that day's observation: there is no figure to read.
public struct BOCProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The group's observations endpoint.
    var endpoint: String { baseURL + "/observations/group/FX_RATES_DAILY/json" }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: endpoint + "?recent=1")]) { first, last in
            [ProviderRequest(url: endpoint + "?start_date=\(first)&end_date=\(last)")]
        }
    }

    /// Reads `{"observations": [{"d": "2026-03-12", "FXUSDCAD": {"v": "1.3706"}, …}, …]}`.
    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let observations = try ProviderJSON(answer: body).field("observations", of: "the answer").array("\"observations\"")
        // A range without a business day (a weekend, 25–26 December): no observations, no publication.
        return try observations.enumerated().map { index, observation throws(UpstreamDataError) in
            let what = "observation \(index + 1)"
            let day = try Day(parsing: observation.string("d", of: what), .iso)
            let quotes = try observation.members(what).filter { $0.key != "d" }.map { member throws(UpstreamDataError) -> PublishedQuote in
                let series = Array(member.key.utf8)
                guard series.count == 8, member.key.hasPrefix("FX"), member.key.hasSuffix("CAD") else {
                    throw .layout("\(what) (\(day)) has series \(UpstreamDataError.quoted(member.key)), not FXxxxCAD")
                }
                let value = try member.value.field("v", of: "\(member.key) on \(day)")
                return try .reading(code: String(decoding: series[2..<5], as: UTF8.self), value: value, direction: .pivotPerUnits, day: day)
            }
            return ProviderPublication(day: day, quotes: quotes)
        }
    }
}
