import Foundation
import RatesCore

/// The Banque de la République du Burundi's official exchange rates of the franc: 18 currencies and the SDR.
///
/// - Source: the page `https://www.brb.bi/en/affichagetoustauxchange` lists the daily bulletins
///   (`<a href="/sites/default/files/2026-05/Cours%20de%20change%20du%2020-05-2026.pdf">Cours de change du 20-05-2026.pdf</a>`), one PDF a day (made
///   from a spreadsheet: Flate-compressed content, WinAnsi fonts). The bulletin, `COURS OFFICIELS DES CHANGES AU COMPTANT APPLIQUES PAR LA B.R.B`, is
///   dated `EN DATE DU 20 MAI 2026`; its table is headed `MONNAIES ETRANGERES | Acheteur | Cours moyen jour | Vendeur`, one row per currency, its
///   unit and French name (`1 Dollar Canadien | 2155,4820 | 2172,8650 | 2190,2479`), with a decimal comma on some days and a point on others
///   (`2155.0230`). A star marks the currencies not changed over the counter (`1 Shilling Kenyan*`), as the footnote says.
/// - Quote convention: `Cours moyen jour`, the published mid, francs per the row's unit of the currency
///   (``RatesCore/PublishedQuote/Direction/pivotPerUnits``; unit 1 in every row so far), as published with its decimals (`2989.9100` per USD). The
///   names are read by ``currencies``: `DTS` is the SDR (XDR); a row of figures naming a currency not known rejects the bulletin.
/// - Schedule: Africa/Bujumbura, Monday to Friday, in the morning (the bulletin of 20 May 2026 was made at 09:08); a bulletin is dated by the day its
///   text names.
/// - Ranges: the page's bulletins of the range's days, one request each; the newest publication is the newest bulletin listed. Without the page
///   (`rates-relay import` of a bulletin), the request is the bulletin listed last when the adapter was written (``lastKnownPath``): the bulletin's
///   text dates it.
public struct BRBProvider: IndexPageProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The page that lists the daily bulletins.
    static let indexPath = "/en/affichagetoustauxchange"
    /// The bulletin of 22 May 2026, as the page listed it on 24 May 2026.
    static let lastKnownPath = "/sites/default/files/2026-05/Cours%20de%20change%20du%2022-05-2026.pdf"

    /// The currencies by their French names (``DailyBulletin/folded(_:)``, the star dropped).
    static let currencies: [String: String] = [
        "dollar canadien": "CAD", "couronne danoise": "DKK", "yen japonais": "JPY", "couronne norvegienne": "NOK",
        "livre sterling": "GBP", "couronne suedoise": "SEK", "dollar usa": "USD", "dollar us": "USD", "dollar americain": "USD",
        "franc suisse": "CHF", "euro": "EUR", "shilling kenyan": "KES", "dts": "XDR", "rand sud-africain": "ZAR",
        "dollar australien": "AUD", "shilling tanzanien": "TZS", "shilling ougandais": "UGX", "franc rwandais": "RWF",
        "yuan renmimbi": "CNY", "yuan renminbi": "CNY", "dinar kowetien": "KWD", "dinar koweitien": "KWD", "riyal saoudien": "SAR",
        "franc congolais": "CDF", "dirham des emirats arabes unis": "AED", "roupie indienne": "INR",
    ]

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        var bulletins: [Day: String] = [:]
        for link in HTMLLinks.links(in: session.text) where link.href.lowercased().hasSuffix(".pdf") && link.href.contains("Cours") {
            // `…Cours%20de%20change%20du%2020-05-2026.pdf`: the bulletin of 20 May 2026.
            let date = link.href.dropLast(4).suffix(10)
            guard let day = Day(date, .dayMonthYear(separator: "-")), let url = HTMLLinks.url(link.href, site: identity.baseURL, base: baseURL)
            else { throw .layout("the page lists a bulletin not dated DD-MM-YYYY: \(UpstreamDataError.quoted(link.href))") }
            bulletins[day] = url
        }
        guard !bulletins.isEmpty else { throw .layout("the page lists no daily bulletin (Cours de change du DD-MM-YYYY.pdf)") }
        return DailyBulletin.requests(for: window, bulletins: bulletins)
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let rows = try DailyBulletin.rows(body)
        let text = rows.map(\.text).joined(separator: " ")
        guard DailyBulletin.folded(text).filter({ $0 != " " }).contains("coursofficielsdeschanges") else {
            throw .layout("not the bulletin of official exchange rates (COURS OFFICIELS DES CHANGES)")
        }
        let day = try DailyBulletin.day(after: "EN DATE DU", in: text, months: DailyBulletin.frenchMonths)
        let headed = rows.firstIndex { row in DailyBulletin.folded(row.cells.joined(separator: " ")).contains("cours moyen jour") }
        guard let header = headed else { throw .layout("no table headed Acheteur | Cours moyen jour | Vendeur") }
        let titles = rows[header].cells.map(DailyBulletin.folded).filter { !$0.isEmpty }
        guard titles.suffix(3) == ["acheteur", "cours moyen jour", "vendeur"] else {
            let written = UpstreamDataError.quoted(titles.joined(separator: " | "))
            throw .layout("the table is headed \(written), not … | Acheteur | Cours moyen jour | Vendeur")
        }
        var quotes: [PublishedQuote] = []
        for row in rows[(header + 1)...] {
            let cells = row.cells.filter { !$0.isEmpty }
            // `1 Dollar Canadien | 2155,4820 | 2172,8650 | 2190,2479`: the unit and the name, then three figures.
            let label = cells.dropLast(3).joined(separator: " ")
            let words = label.split(separator: " ")
            let name = DailyBulletin.folded(words.dropFirst().joined(separator: " ").replacingOccurrences(of: "*", with: ""))
            guard cells.count >= 4, let first = words.first, PublishedText.isDigits(first), let code = Self.currencies[name],
                let currency = CurrencyCode(code)
            else {
                // A note or the bank's address has a figure at most; a row of figures is a currency's.
                let figures = cells.filter { $0.first?.isNumber == true && $0.allSatisfy { $0.isNumber || $0 == "," || $0 == "." } }
                guard figures.count < 2 else {
                    let written = UpstreamDataError.quoted(cells.joined(separator: " | "))
                    throw .layout("a row of figures for \(written), not a unit and a currency the adapter knows")
                }
                continue
            }
            let unit = try PublishedText.unit(String(first), of: currency, day: day)
            for figure in cells.suffix(3) where ProviderValidation.rateText(figure) == nil {
                throw .invalidRate(currency: currency, day: day, text: figure)
            }
            quotes.append(try .reading(cells[cells.count - 2], of: currency, unit: unit, direction: .pivotPerUnits, day: day))
        }
        guard !quotes.isEmpty else { throw .layout("the table of official rates has no row") }
        return [ProviderPublication(day: day, quotes: quotes)]
    }
}
