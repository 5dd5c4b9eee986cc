import RatesCore

/// The Central Bank of the Republic of Azerbaijan's official rates of the manat (about 38 currencies and the SDR).
///
/// - Source: `https://www.cbar.az/currencies/DD.MM.YYYY.xml`, one day's bulletin as UTF-8 XML: `<ValCurs Date="04.09.2026">` holding two
///   `<ValType>`s, `Type="Bank metalları"` (bank metals) and `Type="Xarici valyutalar"` (foreign currencies), each with one
///   `<Valute Code="USD"><Nominal>1</Nominal><Name>…</Name><Value>1.7</Value></Valute>` per row. Asked for a day without a bulletin (a weekend), the
///   bank answers the bulletin in force, under its own date.
/// - Quote convention: `Value` manats for `Nominal` units of the currency (1.7 AZN per 1 USD, 1.9728 per 100 RUB; KRW, KZT, HUF, UZS, PKR, RUB and
///   JPY per 100): ``PublishedQuote/Direction/pivotPerUnits``. The bank writes the special drawing right `SDR`; it is stored as ISO 4217's `XDR`. The
///   bank metals (`XAU`, `XAG`, `XPT`, `XPD`) are manats per troy ounce (`<Nominal>1 t.u.</Nominal>`), ISO 4217's unit of the metals: kept as
///   published (``PreciousMetal``); a metal without a value (the 1990s bulletins list them empty) has no price that day. A metal row of another unit
///   or code, or a `ValType` of another kind, rejects the answer.
/// - The 2006 redenomination: the manat was redenominated on 2006-01-01 (5000 old manats, AZM, to 1 new manat, AZN), but the bank's archive labels
///   its older bulletins `AZN` too, with figures in old manats (118 per dollar on 25.11.1993). A bulletin dated before 2006-01-01 is therefore not
///   read as AZN: it gives no publication, and ranges are not asked before that day.
/// - Schedule: Azerbaijani working days (Asia/Baku); a bulletin is in force from its date, looked for from 10:00 that day.
/// - Ranges: one request per Monday–Friday in the range (from 2006-01-01 on); the newest publication is the file of today (by the source's clock,
///   ``RatesProvider/today()``), which on a weekend is Friday's bulletin.
public struct CBARProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The first day of the new manat (AZN): bulletins before it are in old manats.
    public static let redenomination = Day(year: 2006, month: 1, day: 1)!

    /// The `ValType`s read: foreign currencies, and bank metals.
    static let currenciesType = "Xarici valyutalar"
    static let metalsType = "Bank metalları"
    /// The `Nominal` of a bank metal: one troy ounce.
    static let troyOunce = "1 t.u."

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let days = window.days(latest: today(), on: schedule.weekdays).filter { $0 >= Self.redenomination }
        return days.map { ProviderRequest(url: "\(baseURL)/currencies/\($0.text(.dayMonthYear(separator: "."))).xml") }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "ValCurs")
        try XMLFields.expectOnly(["ValType"], in: root)
        let day = try Day(parsing: XMLFields.attribute(root, "Date", in: "<ValCurs>"), .dayMonthYear(separator: "."))
        var quotes: [PublishedQuote] = []
        var sawCurrencies = false
        for group in root.children {
            let type = try XMLFields.attribute(group, "Type", in: "<ValType> of \(day)")
            try XMLFields.expectOnly(["Valute"], in: group)
            if type == Self.metalsType {
                quotes += try metals(in: group, day: day)
                continue
            }
            guard type == Self.currenciesType, !sawCurrencies else {
                throw .layout("<ValType Type=\(UpstreamDataError.quoted(type))> of \(day) is not one the adapter reads")
            }
            sawCurrencies = true
            quotes += try XMLFields.quotes(
                group.children, code: .attribute("Code"), unit: .child("Nominal"), rate: .child("Value"), day: day, pivot: pivot,
                aliases: ["SDR": "XDR"])
        }
        // Old manats labelled AZN: not today's manat (see the type's documentation).
        guard day >= Self.redenomination else { return [] }
        return [ProviderPublication(day: day, quotes: quotes)]
    }

    /// The bank metals of a `<ValType Type="Bank metalları">`, manats per troy ounce.
    private func metals(in group: XMLReader.Element, day: Day) throws(UpstreamDataError) -> [PublishedQuote] {
        try group.children.map { valute throws(UpstreamDataError) -> PublishedQuote? in
            let code = try PublishedText.currency(XMLFields.attribute(valute, "Code", in: "<Valute> of \(day)"), day: day)
            let place = "<Valute Code=\"\(code)\"> of \(day)"
            let nominal = try XMLFields.text(valute, "Nominal", in: place)
            guard PreciousMetal.codes.contains(code), nominal == Self.troyOunce else {
                throw .layout("\(place) is a bank metal but not manats per troy ounce of a metal (\(UpstreamDataError.quoted(nominal)))")
            }
            let text = try XMLFields.text(valute, "Value", in: place)
            guard !text.isEmpty else { return nil }
            return PublishedQuote(currency: code, value: try PublishedText.rate(text, currency: code, day: day), direction: .pivotPerUnits)
        }.compactMap { $0 }
    }
}
