import RatesCore

/// The Banque Centrale de Tunisie's average rates of the dinar (TND) on the interbank market (`Cours Moyens`), 20 currencies.
///
/// - Source: `POST https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp` with the form body `input=YYYY-MM-DD&langue=_AN` (and a `Referer` of the
///   archive page, which the bank's server asks for), an HTML fragment in UTF-8 (its `<meta>` says ISO 8859-1; the bytes are UTF-8). It holds two
///   tables with the header row `Monnaie | Sigle | Unité | Valeur`, each under an `<h5>Journée du 18/05/2026</h5>`: the first, under the heading
///   `Cours Moyens des Devises Cotées en dinar tunisien sur le Marché des Changes interbancaire`, is the one read; the second (manual exchange and
///   travellers' cheques, rounded to three decimals) is not. A row: `DINAR ALGERIEN | DZD | 10 | 0,2198`.
/// - Quote convention: `Valeur` dinars for `Unité` units of the currency (0,2198 TND per 10 DZD, 18,4093 TND per 1000 JPY), decimal comma made a
///   point, digits unchanged: ``RatesCore/PublishedQuote/Direction/pivotPerUnits``.
/// - Schedule: Africa/Tunis, Monday to Friday, usually by 18:00; the figures are dated the day of the heading (the day asked for, or the bank's
///   nearest trading day when it has none for that day). A page saying `Exhausted Resultset` without the table is the bank's answer for a day without
///   rates: no publication.
/// - Ranges: one request per weekday of the range (the endpoint answers one day); the newest publication is asked for as today's and the two days'
///   before it.
public struct BCTProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let header = ["Monnaie", "Sigle", "Unité", "Valeur"]
    static let heading = "Cours Moyens des Devises Cotées en dinar tunisien sur le Marché des Changes interbancaire"

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latestDays: 2, today: today(), on: PublicationSchedule.workingDays).map { day in
            ProviderRequest(
                url: "\(baseURL)/bct/siteprod/cours_archiv.jsp", method: .post,
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Referer": "\(baseURL)/bct/siteprod/cours_archive.jsp"],
                body: "input=\(day.text(.iso))&langue=_AN")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let page = try HTMLDocument(parsing: body)
        let tables = page.tables(withHeader: Self.header)
        if tables.isEmpty, page.hasText(containing: "Exhausted Resultset") { return [] }
        guard tables.count == 2 else { throw .layout("\(tables.count) tables with the header \(HTMLDocument.shown(Self.header)), expected two") }
        guard page.texts(of: "h3").first == Self.heading else { throw .layout("the first heading is not \(UpstreamDataError.quoted(Self.heading))") }
        guard let dated = page.texts(of: "h5").first(where: { $0.hasPrefix("Journée du ") }) else { throw .layout("no \"Journée du …\" heading") }
        let day = try Day(parsing: dated.dropFirst("Journée du ".count), .dayMonthYear(separator: "/"))
        let quotes = try page.table(withHeader: Self.header, first: true).rows.map { row throws(UpstreamDataError) in
            let cells = try row.texts(count: 4, day: day)
            let currency = try PublishedText.currency(cells[1], day: day)
            let unit = try PublishedText.unit(cells[2], of: currency, day: day)
            let value = try GroupedDecimal.rate(cells[3], of: currency, day: day, decimalMark: ",")
            return PublishedQuote(currency: currency, value: value, unit: unit, direction: .pivotPerUnits)
        }
        return [ProviderPublication(day: day, quotes: quotes)]
    }
}
