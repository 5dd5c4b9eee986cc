import RatesCore

/// The Banque Centrale des États de l'Afrique de l'Ouest's reference rates of the CFA franc (XOF),
/// 27 currencies.
///
/// - Source: `https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=YYYY-MM-DD`, an HTML
///   fragment in UTF-8: a heading `<h2>Cours des devises du lundi 16 mars 2026</h2>` (the French
///   weekday, which must be the date's) and one table whose header row is `Devise | CFA`, then one row
///   per currency named in French (`<td>Dollar us</td><td>605,5200</td>`). The names are read through
///   a fixed table (``currencyNames``), or as the ISO 4217 code a cell may hold; a row whose name is
///   neither is skipped (the names drift over the years: `Couronne thèque` and `Couronne tchèque`), its
///   figure still checked, and a table none of whose names is known rejects the answer. The answers
///   write the accented letters of names and of the heading's month as the text of their UTF-8 bytes
///   (`Couronne su\xC3\xA9doise`, `16 f\xC3\xA9vrier`): such text is read with those bytes decoded
///   (``decoded(_:)``), so it is the same as `Couronne suédoise`, `16 février`. A day without a
///   publication (a Saturday, a holiday) is answered with the heading alone, or the table's header with
///   no currency: no publication, not an error.
/// - Quote convention: francs CFA for 1 unit of the currency, French notation (decimal comma, a point
///   between thousands: `1.953,0200` is 1953.0200 XOF per KWD), read with the same digits:
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``, unit 1. Every French figure has its decimal
///   comma, so one without it is read in English notation (`605.52`, the point a decimal point, not a
///   thousands mark). The euro's line is the fixed parity (655,9570) and is kept as published.
/// - Schedule: Sunday to Friday (the Sunday table is for the Gulf markets' working day), Africa/Dakar
///   (UTC+0), usually by 10:00; a table is dated the day it is published for.
/// - Ranges: one request per Sunday–Friday of the range (the endpoint answers one day). The newest
///   publication is asked for as today's and the two days' before it.
public struct BCEAOProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The French names the bank gives the currencies it quotes, and their codes.
    static let currencyNames: [String: String] = [
        "Euro": "EUR", "Dollar us": "USD", "Yen japonais": "JPY", "Couronne danoise": "DKK", "Couronne suédoise": "SEK",
        "Livre sterling": "GBP", "Couronne norvégienne": "NOK", "Couronne thèque": "CZK", "Couronne tchèque": "CZK",
        "Forint hongrois": "HUF", "Zloty polonais": "PLN", "Franc suisse": "CHF", "Dollar canadien": "CAD",
        "Dollar australien": "AUD", "Dollar néo-zélandais": "NZD", "Rand sud-africain": "ZAR", "Yuan chinois": "CNY",
        "Roupie Indienne": "INR", "Baht thailandais": "THB", "Real brésilien": "BRL", "Dollar singapourien": "SGD",
        "Nouvelle livre turque": "TRY", "Dirham Emirats Arabes Unis": "AED", "Nouveau Shekel": "ILS", "Won Coréen": "KRW",
        "Dollar Hong Kong": "HKD", "Ryal Saudien": "SAR", "Dinar Koweitien": "KWD",
    ]

    /// French weekday names, Monday first (ISO order).
    static let weekdayNames = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latestDays: 2, today: today(), on: schedule.weekdays).map {
            ProviderRequest(url: "\(baseURL)/fr/cours/get_all_reference_by_date?dateJour=\($0.text(.iso))")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let page = try HTMLDocument(parsing: body)
        let headings = page.texts(of: "h2").filter { $0.hasPrefix("Cours des devises du ") }
        // A day without a publication: the heading alone, no table.
        if headings.count == 1, page.tables.isEmpty { return [] }
        let (_, rows) = try page.table(withHeader: ["Devise", "CFA"])
        guard headings.count == 1, let heading = headings.first else {
            throw .layout("\(headings.count) headings \"Cours des devises du …\", expected one")
        }
        let day = try Self.day(Self.decoded(heading))
        guard !rows.isEmpty else { return [] }
        var quotes: [PublishedQuote] = []
        var unknown: [String] = []
        for row in rows {
            let cells = try row.texts(count: 2, day: day)
            let name = Self.decoded(cells[0])
            let value = cells[1].contains(",")
                ? GroupedDecimal.rateText(cells[1], decimalMark: ",", groupMark: ".") : GroupedDecimal.rateText(cells[1], decimalMark: ".")
            guard let code = Self.currencyNames[name] ?? CurrencyCode(name).flatMap({ $0.name != nil ? $0.rawValue : nil }) else {
                // A name the adapter does not know: the row is left out, but it must still hold a figure.
                guard value != nil else {
                    throw .layout("the figure \(UpstreamDataError.quoted(cells[1])) of \(UpstreamDataError.quoted(cells[0])) on \(day) is no number")
                }
                unknown.append(cells[0])
                continue
            }
            let currency = try PublishedText.currency(code, day: day)
            guard let value else { throw .invalidRate(currency: currency, day: day, text: cells[1]) }
            quotes.append(PublishedQuote(currency: currency, value: value, unit: 1, direction: .pivotPerUnits))
        }
        guard !quotes.isEmpty else {
            throw .layout("none of the currencies on \(day) is one the adapter knows: \(HTMLDocument.shown(unknown))")
        }
        return [ProviderPublication(day: day, quotes: quotes)]
    }

    /// The text of a cell or heading, with each byte written as `\xHH` decoded: `Couronne su\xC3\xA9doise`
    /// is `Couronne suédoise`, `f\xC3\xA9vrier` is `février`. A text whose escaped bytes are not UTF-8
    /// stays as written (a name no currency or month has).
    static func decoded(_ cell: String) -> String {
        guard cell.contains("\\x") else { return cell }
        var bytes: [UInt8] = []
        var rest = Substring(cell)
        while let first = rest.first {
            let hex = rest.dropFirst(2).prefix(2)
            if rest.hasPrefix("\\x"), hex.count == 2, hex.allSatisfy(\.isHexDigit), let byte = UInt8(hex, radix: 16) {
                bytes.append(byte)
                rest = rest.dropFirst(4)
            } else {
                bytes.append(contentsOf: String(first).utf8)
                rest = rest.dropFirst()
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? cell
    }

    /// The day of `Cours des devises du lundi 16 mars 2026`, whose weekday must be the date's.
    static func day(_ heading: String) throws(UpstreamDataError) -> Day {
        let words = heading.dropFirst("Cours des devises du ".count).split(separator: " ")
        guard words.count == 4, let day = HTMLText.day(day: words[1], month: words[2], year: words[3]),
            weekdayNames.firstIndex(of: words[0].lowercased()) == day.isoWeekday - 1
        else { throw .invalidDay(String(heading.dropFirst("Cours des devises du ".count))) }
        return day
    }
}
