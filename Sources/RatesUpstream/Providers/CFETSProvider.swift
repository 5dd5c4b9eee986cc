import RatesCore

/// The renminbi's central parity rates (25 currencies), set by the People's Bank of China and published by the China Foreign Exchange Trade System.
///
/// - Source: `https://www.chinamoney.com.cn/ags/ms/cm-u-bk-ccpr/CcprHisNew?startDate=YYYY-MM-DD&endDate=YYYY-MM-DD&currency=&pageNum=1&pageSize=50`
///   as a `POST` (an empty body; every pair when `currency` is blank), answering the span's days, newest first, at most 50 a page:
///   `{"head":{"rep_code":"200",…},"data":{"head":["USD/CNY","EUR/CNY","100JPY/CNY",…,"CNY/MOP",…],"pageTotal":1,…},
///   "records":[{"date":"2026-09-04","values":["6.7787","7.8397","4.3135",…]},…]}`: each record's `values` in the order of `data.head`.
/// - Quote convention: by the pair's label. `USD/CNY`: yuan for one dollar, and `100JPY/CNY` yuan for 100 yen,
///   ``PublishedQuote/Direction/pivotPerUnits`` with that unit; `CNY/MOP`: patacas for one yuan, ``PublishedQuote/Direction/unitsPerPivot``. A label
///   of any other shape (a unit on the quoted side, no `CNY`) rejects the answer. A value `---` (no parity that day for that pair) is skipped.
/// - Schedule: Asia/Shanghai, Monday to Friday, the parity announced at 09:15; a publication's day is the record's `date`.
/// - Ranges: one request per 50 days at most, so that its answer fits on one page (the endpoint takes no more than 50 a page); the newest publication
///   is asked for as the last seven days up to today. A page of a longer span, as a file, reads as the days it holds.
public struct CFETSProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let pageSize = 50
        return window.spans(latestDays: 7, today: today(), maxDays: pageSize).map { first, last in
            let query = "startDate=\(first.text(.iso))&endDate=\(last.text(.iso))&currency=&pageNum=1&pageSize=\(pageSize)"
            return ProviderRequest(url: "\(baseURL)/ags/ms/cm-u-bk-ccpr/CcprHisNew?\(query)", method: .post, headers: ["Accept": "application/json"])
        }
    }

    /// How the figures of the pair labelled `label` read: `USD/CNY`, `100JPY/CNY`, `CNY/MOP`.
    func pair(_ label: String) throws(UpstreamDataError) -> (currency: CurrencyCode, unit: Int, direction: PublishedQuote.Direction) {
        let sides = label.split(separator: "/", omittingEmptySubsequences: false)
        let digits = sides[0].prefix { $0.isASCII && $0.isNumber }
        if sides.count == 2, sides[1] == pivot.rawValue, let currency = CurrencyCode(sides[0].dropFirst(digits.count)), digits.first != "0",
            let unit = digits.isEmpty ? 1 : Int(digits) {
            return (currency, unit, .pivotPerUnits)
        }
        if sides.count == 2, sides[0] == pivot.rawValue, let currency = CurrencyCode(sides[1]) { return (currency, 1, .unitsPerPivot) }
        throw .layout("the pair \(UpstreamDataError.quoted(label)) is not one the adapter reads")
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let code = try document.field(at: "head", "rep_code")
        guard code == .string("200") else { throw .layout("\"head\".\"rep_code\" is \(code.shown), not 200") }
        let records = try document.field("records", of: "the answer")
        guard !records.isNull else { throw .layout("no records: \(UpstreamDataError.quoted(document["data"]?["flagMessage"]?.shown ?? ""))") }
        let labels = try document.field(at: "data", "head").array("\"data\".\"head\"")
        let pairs = try labels.map { label throws(UpstreamDataError) in try pair(label.string("a pair's label")) }
        return try records.array("\"records\"").enumerated().map { index, record throws(UpstreamDataError) in
            let day = try Day(parsing: try record.string("date", of: "record \(index + 1)"), .iso)
            let values = try record.field("values", of: "\(day)").array("the values of \(day)")
            guard values.count == pairs.count else { throw .layout("\(day) has \(values.count) values for \(pairs.count) pairs") }
            let quoted = zip(pairs, values).filter { $1 != .string("---") }
            return ProviderPublication(day: day, quotes: try quoted.map { pair, value throws(UpstreamDataError) in
                try PublishedQuote.reading(code: pair.currency.rawValue, value: value, unit: pair.unit, direction: pair.direction, day: day)
            })
        }
    }
}
