import RatesCore

/// The National Bank of Ethiopia's daily exchange rates of the birr (19 currencies and the SDR).
///
/// - Source: `https://api.nbe.gov.et/api/filter-exchange-rates?date=YYYY-MM-DD`, one day's rates: `{"success":true,"message":"OK","status":200,
///   "data":[{"buying":"157.227","selling":"158.7993","date":"2026-05-18","weighted_average":"157.227",
///   "currency":{"name":"US DOLLAR","code":"USD"},…},…]}`. A day without rates (a holiday, a weekend) is an empty `data`: no publication.
/// - Quote convention: `weighted_average`, birr for one unit of the currency, ``PublishedQuote/Direction/pivotPerUnits``; the buying and selling
///   rates are not read. The SDR is published under its ISO 4217 code, `XDR`. A row whose `weighted_average` is `null`, empty or zero (as around the
///   float of July to September 2024, when some currencies had no weighted average) has no figure and is left out; a day of such rows alone is no
///   publication. Any other value that is not a positive decimal rejects the answer.
/// - Day: each row's `date`.
/// - Schedule: Africa/Addis_Ababa, Monday to Friday, the day's rates out by about 13:00. Rates since the birr floated are asked for (from
///   2024-10-01).
/// - Ranges: one request per Monday to Friday in the range; the newest publication is asked for as the last seven days' working days up to today.
public struct NBEProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latestDays: 6, today: today(), on: PublicationSchedule.workingDays).map { day in
            ProviderRequest(url: baseURL + "/api/filter-exchange-rates?date=" + day.text(.iso))
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let success = try document.field("success", of: "the answer")
        guard success == .bool(true) else {
            throw .layout("\"success\" is \(success.shown), not true")
        }
        let rows = try document.field("data", of: "the answer").array("\"data\"")
        var days: [Day: [PublishedQuote]] = [:]
        for (index, row) in rows.enumerated() {
            let what = "row \(index + 1)"
            let day = try Day(parsing: try row.string("date", of: what), .iso)
            let code = try row.field("currency", of: what).field("code", of: "\(what)'s \"currency\"")
                .string("\(what)'s currency code")
            let value = try row.field("weighted_average", of: "\(code) on \(day)")
            guard !Self.isNoFigure(value) else { continue }
            days[day, default: []].append(try .reading(code: code, value: value, direction: .pivotPerUnits, day: day))
        }
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }

    /// Whether a `weighted_average` gives no figure: `null`, empty, or zero (`"0"`, `"0.0000"`, `0`).
    static func isNoFigure(_ value: ProviderJSON) -> Bool {
        let text: String
        switch value {
        case .null: return true
        case .string(let literal), .number(let literal): text = literal
        default: return false
        }
        return text.isEmpty || (text.first == "0" && text.allSatisfy { $0 == "0" || $0 == "." } && text.filter { $0 == "." }.count <= 1)
    }
}
