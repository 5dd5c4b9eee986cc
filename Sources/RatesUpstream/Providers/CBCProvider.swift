import RatesCore

/// The Central Bank of the Republic of China (Taiwan)'s daily closing rates of the interbank spot market, against the US dollar: the New Taiwan
/// dollar and 17 currencies of its main trading partners.
///
/// - Source: `https://cpx.cbc.gov.tw/API/DataAPI/Get?FileName=BP01D01`, the whole daily series since 1993 as one JSON document (served as text):
///   `{"meta":{…},"data":{"dataSets":[["19930105", "25.405","125.25",…],…],"structure":{"Table1":[{"data":"新台幣NTD/USD"},{"data":"日圓JPY/USD"},
///   {"data":"英鎊USD/GBP"},…]}}}`: one row per day (the day as `YYYYMMDD`, then one figure per column), one column label per figure, a Chinese name
///   followed by the pair (white space around a label, which the labels carry unevenly, is not part of it).
/// - Quote convention: a column `XXX/USD` holds units of XXX per 1 USD (``PublishedQuote/Direction/unitsPerPivot``), a column `USD/XXX` US dollars
///   per 1 XXX (``PublishedQuote/Direction/pivotPerUnits``: GBP, AUD, EUR); unit 1. The bank writes the New Taiwan dollar `NTD`, read as TWD
///   (``codes``); every other code must be in ISO 4217 (the Deutsche Mark, French franc and guilder columns carry the retired currencies' codes).
/// - Skipped: `-`, no figure that day (the Deutsche Mark, French franc and guilder since 2002, the euro before 1999, a market closed in one country).
/// - Schedule: Asia/Taipei; a figure is the market's rate at 16:00 on its day, but the file is updated about once a month (the figures of February
///   2026 were in it on 2 March): a monthly cadence, polled on the first working day of a month from 16:00 (Frankfurter polls from 08:00 UTC).
/// - Ranges: the endpoint takes no dates: every fetch asks for the whole file (about 1.3 MB), and the fetch keeps the days asked for. The series
///   starts on 1993-01-05 (``historyStart``).
public struct CBCProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The bank's currency names that are not ISO 4217 codes, and the codes they are.
    public static let codes: [String: String] = ["NTD": "TWD"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.wholeHistory([ProviderRequest(url: "\(baseURL)/API/DataAPI/Get?FileName=BP01D01")])
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let labels = try document.field(at: "data", "structure", "Table1").array("\"Table1\"")
        let columns = try labels.map { label throws(UpstreamDataError) in try column(label.string("data", of: "a column")) }
        guard Set(columns.map(\.currency)).count == columns.count else { throw .layout("two columns of one currency") }
        return try document.field(at: "data", "dataSets").array("\"dataSets\"").enumerated().map { index, row throws(UpstreamDataError) in
            let cells = try row.array("row \(index + 1)")
            guard cells.count == columns.count + 1 else { throw .layout("row \(index + 1) has \(cells.count) cells, not \(columns.count + 1)") }
            let day = try Day(parsing: cells[0].string("row \(index + 1)'s day"), .compact)
            let quotes = try zip(columns, cells.dropFirst()).map { column, cell throws(UpstreamDataError) -> PublishedQuote? in
                let text = try cell.string("the \(column.currency) figure of \(day)")
                guard text != "-" else { return nil }
                guard RateText.isValid(text) else { throw .invalidRate(currency: column.currency, day: day, text: text) }
                return PublishedQuote(currency: column.currency, value: text, direction: column.direction)
            }.compactMap { $0 }
            return ProviderPublication(day: day, quotes: quotes)
        }
    }

    /// The currency and direction of a column labelled `label` (`日圓JPY/USD`, `英鎊USD/GBP`).
    func column(_ label: String) throws(UpstreamDataError) -> (currency: CurrencyCode, direction: PublishedQuote.Direction) {
        let pair = String(String.UnicodeScalarView(HTMLText.collapsed(label).unicodeScalars.suffix(7)))
        let perDollar = pair.hasSuffix("/USD")
        let code = String(perDollar ? pair.prefix(3) : pair.hasPrefix("USD/") ? pair.suffix(3) : "")
        guard let currency = CurrencyCode(Self.codes[code] ?? code), currency.name != nil, currency != pivot else {
            throw .layout("a column \(UpstreamDataError.quoted(label)), not a currency against USD")
        }
        return (currency, perDollar ? .unitsPerPivot : .pivotPerUnits)
    }
}
