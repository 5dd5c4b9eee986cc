import RatesCore

/// The Monetary Authority of Macao's (AMCM) interbank middle rates of the pataca: 17 currencies.
///
/// - Source: `https://www.amcm.gov.mo/api/v1.0/cms/financial_info?Begin=20260518&End=20260522&QueryType=1` (days as YYYYMMDD, both included), JSON:
///   `{"message":"OK","data":[{"id":228934,"date":"2026-05-22 00:00:00",
///   "currency":"AUD","unit":1.0,"usdMean":"5.7635","usdMeanValue":5.76350000,"bid":"0.7141"},…]}`, one record per currency and day, newest day
///   first. An empty `data` (a span of weekends and holidays only) is no publication.
/// - Quote convention: `usdMean` (despite its name) is the middle rate in patacas for `unit` units of the currency, read as the text it is written in
///   (`"10.8350"`, trailing zeros kept): 5.7635 MOP per 1 AUD, 5.0727 MOP per 100 JPY; ``RatesCore/PublishedQuote/Direction/pivotPerUnits`` with unit
///   `unit` (written `1.0`, `100.0`). `usdMeanValue` (the same figure as a number) and `bid` (the market quote against the dollar) are not read.
///   `LIQ`, a liquidity indicator among the currencies with unit `0.0` and mean `0.0000`, is not a currency and is skipped; any other record with a
///   zero unit or figure rejects the answer.
/// - Schedule: Asia/Macau, Monday to Friday, usually by 11:00 local time; a record's `date` is the day the rates were set.
/// - Ranges: one request per span of at most 90 days (the API answers about four months at most); the newest publication is asked for as the last
///   seven days up to today. The history goes back to 1986-01-02; an answer with days before 1999-01-04 (the ECU among their currencies) is rejected,
///   as for every source.
public struct AMCMProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.spans(latestDays: 7, today: today(), maxDays: 90).map { first, last in
            ProviderRequest(url: "\(baseURL)/api/v1.0/cms/financial_info?Begin=\(first.text(.compact))&End=\(last.text(.compact))&QueryType=1")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let message = try document.field("message", of: "the answer")
        guard message == .string("OK") else { throw .layout("the answer's message is \(UpstreamDataError.quoted(message.shown)), not OK") }
        var rows: [(day: Day, quote: PublishedQuote)] = []
        for (index, record) in try document.field("data", of: "the answer").array("\"data\"").enumerated() {
            let what = "record \(index + 1)"
            let stamp = try record.string("date", of: what)
            guard stamp.hasSuffix(" 00:00:00") else { throw .invalidDay(stamp) }
            let day = try Day(parsing: stamp.dropLast(9), .iso)
            let code = try record.string("currency", of: what)
            if code == "LIQ" { continue }
            let unit = try Self.unit(record.field("unit", of: "\(code) on \(day)"), of: code, day: day)
            let currency = try PublishedText.currency(code, day: day)
            let mean = try record.string("usdMean", of: "\(code) on \(day)")
            rows.append((day, PublishedQuote(currency: currency, value: mean, unit: unit, direction: .pivotPerUnits)))
        }
        return ProviderPublication.byDay(rows)
    }

    /// A unit written as a JSON number with a zero fraction (`1.0`, `100.0`, `100`); anything else, or zero, rejects the answer.
    static func unit(_ value: ProviderJSON, of code: String, day: Day) throws(UpstreamDataError) -> Int {
        let parts = value.numberText?.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false) ?? []
        guard parts.count == 1 || (parts.count == 2 && ProviderValidation.isZero(parts[1])), (1...10).contains(parts[0].count),
            PublishedText.isDigits(parts[0]), let unit = Int(parts[0]), unit > 0
        else { throw .layout("the unit of \(code) on \(day) is \(UpstreamDataError.quoted(value.shown)), not a whole number") }
        return unit
    }
}
