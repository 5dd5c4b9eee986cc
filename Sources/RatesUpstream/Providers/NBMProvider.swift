import RatesCore

/// The National Bank of Moldova's official rates of the leu (about 40 currencies with the SDR).
///
/// - Source: `https://www.bnm.md/en/official_exchange_rates?date=DD.MM.YYYY&get_xml=1`, one day's table as UTF-8 XML: `<ValCurs Date="06.04.2026">`
///   holding one `<Valute ID="47">` per currency with `<NumCode>`, `<CharCode>`, `<Nominal>`, `<Name>` and `<Value>` (decimal point).
/// - Quote convention: `Value` lei for `Nominal` units of the currency (17.6124 MDL per 1 USD, per 10 ALL, per 100 JPY):
///   ``PublishedQuote/Direction/pivotPerUnits`` with unit `Nominal`. The SDR (`XDR`) is kept.
/// - Metals: `https://www.bnm.md/en/official_metal_rates?date=DD.MM.YYYY&get_xml=1`, the same day's `<MetalPrice Date="06.04.2026">` holding one
///   `<Metal>` per metal (`XAU`, `XAG`), lei per `Nominal` grams, each `Name` saying so (`Gram gold`): served per troy ounce, the price of one gram
///   times 31.1034768 exactly (``PreciousMetal``). A `Nominal` other than 1, or a name that does not say grams, rejects the answer. The metal prices
///   go back less far than the currencies' (the page answers 404 for days of 2010 and before): a 404 there, or a `<MetalPrice>` without metals, is no
///   publication for that request (``NoPublicationStatus``); the currencies' page's 404 still fails the fetch.
/// - Schedule: Moldovan working days (Europe/Chisinau); a day's table is looked for from 16:00.
/// - Ranges: one request per Monday–Friday in the range; the newest publication is today's table (by the source's clock, ``RatesProvider/today()``).
///   A table is read under the date it states.
public struct NBMProvider: RatesProvider, NoPublicationStatus, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latest: today(), on: schedule.weekdays).flatMap { day in
            ["official_exchange_rates", "official_metal_rates"].map { page in
                ProviderRequest(url: "\(baseURL)/en/\(page)?date=\(day.text(.dayMonthYear(separator: ".")))&get_xml=1")
            }
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        if request.url.contains("/official_metal_rates") { return try metals(body) }
        return try [XMLFields.valCursTable(body, pivot: pivot, days: .dayMonthYear(separator: "."))]
    }

    public func meansNoPublication(httpStatus: Int, for request: ProviderRequest) -> Bool {
        httpStatus == 404 && request.url.contains("/official_metal_rates")
    }

    /// Reads a `<MetalPrice>` answer: each metal's price per gram, as one per troy ounce.
    private func metals(_ body: [UInt8]) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "MetalPrice")
        try XMLFields.expectOnly(["Metal"], in: root)
        let day = try Day(parsing: XMLFields.attribute(root, "Date", in: "<MetalPrice>"), .dayMonthYear(separator: "."))
        let quotes = try root.children.map { metal throws(UpstreamDataError) in
            let code = try PublishedText.currency(XMLFields.text(metal, "CharCode", in: "a <Metal> of \(day)"), day: day)
            let place = "<Metal> \(code) of \(day)"
            let name = try XMLFields.text(metal, "Name", in: place)
            guard PreciousMetal.codes.contains(code), try PublishedText.unit(XMLFields.text(metal, "Nominal", in: place), of: code, day: day) == 1,
                name.lowercased().hasPrefix("gram ")
            else { throw .layout("\(place) is not a price of one gram of a precious metal (\(UpstreamDataError.quoted(name)))") }
            let perGram = try PublishedText.rate(XMLFields.text(metal, "Value", in: place), currency: code, day: day)
            let perOunce = try PreciousMetal.perTroyOunce(perGram: perGram, of: code, day: day)
            return PublishedQuote(currency: code, value: perOunce, direction: .pivotPerUnits)
        }
        return quotes.isEmpty ? [] : [ProviderPublication(day: day, quotes: quotes)]
    }
}
