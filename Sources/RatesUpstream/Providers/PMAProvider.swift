import RatesCore

/// The Palestine Monetary Authority's exchange rates: about 20 currencies against the US dollar.
///
/// - Source: the authority's export form, `https://wcur.pma.ps/ar/webtools/currency/export`. A fetch first gets the
///   form (``sessionRequest(for:)``) for its hidden token field (name and value both change with the session:
///   `<input type="hidden" name="alUxYVk1TC80KzVQcXZtdEUyREtudz09" value="NEx1U21pRWRmZG80SmR4blZodlVhdz09">`) and
///   the cookies that go with it, then posts it back to the same address with the days:
///   `alUxYVk1TC80KzVQcXZtdEUyREtudz09=NEx1U21pRWRmZG80SmR4blZodlVhdz09&from=2026-09-01&to=2026-09-08`. The answer is
///   an Excel workbook (read with ``XLSXWorkbook``) of one sheet: the header `التاريخ | العملة | الشراء | البيع | الوسطي`
///   (date, pair, buying, selling, middle), then one row per day and pair, every cell a string:
///   `2026/09/01 | USD/LBP | 89,446.50 | 89,800.00 | 89623.25`. Figures may group thousands with commas; the middle
///   rates drop trailing zeros (`0.709` beside `0.7080` and `0.7100`). A sheet of the header and no row (what a span
///   without rates, a Friday–Saturday, is taken to give) is no publication.
/// - Quote convention: a pair `BASE/QUOTE` is QUOTE units for 1 BASE. The authority issues no currency (Palestine
///   uses the shekel, the Jordanian dinar and the dollar) and quotes most pairs against the dollar, the pivot: `USD/X`
///   is X per 1 USD (``RatesCore/PublishedQuote/Direction/unitsPerPivot``: ILS through `USD/ILS`, JOD, JPY, LBP, …),
///   `X/USD` is USD per 1 X (``RatesCore/PublishedQuote/Direction/pivotPerUnits``: EUR, GBP, AUD), unit 1. Each
///   figure is the published middle rate, its text unchanged but for the thousands separators; where a row has no
///   middle rate, the exact midpoint of buying and selling (`RateText.midpoint`). Skipped: pairs that do not name
///   the dollar (`JOD/ILS`, `EUR/ILS`, `EGP/ILS`, shekels per unit), which one publication against the dollar could
///   only hold as computed figures, and which the same table gives against the dollar anyway (`USD/JOD`,
///   `EUR/USD`, `USD/EGP`); and the metals (`XAU/USD`, `XAG/USD`), whose unit the answer does not state. A pair
///   naming a code that is not ISO 4217's rejects the answer.
/// - Schedule: Asia/Hebron, Sunday to Thursday; a figure is dated the day it applies to. The authority states no
///   time of publication.
/// - Ranges: one post per year of the range (`from` and `to` both included; the form states no limit); the newest
///   publication is asked for as the last seven days up to today. Without the form (``requests(for:)``, what
///   `rates-relay import` reads files as), the post carries the days alone.
public struct PMAProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The form's address, where it is also posted.
    var formURL: String { baseURL + "/ar/webtools/currency/export" }

    /// The sheet's header row: date, pair, buying, selling, middle.
    static let header = ["التاريخ", "العملة", "الشراء", "البيع", "الوسطي"]

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        ProviderRequest(url: formURL)
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        posts(window, fields: [], cookie: nil)
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        let hidden = try HTMLDocument(parsing: session.body).startTags("input").filter { $0["type"]?.lowercased() == "hidden" }
        let fields = hidden.compactMap { tag -> (name: String, value: String)? in
            guard let name = tag["name"], !name.isEmpty else { return nil }
            return (name, tag["value"] ?? "")
        }
        guard !fields.isEmpty, fields.allSatisfy({ !$0.value.isEmpty }) else {
            throw .layout("the form has no token to post back (a hidden <input> with a name and a value)")
        }
        return posts(window, fields: fields, cookie: session.cookieHeader)
    }

    /// The form posts of `window`'s days, one per year, with the hidden `fields` (name and value, in the form's order).
    func posts(_ window: FetchWindow, fields: [(name: String, value: String)], cookie: String?) -> [ProviderRequest] {
        window.spans(latestDays: 7, today: today(), maxDays: 366).map { span in
            .formPost(url: formURL, cookie: cookie, fields: fields + [("from", span.first.text(.iso)), ("to", span.last.text(.iso))])
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try XLSXWorkbook(body)
        // The header and no row: no rates in the span (a Friday–Saturday, a holiday).
        return ProviderPublication.byDay(try workbook.everySheet { sheet throws(UpstreamDataError) in try read(sheet, of: workbook) })
    }

    /// The figures of one sheet, each with its day.
    private func read(_ sheet: XLSXSheet, of workbook: XLSXWorkbook) throws(UpstreamDataError) -> [(day: Day, quote: PublishedQuote)] {
        func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(sheet.name): \(text)") }
        guard let header = sheet.rows.first, header.cells.map(\.column) == [0, 1, 2, 3, 4], header.cells.map({ $0.words ?? "" }) == Self.header else {
            throw layout("the first row is not the header التاريخ | العملة | الشراء | البيع | الوسطي")
        }
        return try sheet.rows.dropFirst().map { row throws(UpstreamDataError) -> (day: Day, quote: PublishedQuote)? in
            guard let dateCell = row[0], let pairCell = row[1], row.cells.allSatisfy({ $0.column <= 4 }) else {
                throw layout("row \(row.number) is not a date, a pair and its figures")
            }
            let day = try Self.day(dateCell, of: workbook)
            let pair = (pairCell.words ?? "").split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2, let base = CurrencyCode(pair[0]), let quoted = CurrencyCode(pair[1]), base != quoted else {
                throw .invalidCurrencyCode(pairCell.words ?? "\(pairCell.value)", day: day)
            }
            // Crosses against another currency than the dollar, and the metals, are skipped (see the doc comment).
            guard base == .usDollar || quoted == .usDollar else { return nil }
            let code = base == .usDollar ? quoted : base
            if PreciousMetal.codes.contains(code) { return nil }
            guard code.name != nil else { throw .invalidCurrencyCode(code.rawValue, day: day) }
            let value = try Self.figure(row, currency: code, day: day)
            return (day, PublishedQuote(currency: code, value: value, unit: 1, direction: base == .usDollar ? .unitsPerPivot : .pivotPerUnits))
        }.compactMap { $0 }
    }

    /// A row's published middle rate; where the row has none, the exact midpoint of its buying and selling rates.
    private static func figure(_ row: XLSXRow, currency: CurrencyCode, day: Day) throws(UpstreamDataError) -> String {
        func decimal(_ column: Int) -> String? {
            guard let cell = row[column] else { return nil }
            if let text = cell.words { return GroupedDecimal.rateText(text, decimalMark: ".", groupMark: ",") }
            return cell.decimalText.flatMap { RateText.isValid($0) ? $0 : nil }
        }
        func shown(_ column: Int) -> String { row[column].map { $0.text ?? $0.number ?? "\($0.value)" } ?? "" }
        if let middle = row[4], middle.words?.isEmpty != true {
            guard let value = decimal(4) else { throw .invalidRate(currency: currency, day: day, text: shown(4)) }
            return value
        }
        guard let buying = decimal(2), let selling = decimal(3), let value = RateText.midpoint(buying, selling) else {
            throw .invalidRate(currency: currency, day: day, text: shown(2) + " / " + shown(3))
        }
        return value
    }

    /// A row's day: `2026/09/01` as the export writes it, or an Excel date serial.
    private static func day(_ cell: XLSXCell, of workbook: XLSXWorkbook) throws(UpstreamDataError) -> Day {
        if let serial = cell.number { return try workbook.day(serial: serial) }
        let text = cell.words ?? ""
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let day = Day(parts.joined(separator: "-"), .iso) else { throw .invalidDay(text) }
        return day
    }
}
