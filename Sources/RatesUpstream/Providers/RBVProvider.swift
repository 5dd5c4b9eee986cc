import RatesCore

/// The Reserve Bank of Vanuatu's reference rates of the vatu (VUV), six currencies.
///
/// - Source: `https://www.rbv.gov.vu/index.php/en/exchange-rates?limit1=100000`, the bank's Fabrik list
///   page in UTF-8 with every day at once (newest first; `limit1` is the number of rows shown). The table
///   `id="list_1_com_fabrik_1"` has the header row `Date | USD | JPY | NZD | GBP | AUD | EUR | ` (the last
///   column a hidden checkbox) and one row per day (`class="fabrik_row …"`): `22 May 2026 | 116.28 | 0.7316 |
///   68.37 | 156.19 | 83.16 | 135.14`. Days are typed by hand: `22 May 2026`, `7 May 2026` or, in the oldest rows,
///   `03-Sep-25`; the month may be abbreviated or in full in either form (`12 Jun 2026`, `3-June-26`,
///   `03-Sept-25`), the year of two or four digits. The hidden "No records" row and the footer's navigation are
///   not rates and are not read.
/// - Quote convention: vatu for 1 unit of the currency, as published:
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. The series starts on 26 August 2025; a row
///   dated before that or after tomorrow cannot be one of its publications and is skipped (the list holds one,
///   `05 January 2025`, between 6 and 2 January 2026: a typo for 2026 the adapter does not guess at). The
///   list is newest first, so a day out of that order is a mistyped date too: the fewest rows that leave the
///   rest in strictly descending order are skipped, up to ``maxMistypedRows`` (more, and the list is not in
///   the order the adapter knows: rejected). A skipped row dated a day another row has, with other figures,
///   rejects the list: which of the two is that day's the adapter cannot tell.
/// - Schedule: Pacific/Efate, Monday to Friday, usually by 08:00; a row is dated the day it is for.
/// - Ranges: the whole list in one request; the newest publication is asked for as the first 20 rows.
public struct RBVProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The first day of the series.
    public static let firstDay = Day("2025-08-26")!
    static let header = ["Date", "USD", "JPY", "NZD", "GBP", "AUD", "EUR", ""]
    /// The most rows out of the list's order that are skipped as mistyped dates.
    public static let maxMistypedRows = 3

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        [ProviderRequest(url: "\(baseURL)/index.php/en/exchange-rates?limit1=\(window == .latest ? 20 : 100000)")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let (table, rows) = try HTMLDocument(parsing: body).table(withHeader: Self.header)
        guard table.id == "list_1_com_fabrik_1" else { throw .layout("the rates table is not id=\"list_1_com_fabrik_1\"") }
        let currencies = Self.header[1...6].map { CurrencyCode($0)! }
        var listed: [ProviderPublication] = []
        let tomorrow = today().adding(days: 1)
        for row in rows where row.section == .body && !row.tag.hasClass("groupDataMsg") {
            guard row.tag.hasClass("fabrik_row") else {
                throw .layout("a row that is not a fabrik_row: \(HTMLDocument.shown(row.texts))")
            }
            let cells = row.texts
            guard cells.count == 8, cells[7].isEmpty else {
                throw .layout("a row of \(cells.count) cells: \(HTMLDocument.shown(cells))")
            }
            let day = try Self.day(cells[0])
            guard day >= Self.firstDay, day <= tomorrow else { continue }
            let quotes = try zip(currencies, cells[1...6]).map { currency, text throws(UpstreamDataError) in
                guard let value = GroupedDecimal.rateText(text, decimalMark: ".") else { throw .invalidRate(currency: currency, day: day, text: text) }
                return PublishedQuote(currency: currency, value: value, unit: 1, direction: .pivotPerUnits)
            }
            listed.append(ProviderPublication(day: day, quotes: quotes))
        }
        let kept = Self.newestFirst(listed.map(\.day))
        guard listed.count - kept.count <= Self.maxMistypedRows else {
            throw .layout("\(listed.count - kept.count) rows are out of the list's newest-first order")
        }
        let publications = listed.indices.filter(kept.contains).map { listed[$0] }
        for (index, skipped) in listed.enumerated() where !kept.contains(index) {
            if let other = publications.first(where: { $0.day == skipped.day }), other != skipped { throw .duplicateDay(skipped.day) }
        }
        return publications
    }

    /// The rows (by index) of the longest run of `days`, in their order, that is strictly descending: the list
    /// with the fewest rows left out as out of its order (the earliest such run when several are as long).
    static func newestFirst(_ days: [Day]) -> Set<Int> {
        // length[i]: the longest descending run ending at row i; previous[i]: the row before it in that run.
        var length = [Int](repeating: 1, count: days.count)
        var previous = [Int?](repeating: nil, count: days.count)
        for i in days.indices {
            for j in 0..<i where days[j] > days[i] && length[j] + 1 > length[i] {
                length[i] = length[j] + 1
                previous[i] = j
            }
        }
        var row: Int? = length.indices.max { length[$0] < length[$1] || length[$0] == length[$1] && $0 > $1 }
        var kept = Set<Int>()
        while let index = row {
            kept.insert(index)
            row = previous[index]
        }
        return kept
    }

    /// The day of `22 May 2026`, `7 May 2026`, `12 Jun 2026`, `03-Sep-25`, `3-June-26` or `03-Sept-2025`.
    public static func day(_ text: String) throws(UpstreamDataError) -> Day {
        let dashed = text.split(separator: "-", omittingEmptySubsequences: false)
        if dashed.count == 3, let day = HTMLText.day(day: dashed[0], month: dashed[1], year: dashed[2], twoDigitYears: true) {
            return day
        }
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 3, let day = HTMLText.day(day: words[0], month: words[1], year: words[2], twoDigitYears: true) else {
            throw .invalidDay(text)
        }
        return day
    }
}
