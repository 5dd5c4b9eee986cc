import RatesCore

/// The Hong Kong Monetary Authority's end-of-day exchange rates, in HKD, from its Monthly Statistical Bulletin.
///
/// - Source: `https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily`:
///   `?offset=0&pagesize=10&sortby=end_of_day&sortorder=desc` for the newest days,
///   `?choose=end_of_day&from=…&to=…&offset=0&pagesize=1000&sortby=end_of_day&sortorder=desc` for a range, one request per 1000 days (the page size,
///   so a page always holds the whole span).
/// - Quotes: HKD per 1 unit (``PublishedQuote/Direction/pivotPerUnits``, unit 1), one field per currency named by its lower-case code (`usd`, `jpy`),
///   and `special_drawing_rights`, stored as `XDR`.
/// - Day: the record's `end_of_day` (Saturdays included when the HKMA records them).
/// - Schedule: Asia/Hong_Kong; the bulletin is monthly, a month's daily figures appear early in a later month (about a month's lag).
/// - History: from 1981-01-02 (``historyStart``); before 1999 legacy currencies (`dem`, `frf`, `itl`, `nlg`, `bef`) have figures and `eur` is `null`.
/// - Skipped: the `neeri_*` fields (effective exchange rate indices, not currencies) and `null` fields: the legacy currencies after they ceased, the
///   euro before it began, the SDR on days the IMF has no rate. A record with no currency's figure (only indices, or nothing) is no publication for
///   its day, and a page without records (a range the bulletin does not cover yet) is none at all.
public struct HKMAProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    var endpoint: String { baseURL + "/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily" }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: endpoint + "?offset=0&pagesize=10&sortby=end_of_day&sortorder=desc")]) { first, last in
            Day.spans(from: first, through: last, maxDays: 1000).map { span in
                let query = "choose=end_of_day&from=\(span.first)&to=\(span.last)&offset=0&pagesize=1000&sortby=end_of_day&sortorder=desc"
                return ProviderRequest(url: endpoint + "?" + query)
            }
        }
    }

    /// Reads `{"header":{"success":true,…},"result":{"datasize":4,"records":[{"end_of_day":"2026-02-28","usd":7.8245000000000005,…,
    /// "neeri_2020_trade_wgt":101.2}, …]}}`.
    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let header = try document.field("header", of: "the answer")
        guard try header.field("success", of: "\"header\"") == .bool(true) else {
            throw .layout("the answer reports failure: \(UpstreamDataError.quoted(header["err_msg"]?.shown ?? "no message"))")
        }
        return try document.field(at: "result", "records").array("\"records\"").enumerated().map { index, record throws(UpstreamDataError) in
            let what = "record \(index + 1)"
            let day = try Day(parsing: record.string("end_of_day", of: what), .iso)
            var quotes: [PublishedQuote] = []
            for member in try record.members(what) where member.key != "end_of_day" && !member.key.hasPrefix("neeri_") {
                let isCode = member.key.utf8.count == 3 && member.key.utf8.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
                guard isCode || member.key == "special_drawing_rights" else {
                    throw .layout("\(what) (\(day)) has the field \(UpstreamDataError.quoted(member.key)), not a currency")
                }
                if member.value.isNull { continue }
                quotes.append(try .reading(code: isCode ? member.key.uppercased() : "XDR", value: member.value, direction: .pivotPerUnits, day: day))
            }
            return quotes.isEmpty ? nil : ProviderPublication(day: day, quotes: quotes)
        }.compactMap { $0 }
    }
}
