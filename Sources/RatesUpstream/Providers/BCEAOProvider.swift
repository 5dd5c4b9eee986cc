import RatesCore

/// The Banque Centrale des États de l'Afrique de l'Ouest's reference rates of the CFA franc (XOF),
/// 27 currencies.
///
/// - Source: `https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=YYYY-MM-DD`, an HTML
///   fragment in UTF-8: a heading `<h2>Cours des devises du lundi 16 mars 2026</h2>` (the French
///   weekday, which must be the date's) and one table whose header row is `Devise | CFA`, then one row
///   per currency named in French (`<td>Dollar us</td><td>605,5200</td>`). The names are read through
///   a fixed table (``currencyNames``); a name not in it rejects the answer. The recorded answers write
///   the accented letters of six names as the text of their UTF-8 bytes (`Couronne su\xC3\xA9doise`):
///   such a name is read with those bytes decoded (``currencyName(_:)``), so it is the same name as
///   `Couronne suédoise`. A table with its header and no currency is no publication (a day without one),
///   not an error.
/// - Quote convention: francs CFA for 1 unit of the currency, French notation (decimal comma, a point
///   between thousands: `1.953,0200` is 1953.0200 XOF per KWD), read with the same digits:
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``, unit 1. The euro's line is the fixed parity
///   (655,9570) and is kept as published.
/// - Schedule: Sunday to Friday (the Sunday table is for the Gulf markets' working day), Africa/Dakar
///   (UTC+0), usually by 10:00; a table is dated the day it is published for.
/// - Ranges: one request per Sunday–Friday of the range (the endpoint answers one day). The newest
///   publication is asked for as today's and the two days' before it.
public struct BCEAOProvider: RatesProvider {
    public let key = "BCEAO"
    public let name = "Central Bank of West African States"
    public let country: String? = nil
    public let pivot = CurrencyCode("XOF")!
    public let rateType = "reference rate"
    /// Sunday to Friday, by 10:00 in Dakar.
    public let schedule = PublicationSchedule(timeZone: "Africa/Dakar", weekdays: BCEAOProvider.publicationWeekdays, expectedMinute: 10 * 60)

    /// The weekdays with a table: Sunday to Friday.
    static let publicationWeekdays: Set<Int> = [7, 1, 2, 3, 4, 5]

    /// The host, without a trailing slash.
    public let baseURL: String
    private let today: @Sendable () -> Day

    /// - Parameters:
    ///   - baseURL: The host (`https://www.bceao.int` when `nil`), for a test server or a mirror.
    ///   - today: Today's day in Dakar (UTC); the default reads the clock.
    public init(baseURL: String? = nil, today: @escaping @Sendable () -> Day = Day.clock(utcOffset: 0)) {
        self.baseURL = baseURL ?? "https://www.bceao.int"
        self.today = today
    }

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
        let days: [Day]
        switch window {
        case .latest: days = Day.days(from: today().adding(days: -2), through: today(), on: Self.publicationWeekdays)
        case .range(let first, let last): days = Day.days(from: first, through: last, on: Self.publicationWeekdays)
        }
        return days.map { ProviderRequest(url: "\(baseURL)/fr/cours/get_all_reference_by_date?dateJour=\($0.text(.iso))") }
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let page = try HTMLDocument(parsing: body, provider: key)
        let (_, rows) = try page.table(withHeader: ["Devise", "CFA"])
        let headings = page.texts(of: "h2").filter { $0.hasPrefix("Cours des devises du ") }
        guard headings.count == 1, let heading = headings.first else {
            throw .unexpectedLayout(provider: key, "\(headings.count) headings \"Cours des devises du …\", expected one")
        }
        let day = try Self.day(heading)
        guard !rows.isEmpty else { return [] }
        var quotes: [PublishedQuote] = []
        for row in rows {
            let cells = row.texts
            guard cells.count == 2 else {
                throw .unexpectedLayout(provider: key, "a row of \(cells.count) cells on \(day): \(HTMLDocument.shown(cells))")
            }
            guard let code = Self.currencyNames[Self.currencyName(cells[0])] else {
                throw .unexpectedLayout(provider: key, "the currency \(UpstreamDataError.quoted(cells[0])) on \(day) is not one the adapter knows")
            }
            let currency = try ProviderXMLParsing.currency(code, day: day)
            guard let value = GroupedDecimal.rateText(cells[1], decimalMark: ",", groupMark: ".") else {
                throw .invalidRate(currency: currency, day: day, text: cells[1])
            }
            quotes.append(PublishedQuote(currency: currency, value: value, unit: 1, direction: .pivotPerUnits))
        }
        return try ProviderValidation.validate([ProviderPublication(day: day, quotes: quotes)], notAfter: today().adding(days: 1))
    }

    /// The currency name of a cell, with each byte written as `\xHH` decoded: `Couronne su\xC3\xA9doise`
    /// is `Couronne suédoise`. A cell whose escaped bytes are not UTF-8 stays as written (a name no
    /// currency has).
    static func currencyName(_ cell: String) -> String {
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
