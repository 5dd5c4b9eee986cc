import RatesCore

/// The National Bank of Moldova's official rates of the leu (about 40 currencies with the SDR).
///
/// - Source: `https://www.bnm.md/en/official_exchange_rates?date=DD.MM.YYYY&get_xml=1`, one day's
///   table as UTF-8 XML: `<ValCurs Date="06.04.2026">` holding one `<Valute ID="47">` per currency
///   with `<NumCode>`, `<CharCode>`, `<Nominal>`, `<Name>` and `<Value>` (decimal point).
/// - Quote convention: `Value` lei for `Nominal` units of the currency (17.6124 MDL per 1 USD, per
///   10 ALL, per 100 JPY): ``PublishedQuote/Direction/pivotPerUnits`` with unit `Nominal`. The SDR
///   (`XDR`) is kept.
/// - Metals: `https://www.bnm.md/en/official_metal_rates?date=DD.MM.YYYY&get_xml=1`, the same day's
///   `<MetalPrice Date="06.04.2026">` holding one `<Metal>` per metal (`XAU`, `XAG`), lei per
///   `Nominal` grams, each `Name` saying so (`Gram gold`): served per troy ounce, the price of one
///   gram times 31.1034768 exactly (``PreciousMetal``). A `Nominal` other than 1, or a name that
///   does not say grams, rejects the answer. The metal prices go back less far than the currencies' (the
///   page answers 404 for days of 2010 and before): a 404 there, or a `<MetalPrice>` without metals, is no
///   publication for that request (``NoPublicationStatus``); the currencies' page's 404 still fails the fetch.
/// - Schedule: Moldovan working days (Europe/Chisinau); a day's table is looked for from 16:00.
/// - Ranges: one request per Monday–Friday in the range; the newest publication is today's table
///   (by the clock given at ``init(baseURL:today:)``). A table is read under the date it states.
public struct NBMProvider: RatesProvider {
    public let key = "NBM"
    public let name = "National Bank of Moldova"
    public let country: String? = "MD"
    public let pivot = CurrencyCode("MDL")!
    public let rateType = "official rate"
    /// Working days, from 16:00 Chișinău time.
    public let schedule = PublicationSchedule(timeZone: "Europe/Chisinau", expectedMinute: 16 * 60)

    /// The host the `en/official_exchange_rates` path is under, without a trailing slash.
    public let baseURL: String
    private let today: @Sendable () -> Day

    /// - Parameters:
    ///   - baseURL: The host (`https://www.bnm.md` when `nil`), for a test server or a mirror.
    ///   - today: The day it is in Moldova, for the newest publication's request.
    public init(baseURL: String? = nil, today: @escaping @Sendable () -> Day = Day.clock(utcOffset: 2 * 3600)) {
        self.baseURL = baseURL ?? "https://www.bnm.md"
        self.today = today
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latest: today(), on: schedule.weekdays).flatMap { day in
            ["official_exchange_rates", "official_metal_rates"].map { page in
                ProviderRequest(url: "\(baseURL)/en/\(page)?date=\(day.text(.dayMonthYear(separator: ".")))&get_xml=1")
            }
        }
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let xml = ProviderXMLParsing(key)
        if request.url.contains("/official_metal_rates") { return try metals(body, xml: xml) }
        return try ProviderValidation.validate([xml.valCursTable(body, pivot: pivot, days: .dayMonthYear(separator: "."))])
    }

    /// Reads a `<MetalPrice>` answer: each metal's price per gram, as one per troy ounce.
    private func metals(_ body: [UInt8], xml: ProviderXMLParsing) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "MetalPrice")
        try xml.expectOnly(["Metal"], in: root)
        let day = try Day(parsing: xml.attribute(root, "Date", in: "<MetalPrice>"), .dayMonthYear(separator: "."))
        var quotes: [PublishedQuote] = []
        for metal in root.children {
            let code = try ProviderXMLParsing.currency(xml.text(metal, "CharCode", in: "a <Metal> of \(day)"), day: day)
            let place = "<Metal> \(code) of \(day)"
            let name = try xml.text(metal, "Name", in: place)
            guard PreciousMetal.codes.contains(code), try xml.unit(xml.text(metal, "Nominal", in: place), of: code, day: day) == 1,
                  name.lowercased().hasPrefix("gram ")
            else {
                throw .unexpectedLayout(provider: key, "\(place) is not a price of one gram of a precious metal (\(UpstreamDataError.quoted(name)))")
            }
            let value = try ProviderXMLParsing.rate(xml.text(metal, "Value", in: place), currency: code, day: day)
            quotes.append(PublishedQuote(currency: code, value: try PreciousMetal.perTroyOunce(perGram: value, of: code, day: day), direction: .pivotPerUnits))
        }
        if quotes.isEmpty { return [] }  // no metal prices that day
        return try ProviderValidation.validate([ProviderPublication(day: day, quotes: quotes)])
    }
}

/// The metal prices' page answers 404 for the days before its series: no metal prices that day.
extension NBMProvider: NoPublicationStatus {
    public func meansNoPublication(httpStatus: Int, for request: ProviderRequest) -> Bool {
        httpStatus == 404 && request.url.contains("/official_metal_rates")
    }
}
