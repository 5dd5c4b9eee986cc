import RatesCore

/// The National Bank of Romania's reference rates of the leu (about 36 currencies).
///
/// - Source: `https://curs.bnr.ro/nbrfxrates.xml` (the latest day) and
///   `https://curs.bnr.ro/files/xml/years/nbrfxratesYYYY.xml` (every day of one year so far),
///   UTF-8 XML: `<DataSet>` (namespace `http://www.bnr.ro/xsd`, `https://` since 2024) whose
///   `<Body>` holds `<OrigCurrency>RON</OrigCurrency>` and one `<Cube date="YYYY-MM-DD">` per day
///   with one `<Rate currency="USD">4.3430</Rate>` per currency.
/// - Quote convention: lei for `multiplier` units of the currency (1 when the attribute is absent;
///   100 for HUF, IDR, ISK, JPY, KRW): ``PublishedQuote/Direction/pivotPerUnits``.
///   Gold (`XAU`, lei per gram) is not a currency and is skipped; the SDR (`XDR`) is kept.
/// - Schedule: Romanian banking days (Europe/Bucharest), shortly after 13:00.
/// - Ranges: one yearly file per calendar year the range touches; each answer holds every day of
///   its year published so far, also those outside the range.
public struct BNRProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: "\(baseURL)/nbrfxrates.xml")]) { first, last in
            (first.parts.year...last.parts.year).map { year in
                ProviderRequest(url: "\(baseURL)/files/xml/years/nbrfxrates\(year).xml")
            }
        }
    }

    /// Gold, quoted in lei per gram: not a currency.
    static let gold = CurrencyCode("XAU")!

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "DataSet")
        try XMLFields.expectOnly(["Header", "Body"], in: root)
        guard root.children("Body").count == 1, let content = root.child("Body") else {
            throw .layout("<DataSet> has \(root.children("Body").count) <Body> elements, expected one")
        }
        try XMLFields.expectOnly(["Subject", "OrigCurrency", "Cube"], in: content)
        let origin = try XMLFields.text(content, "OrigCurrency", in: "<Body>")
        guard origin == pivot.rawValue else {
            throw .layout("<OrigCurrency> is \(UpstreamDataError.quoted(origin)), expected RON")
        }
        return try content.children("Cube").map { cube throws(UpstreamDataError) in
            try XMLFields.expectOnly(["Rate"], in: cube)
            let day = try Day(parsing: XMLFields.attribute(cube, "date", in: "<Cube>"), .iso)
            let quotes = try XMLFields.quotes(
                cube.children, code: .attribute("currency"), unit: .optionalAttribute("multiplier", absent: "1"), rate: .text, day: day, pivot: pivot,
                skipped: [Self.gold])
            return ProviderPublication(day: day, quotes: quotes)
        }
    }
}
