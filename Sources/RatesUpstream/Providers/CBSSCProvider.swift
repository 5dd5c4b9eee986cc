import RatesCore

/// The Central Bank of Seychelles' mid rates of the rupee: the US dollar, the euro and the pound sterling.
///
/// - Source: two answers of the bank's site.
///   - The day's rates, `https://www.cbs.sc/Controller/MarketinfoController.jsp?type=car`: JSON served as `text/html`
///     after blank lines, `{"car":[{"usdmid":"14.4077","currentDate":"09-Sep-2026","usdbuy":"14.2268",
///     "usdsell":"14.7228","usddiff":"-0.2089","eurmid":"16.8958",…,"id":1}]}`: for each currency (the code in lower
///     case) its buying, middle and selling rates and the change of its middle rate, all strings, and the day they
///     are for (`currentDate`, `DD-Mon-YYYY`). A member of another name rejects the answer.
///   - The history, `https://www.cbs.sc/Downloads/StaExcel/Exchange%20Rates-Daily.xlsx`: an Excel workbook (read with
///     ``XLSXWorkbook``) of one sheet per currency, named by its code (`USD`, `EUR`, `GBP`), beside a `Notes` sheet and
///     a hidden `AVG` sheet of monthly averages (computed from the daily ones: not read). A currency's sheet has the
///     header `Date | SCR/USD | | Change`, then one row per day: an Excel date serial in A and the mid rate, "average
///     of all authorised dealers", in B, stored as a double in full (`14.616577838181803`); `-` in B is no figure that
///     day (GBP on 2020-04-09), as is a row with a date and nothing in B.
/// - Quote convention: rupees for 1 unit of the currency (``RatesCore/PublishedQuote/Direction/pivotPerUnits``, unit 1),
///   the middle rate: as the JSON writes it (`14.4077`), and the workbook's double with the digits past the 15th
///   significant one dropped (rounded half up, trailing fraction zeros dropped: ``ProviderJSON/publishedDecimal``'s
///   reading of a double printed in full), so `5.3441000000000001` is `5.3441` and `14.616577838181803` is
///   `14.6165778381818`. The buying and selling rates and the change are not read. A sheet named by an ISO 4217 code
///   must carry that currency's header; a JSON currency without a middle rate (`-` or empty) has no figure that day.
/// - Schedule: Indian/Mahe, Monday to Friday; a figure is dated the day it is for. The bank states no time; the day's
///   JSON was out when recorded at 16:55 local time.
/// - Ranges: the newest publication is the day's JSON; a range is read from the workbook, which holds every day since
///   2000-01-04 (a fetch keeps the range's days). The two are never asked for together: the workbook's figure of a day
///   carries more digits than the JSON's of the same day, and one fetch may not give a day two figures.
public struct CBSSCProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The day's rates, as JSON.
    var dayURL: String { baseURL + "/Controller/MarketinfoController.jsp?type=car" }
    /// The workbook of every day.
    var workbookURL: String { baseURL + "/Downloads/StaExcel/Exchange%20Rates-Daily.xlsx" }

    /// What follows a currency's code in the JSON's member names; only `mid` is read.
    static let figureSuffixes = ["buy", "mid", "sell", "diff"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: dayURL)]) { _, _ in [ProviderRequest(url: workbookURL)] }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        request.url == workbookURL ? try readWorkbook(body) : try readDay(body)
    }

    // MARK: - The day's JSON

    /// The publications of the day's JSON: one per element of `car`.
    private func readDay(_ body: [UInt8]) throws(UpstreamDataError) -> [ProviderPublication] {
        let days = try ProviderJSON(answer: body).field("car", of: "the answer").array("\"car\"")
        return try days.enumerated().map { index, element throws(UpstreamDataError) in
            let what = "element \(index + 1) of \"car\""
            let day = try Day(parsing: element.string("currentDate", of: what), .dayMonthNameYear(separator: "-"))
            var quotes: [PublishedQuote] = []
            for member in try element.members(what) where member.key != "currentDate" && member.key != "id" {
                guard let suffix = Self.figureSuffixes.first(where: member.key.hasSuffix), member.key.utf8.count == 3 + suffix.utf8.count,
                    let code = CurrencyCode(member.key.prefix(3).uppercased()), member.key.prefix(3).allSatisfy(\.isLowercase)
                else { throw .layout("\(what) has a member \"\(member.key)\", not a currency's buy, mid, sell or diff") }
                guard suffix == "mid" else { continue }
                guard code.name != nil else { throw .invalidCurrencyCode(code.rawValue, day: day) }
                let text = try member.value.string("\(what)'s \"\(member.key)\"")
                let mark = text.filter { !$0.isWhitespace }
                if mark.isEmpty || mark == "-" { continue }  // no figure that day
                quotes.append(try .reading(text, of: code, direction: .pivotPerUnits, day: day))
            }
            return ProviderPublication(day: day, quotes: quotes)
        }
    }

    // MARK: - The workbook

    /// The publications of the workbook: its currencies' sheets, joined by day.
    private func readWorkbook(_ body: [UInt8]) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try XLSXWorkbook(body)
        return ProviderPublication.byDay(
            try workbook.everySheet { sheet throws(UpstreamDataError) in
                // The notes and the monthly averages are not a currency's sheet.
                guard let code = CurrencyCode(sheet.name), code.name != nil else { return [] }
                return try read(sheet, of: code, in: workbook)
            })
    }

    /// The figures of the sheet of `code`, each with its day.
    private func read(_ sheet: XLSXSheet, of code: CurrencyCode, in workbook: XLSXWorkbook) throws(UpstreamDataError)
        -> [(day: Day, quote: PublishedQuote)]
    {
        func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(sheet.name): \(text)") }
        guard let header = sheet.rows.first(where: { $0[0]?.words == "Date" }), header[1]?.words == "SCR/\(code)" else {
            throw layout("no header row Date | SCR/\(code)")
        }
        return try sheet.rows.filter { $0.number > header.number }.map { row throws(UpstreamDataError) -> (day: Day, quote: PublishedQuote)? in
            guard let figure = row[1], figure.words != "-" else { return nil }  // no figure that day
            guard let serial = row[0]?.number else { throw layout("row \(row.number) has a figure but no date serial in A") }
            let day = try workbook.day(serial: serial)
            guard let stored = figure.number, let plain = XLSXCell.plainDecimal(stored), RateText.isValid(plain) else {
                throw .invalidRate(currency: code, day: day, text: figure.text ?? figure.number ?? "\(figure.value)")
            }
            return (day, PublishedQuote(currency: code, value: ProviderJSON.roundedToDoublePrecision(plain), direction: .pivotPerUnits))
        }.compactMap { $0 }
    }
}
