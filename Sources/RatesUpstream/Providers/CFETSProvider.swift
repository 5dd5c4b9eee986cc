import RatesCore

/// The central parity rates of the renminbi (25 currencies), set by the People's Bank of China and published by the China Foreign Exchange Trade
/// System (chinamoney.com.cn).
///
/// - Source:
///   `POST https://www.chinamoney.com.cn/ags/ms/cm-u-bk-ccpr/CcprHisNew?startDate=YYYY-MM-DD&endDate=YYYY-MM-DD&currency=&pageNum=1&pageSize=50` (an
///   empty body; every pair when `currency` is blank), answering the span's days, newest first, at most 50 a page:
///   `{"head":{"rep_code":"200",…},"data":{"head":["USD/CNY","EUR/CNY","100JPY/CNY",…,"CNY/MOP",…],"pageTotal":1,…},"records":[{"date":"2026-09-04","values":["6.7787","7.8397","4.3135",…]},…]}`:
///   each record's `values` in the order of `data.head`. A request covers 50 days at most, so that its answer fits on one page (the endpoint takes no
///   more than 50 a page); a page of a longer span, as a file, reads as the days it holds.
/// - Quote convention: by the pair's label. `USD/CNY`: yuan for one dollar, and `100JPY/CNY` yuan for 100 yen,
///   ``PublishedQuote/Direction/pivotPerUnits`` with that unit; `CNY/MOP`: patacas for one yuan, ``PublishedQuote/Direction/unitsPerPivot``. A label
///   of any other shape (a unit on the quoted side, no `CNY`) rejects the answer. A value `---` (no parity that day for that pair) is skipped.
/// - Day: the record's `date`.
/// - Schedule: Asia/Shanghai, Monday to Friday, the parity announced at 09:15.
/// - Ranges: one request per 50 days; the newest publication is asked for as the last seven days up to today.
public struct CFETSProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public let emptyAnswerIsNoPublication = true

    /// The endpoint's address (`…/ags/ms/cm-u-bk-ccpr/CcprHisNew`).
    var endpoint: String { baseURL + "/ags/ms/cm-u-bk-ccpr/CcprHisNew" }

    /// The most days one request covers: one page.
    static let maxDays = 50

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.spans(latestDays: 7, today: today(), maxDays: Self.maxDays).map { span in
            let query = "startDate=\(span.first.text(.iso))&endDate=\(span.last.text(.iso))&currency=&pageNum=1&pageSize=\(Self.maxDays)"
            return ProviderRequest(url: "\(endpoint)?\(query)", method: .post, headers: ["Accept": "application/json"])
        }
    }

    /// How one pair's figures read.
    struct Pair {
        let currency: CurrencyCode
        let unit: Int
        let direction: PublishedQuote.Direction
    }

    /// `USD/CNY`, `100JPY/CNY`, `CNY/MOP`.
    func pair(_ label: String) throws(UpstreamDataError) -> Pair {
        let sides = label.split(separator: "/", omittingEmptySubsequences: false)
        if sides.count == 2, sides[1] == pivot.rawValue {
            let digits = sides[0].prefix { $0.isASCII && $0.isNumber }
            if let currency = CurrencyCode(sides[0].dropFirst(digits.count)), digits.first != "0", let unit = digits.isEmpty ? 1 : Int(digits) {
                return Pair(currency: currency, unit: unit, direction: .pivotPerUnits)
            }
        } else if sides.count == 2, sides[0] == pivot.rawValue, let currency = CurrencyCode(sides[1]) {
            return Pair(currency: currency, unit: 1, direction: .unitsPerPivot)
        }
        throw .layout("the pair \(UpstreamDataError.quoted(label)) is not one the adapter reads")
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let code = try document.field(at: "head", "rep_code")
        guard code == .string("200") else { throw .layout("\"head\".\"rep_code\" is \(code.shown), not 200") }
        let data = try document.field("data", of: "the answer")
        let records = try document.field("records", of: "the answer")
        guard !records.isNull else { throw .layout("no records: \(UpstreamDataError.quoted(data["flagMessage"]?.shown ?? ""))") }
        let labels = try data.field("head", of: "\"data\"").array("\"data\".\"head\"")
        let pairs = try labels.map { label throws(UpstreamDataError) in try pair(label.string("a pair's label")) }
        return try records.array("\"records\"").enumerated().map { index, record throws(UpstreamDataError) in
            let what = "record \(index + 1)"
            let day = try Day(parsing: try record.string("date", of: what), .iso)
            let values = try record.field("values", of: "\(day)").array("the values of \(day)")
            guard values.count == pairs.count else { throw .layout("\(day) has \(values.count) values for \(pairs.count) pairs") }
            // A value `---`: no parity that day for that pair.
            let quotes = try zip(pairs, values).filter { _, value in value != .string("---") }.map { pair, value throws(UpstreamDataError) in
                try PublishedQuote.reading(code: pair.currency.rawValue, value: value, unit: pair.unit, direction: pair.direction, day: day)
            }
            return ProviderPublication(day: day, quotes: quotes)
        }
    }
}
