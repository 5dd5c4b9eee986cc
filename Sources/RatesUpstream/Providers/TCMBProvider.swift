import RatesCore

/// The Central Bank of the Republic of Türkiye's indicative rates of the lira (about 20 currencies).
///
/// - Source: the keyless daily bulletin `https://www.tcmb.gov.tr/kurlar/today.xml` (the latest)
///   and `https://www.tcmb.gov.tr/kurlar/YYYYMM/DDMMYYYY.xml` (one day), XML in ISO-8859-9:
///   `<Tarih_Date Tarih="15.03.2016" Date="03/15/2016">` holding one `<Currency CurrencyCode="USD">`
///   per currency with `<Unit>`, `<ForexBuying>`, `<ForexSelling>`, banknote rates and cross rates.
/// - Quote convention: the bank publishes buying and selling rates only. The figure used is the
///   exact midpoint of `ForexBuying` and `ForexSelling` (``RatesCore/RateText/midpoint(_:_:)``),
///   as Frankfurter takes the midpoint of the same two series: lira for `Unit` units of the
///   currency (100 for JPY and IRR), ``PublishedQuote/Direction/pivotPerUnits``. Banknote rates
///   (a cash margin) and cross rates are not read. The SDR (`XDR`) comes with a buying rate only,
///   so it has no midpoint and is skipped; any other currency without both rates rejects the file.
/// - Schedule: Turkish working days (Europe/Istanbul), at 15:30; a bulletin's date is its
///   publication day.
/// - Ranges: one request per Monday–Friday in the range. A holiday has no file: the bank answers
///   404 there.
public struct TCMBProvider: RatesProvider {
    public let key = "TCMB"
    public let name = "Central Bank of the Republic of Türkiye"
    public let country: String? = "TR"
    public let pivot = CurrencyCode("TRY")!
    public let rateType = "midpoint of the indicative buying and selling rates"
    /// Working days, 15:30 Istanbul time.
    public let schedule = PublicationSchedule(timeZone: "Europe/Istanbul", expectedMinute: 15 * 60 + 30)

    /// The directory the bulletins are in, without a trailing slash.
    public let baseURL: String

    /// - Parameter baseURL: The bulletins' directory (`https://www.tcmb.gov.tr/kurlar` when `nil`),
    ///   for a test server or a mirror.
    public init(baseURL: String? = nil) {
        self.baseURL = baseURL ?? "https://www.tcmb.gov.tr/kurlar"
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        switch window {
        case .latest:
            return [ProviderRequest(url: "\(baseURL)/today.xml")]
        case .range(let first, let last):
            return Day.days(from: first, through: last, on: PublicationSchedule.workingDays).map { day in
                ProviderRequest(url: "\(baseURL)/\(day.text(.compact).prefix(6))/\(day.text(.dayMonthYear(separator: ""))).xml")
            }
        }
    }

    /// The SDR, published with a buying rate only.
    static let specialDrawingRight = CurrencyCode("XDR")!

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let xml = ProviderXMLParsing(key)
        let root = try XMLReader.Element(parsing: body, root: "Tarih_Date")
        try xml.expectOnly(["Currency"], in: root)
        let dateText = try xml.attribute(root, "Tarih", in: "<Tarih_Date>")
        let day = try Day(parsing: dateText, .dayMonthYear(separator: ".", padded: false))
        // The same day again in US order: both must agree.
        if let english = root.attribute("Date"), try Day(parsing: english, .monthDayYear(separator: "/", padded: false)) != day {
            throw .unexpectedLayout(provider: key, "<Tarih_Date> is dated \(dateText) and \(english)")
        }
        var quotes: [PublishedQuote] = []
        for currency in root.children {
            let code = try ProviderXMLParsing.currency(xml.attribute(currency, "CurrencyCode", in: "<Currency> of \(day)"), day: day)
            let place = "<Currency CurrencyCode=\"\(code)\"> of \(day)"
            let unit = try xml.unit(xml.text(currency, "Unit", in: place), of: code, day: day)
            let buying = try xml.text(currency, "ForexBuying", in: place)
            let selling = try xml.text(currency, "ForexSelling", in: place)
            if code == Self.specialDrawingRight && selling.isEmpty || code == pivot { continue }
            let buyingRate = try ProviderXMLParsing.rate(buying, currency: code, day: day)
            let sellingRate = try ProviderXMLParsing.rate(selling, currency: code, day: day)
            guard let middle = RateText.midpoint(buyingRate, sellingRate) else {
                throw .invalidRate(currency: code, day: day, text: buying + " / " + selling)
            }
            quotes.append(PublishedQuote(currency: code, value: middle, unit: unit, direction: .pivotPerUnits))
        }
        return try ProviderValidation.validate([ProviderPublication(day: day, quotes: quotes)])
    }
}
