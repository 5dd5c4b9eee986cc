import Foundation
import RatesCore

/// Banco de Moçambique's daily reference rates of the metical: the dollar and 19 other currencies.
///
/// - Source: the page of the current years' bulletins,
///   `https://www.bancomoc.mz/pt/tabelas-de-taxas-de-cambio-de-referencia-diarias/2026-2025/` (linked from
///   the foreign exchange market page, `…/pt/areas-de-actuacao/mercados/mercado-cambial/`), links one PDF a
///   day: `<a href="/media/prubk0qz/taxas-de-c&#226;mbio-de-refer&#234;ncia-do-mercado-cambial-do-dia-02092026.pdf">02-09-2026</a>`.
///   The bulletin (`MERCADO CAMBIAL`, `BOLETIM Nº 105/26`) is a page of fixed-pitch text (Courier, each line
///   cut into pieces: the lines are read whole, ``PDFTextRow/text``) dated by its title, `1. TAXAS DE CÂMBIO
///   MÉDIAS DE REFERÊNCIA EM METICAIS DO DIA 02 Setembro de 2026`. Its tables: `CÂMBIOS(MT)`, the dollar's row
///   (`Estados Unidos(a)`, with or without `Dolar`: `63,27  64,54  63,91`); `2.1.1 Meticais por Unidade de
///   Moeda` and `2.2.1 …` (the neighbours' and other currencies, per 1 unit); `2.1.2 Meticais por 1000
///   Unidades de Moeda` (per 1000 units). Each row: the country and the currency's name (`Àfrica do Sul
///   Rand`), then `COMPRA`, `VENDA` and `MÉDIA`, with a decimal comma. Section 3 (`OUTRAS INFORMAÇÕES`: the
///   prime rate, SOFR, gold in dollars per ounce) is not read.
/// - Quote convention: `MÉDIA`, meticais per 1 or 1000 units of the currency, as published (`63.91` MZN per
///   USD, `400.51` per 1000 JPY): ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. The dollar's is the
///   reference rate of the market's day (from the banks' deals up to 15:30); the others are that rate
///   crossed with the dollar's international rates (Reuters). The rows are known by country and name
///   (``currencies``): `China/Offshore Renminbi` is the offshore yuan (CNH) beside China's CNY, Zimbabwe's
///   `Dólar` the Zimbabwe dollar (ZWL) per 1000; a row with three figures that names no currency known
///   rejects the bulletin. Gold is quoted in dollars, not meticais, and is skipped.
/// - Schedule: Africa/Maputo, Monday to Friday; the bulletin of a day is out in its evening (dated by the
///   title's day; its signature line, `Maputo, 03.09.2026`, is the next morning).
/// - Ranges: the page's bulletins of the range's days, one request each; the newest publication is the
///   newest bulletin linked. Without the page (`rates-relay import` of a bulletin), the request is the
///   bulletin the page linked last when the adapter was written (``lastKnownPath``): the bulletin's own
///   text dates it, so any day's file reads alike.
public struct BMProvider: IndexPageProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The page that links the current years' bulletins.
    static let indexPath = "/pt/tabelas-de-taxas-de-cambio-de-referencia-diarias/2026-2025/"
    /// The bulletin of 3 September 2026, as the page linked it on 9 September 2026.
    static let lastKnownPath = "/media/ywgh5jwm/taxas-de-c%C3%A2mbio-de-refer%C3%AAncia-do-mercado-cambial-do-dia-03092026.pdf"

    /// The currencies by their rows' labels (country and currency, ``DailyBulletin/folded(_:)``, footnote
    /// marks such as `(a)` dropped).
    static let currencies: [String: String] = [
        "estados unidos": "USD", "estados unidos dolar": "USD",
        "africa do sul rand": "ZAR", "botswana pula": "BWP", "eswatini lilangueni": "SZL", "suazilandia lilangueni": "SZL",
        "mauricias rupia": "MUR", "mauricia rupia": "MUR", "mauricio rupia": "MUR", "zambia kwacha": "ZMW",
        "japao iene": "JPY", "malawi kwacha": "MWK", "tanzania shilling": "TZS", "zimbabwe dolar": "ZWL",
        "brasil real": "BRL", "canada dolar": "CAD", "china/offshore renminbi": "CNH", "china renminbi": "CNY",
        "dinamarca coroa": "DKK", "inglaterra libra": "GBP", "reino unido libra": "GBP", "noruega coroa": "NOK",
        "suecia coroa": "SEK", "suica franco": "CHF", "uniao europeia euro": "EUR",
    ]

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        var bulletins: [Day: String] = [:]
        for link in HTMLLinks.links(in: session.text) {
            let href = link.href
            // `…-do-dia-02092026.pdf`: the bulletin of 2 September 2026.
            guard href.lowercased().hasSuffix(".pdf"), href.contains("taxas-de-c") else { continue }
            let digits = href.dropLast(4).suffix(8)
            guard digits.count == 8, PublishedText.isDigits(digits),
                let day = Day(year: Int(digits.suffix(4))!, month: Int(digits.dropFirst(2).prefix(2))!, day: Int(digits.prefix(2))!),
                let encoded = href.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters),
                let url = HTMLLinks.url(encoded, site: identity.baseURL, base: baseURL)
            else { throw .layout("the page links a bulletin not dated DDMMYYYY: \(UpstreamDataError.quoted(href))") }
            bulletins[day] = url
        }
        guard !bulletins.isEmpty else { throw .layout("the page links no daily bulletin (…-do-dia-DDMMYYYY.pdf)") }
        return DailyBulletin.requests(for: window, bulletins: bulletins)
    }

    /// The characters a link's path keeps as they are; others (`â`, `ê`) are percent-encoded as UTF-8.
    private static let pathCharacters = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "%"))

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let lines = try DailyBulletin.rows(body).map(\.text)
        let day = try DailyBulletin.day(after: "DO DIA", in: lines.joined(separator: " "), months: DailyBulletin.portugueseMonths)
        var unit: Int?
        var quotes: [PublishedQuote] = []
        for line in lines {
            let folded = DailyBulletin.folded(line)
            if folded.contains("outras informa") { break }  // section 3: interest rates and gold
            if folded.hasPrefix("cambios(mt)") || folded.hasPrefix("cambios (mt)") {
                unit = 1
                continue
            }
            if let per = folded.range(of: "meticais por ") {
                let next = folded[per.upperBound...].split(separator: " ").first ?? ""
                unit = next.hasPrefix("unidade") ? 1 : try PublishedText.unit(String(next), of: CurrencyCode("XXX")!, day: day)
                continue
            }
            // A currency's row: its label (the words before the first that starts with a digit), then three figures.
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            let labelEnd = words.firstIndex { $0.first?.isNumber == true } ?? words.count
            let figures = Array(words[labelEnd...])
            guard let code = Self.currencies[Self.label(words[..<labelEnd].joined(separator: " "))], let currency = CurrencyCode(code) else {
                // A heading or a note has a figure at most (`de 2026`); a row of figures is a currency's.
                let trailing = words.reversed().prefix { $0.first?.isNumber == true && $0.allSatisfy { $0.isNumber || $0 == "," || $0 == "." } }
                guard trailing.count < 2 else {
                    throw .layout("a row of figures labelled \(UpstreamDataError.quoted(words[..<labelEnd].joined(separator: " "))), not a currency the adapter knows")
                }
                continue
            }
            guard figures.count == 3 else {
                throw .layout("the row of \(currency) has \(figures.count) figures, not COMPRA, VENDA and MÉDIA")
            }
            guard let unit else { throw .layout("the row of \(currency) comes before any table's heading (Meticais por … Unidade de Moeda)") }
            let value = try GroupedDecimal.rate(figures[2], of: currency, day: day, decimalMark: ",", groupMark: ".")
            quotes.append(PublishedQuote(currency: currency, value: value, unit: unit, direction: .pivotPerUnits))
        }
        guard quotes.contains(where: { $0.currency == .usDollar }) else { throw .layout("the bulletin has no dollar row (Estados Unidos)") }
        return [ProviderPublication(day: day, quotes: quotes)]
    }

    /// A row's label as ``currencies`` knows it: folded, footnote marks (`(a)`) dropped.
    static func label(_ text: String) -> String {
        var label = DailyBulletin.folded(text)
        for mark in "abcdefgh" { label = label.replacingOccurrences(of: "(\(mark))", with: " ") }
        return DailyBulletin.folded(label)
    }
}
