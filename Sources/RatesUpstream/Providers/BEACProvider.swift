import RatesCore

/// The Banque des États de l'Afrique Centrale's indicative exchange rates of the CFA franc (XAF), about 13 currencies, from its home page's widget.
///
/// - Source: `https://www.beac.int/`, the sidebar block "Taux indicatifs de change" (`<div class="… taux_de_change_list">` up to its
///   `<div class="date_source_taux">`): a header row (`PAIRE DEVISES | ACHAT | VENTE`), then one block per currency,
///   `<span class="code_valeur">USD/XAF</span>` then `<div id="middle">561.2317</div>` (buying) and `<div id="right">566.0505</div>` (selling), and
///   under them `Date de valeur : 22/05/2026`, the day the figures are for (DD/MM/YYYY). The page has no other endpoint and no history.
/// - Quote convention: francs per 1 unit of the currency, buying and selling only. As for every buy/sell-only source, the figure stored is their
///   exact midpoint (``RatesCore/RateText/midpoint(_:_:)``: `561.2317` and `566.0505` give `563.6411`), ``PublishedQuote/Direction/pivotPerUnits``.
///   The euro is the fixed parity, 655.957 both ways. A pair that is not `XXX/XAF`, or of a code ISO 4217 does not list, rejects the page.
/// - Schedule: Africa/Douala (UTC+1), Monday to Friday, by about 10:00; the figures are dated by the widget's "Date de valeur", not the fetch's day.
/// - Ranges: none: the page shows one day. A range is the same request, and the fetch keeps its day when it lies in the range.
public struct BEACProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] { [ProviderRequest(url: baseURL + "/")] }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let page = try HTMLDocument(parsing: body)
        guard page.texts(of: "h2").contains("Taux indicatifs de change") else { throw .layout("the page has no \"Taux indicatifs de change\" block") }
        let dates = page.texts(of: "p").filter { $0.hasPrefix("Date de valeur") }
        guard dates.count == 1, dates[0].hasPrefix("Date de valeur : ") else {
            throw .layout("\(dates.count) \"Date de valeur\" lines in the widget, expected one")
        }
        let day = try Day(parsing: dates[0].dropFirst("Date de valeur : ".count), .dayMonthYear(separator: "/"))
        // The widget's blocks: a pair's span, then its buying (`middle`) and selling (`right`) divs, each read with the divs open inside it.
        var pairs: [(pair: String, rates: [String: String])] = []
        var reading: (kind: String, text: String, innerDivs: Int)?
        var inWidget = false
        for token in page.tokens {
            switch token {
            case .start(let tag) where tag.name == "div" && (tag.hasClass("taux_de_change_list") || tag.hasClass("date_source_taux")):
                inWidget = !tag.hasClass("date_source_taux")
            case _ where !inWidget: continue
            case .start(let tag) where reading == nil && tag.name == "span" && tag.hasClass("code_valeur"): reading = ("pair", "", 0)
            case .start(let tag) where reading == nil && tag.name == "div" && !pairs.isEmpty && (tag["id"] == "middle" || tag["id"] == "right"):
                reading = (tag["id"] == "middle" ? "buying" : "selling", "", 0)
            case .start(let tag) where reading != nil && tag.name == "div": reading!.innerDivs += 1
            case .text(let text) where reading != nil: reading!.text += text
            case .end("span") where reading?.kind == "pair":
                pairs.append((HTMLText.collapsed(reading!.text), [:]))
                reading = nil
            case .end("div") where reading != nil && reading!.kind != "pair" && reading!.innerDivs > 0: reading!.innerDivs -= 1
            case .end("div") where reading != nil && reading!.kind != "pair":
                guard pairs.last!.rates[reading!.kind] == nil else { throw .layout("two \(reading!.kind) rates for \(pairs.last!.pair)") }
                pairs[pairs.count - 1].rates[reading!.kind] = HTMLText.collapsed(reading!.text)
                reading = nil
            default: break
            }
        }
        return try [ProviderPublication(day: day, quotes: pairs.map { pair, rates throws(UpstreamDataError) in
            guard pair.count == 7, pair.hasSuffix("/XAF") else { throw .layout("a pair \(UpstreamDataError.quoted(pair)), not XXX/XAF") }
            guard let code = CurrencyCode(pair.prefix(3)), code.name != nil else { throw .invalidCurrencyCode(String(pair.prefix(3)), day: day) }
            guard let buying = rates["buying"], let selling = rates["selling"] else { throw .layout("\(pair) lacks its buying or selling rate") }
            return try PublishedQuote.midpoint(buying: buying, selling: selling, of: code, direction: .pivotPerUnits, day: day)
        })]
    }
}
