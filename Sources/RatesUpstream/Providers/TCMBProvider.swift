import RatesCore

/// The Central Bank of the Republic of Türkiye's indicative rates of the lira (about 20 currencies).
///
/// - Source: the keyless daily bulletin `https://www.tcmb.gov.tr/kurlar/today.xml` (the latest)
///   and `https://www.tcmb.gov.tr/kurlar/YYYYMM/DDMMYYYY.xml` (one day, from 1996-04-16), XML in ISO-8859-9:
///   `<Tarih_Date Tarih="15.03.2016" Date="03/15/2016">` holding one `<Currency CurrencyCode="USD">`
///   per currency with `<Unit>`, `<ForexBuying>`, `<ForexSelling>`, banknote rates and cross rates.
///   The same figures come from the bank's EVDS3 data service (which needs an API key, so the fetch asks
///   for the bulletins; its answers are read as well, for `rates-relay import`):
///   `https://evds3.tcmb.gov.tr/igmevdsms-dis/series=TP.DK.USD.A.YTL-TP.DK.USD.S.YTL-…&startDate=DD-MM-YYYY&endDate=…&type=json`,
///   JSON with one item per calendar day: `{"totalCount":22,"items":[{"Tarih":"02-03-2026",
///   "TP_DK_USD_A_YTL":"43.80000000","TP_DK_USD_S_YTL":"43.87890000",…,"UNIXTIME":{"$numberLong":"1772398800"}}]}`,
///   a series `TP_DK_<code>_A_YTL` the forex buying and `…_S_YTL` the forex selling rate, both `null` on a day
///   without a bulletin (a weekend, a holiday); banknote series (`…_A_EF_YTL`, `…_S_EF_YTL`) are not read.
/// - Quote convention: the bank publishes buying and selling rates only. The figure used is the
///   exact midpoint of `ForexBuying` and `ForexSelling` (``RatesCore/RateText/midpoint(_:_:)``),
///   as Frankfurter takes the midpoint of the same two series: lira for `Unit` units of the
///   currency (100 for JPY and IRR; EVDS3 states no unit and quotes those two per 100 as the bulletin does:
///   ``evdsUnits``), ``PublishedQuote/Direction/pivotPerUnits``. Banknote rates
///   (a cash margin) and cross rates are not read. The SDR (`XDR`) comes with a buying rate only,
///   so it has no midpoint and is skipped; any other currency without both rates rejects the answer.
/// - The old lira: a bulletin dated before 2005-01-01 quotes old lira (TRL; 1,000,000 TRL are 1 TRY). Its
///   figures are kept as published and read as lira (TRY) for 1,000,000 times `Unit` units of the currency,
///   which is the same rate. EVDS3's `…YTL` series are in new lira throughout and are read as they are.
/// - Schedule: Turkish working days (Europe/Istanbul), at 15:30; a bulletin's date is its
///   publication day.
/// - Ranges: one request per Monday–Friday in the range. A holiday has no file: the bank answers
///   404 there. History from 1996-04-16 (``historyStart``).
public struct TCMBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The first day of the new lira: bulletins before it quote old lira, 1,000,000 to the new one.
    public static let newLira = Day(year: 2005, month: 1, day: 1)!

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: "\(baseURL)/today.xml")], eachDayOn: PublicationSchedule.workingDays) { day in
            ProviderRequest(url: "\(baseURL)/\(day.text(.compact).prefix(6))/\(day.text(.dayMonthYear(separator: ""))).xml")
        }
    }

    /// The SDR, published with a buying rate only.
    static let specialDrawingRight = CurrencyCode("XDR")!

    /// The currencies EVDS3 quotes per 100 units, as the bulletin's `Unit` says; every other per 1.
    public static let evdsUnits: [CurrencyCode: Int] = [CurrencyCode("JPY")!: 100, CurrencyCode("IRR")!: 100]

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        if body.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "{") {
            return try parseEVDS(body)
        }
        let root = try XMLReader.Element(parsing: body, root: "Tarih_Date")
        try XMLFields.expectOnly(["Currency"], in: root)
        let dateText = try XMLFields.attribute(root, "Tarih", in: "<Tarih_Date>")
        let day = try Day(parsing: dateText, .dayMonthYear(separator: ".", padded: false))
        // The same day again in US order: both must agree.
        if let english = root.attribute("Date"), try Day(parsing: english, .monthDayYear(separator: "/", padded: false)) != day {
            throw .layout("<Tarih_Date> is dated \(dateText) and \(english)")
        }
        let quotes = try root.children.map { currency throws(UpstreamDataError) -> PublishedQuote? in
            let code = try PublishedText.currency(XMLFields.attribute(currency, "CurrencyCode", in: "<Currency> of \(day)"), day: day)
            let place = "<Currency CurrencyCode=\"\(code)\"> of \(day)"
            var unit = try PublishedText.unit(XMLFields.text(currency, "Unit", in: place), of: code, day: day)
            if day < Self.newLira { unit *= 1_000_000 }  // old lira for Unit units: new lira for a million times as many
            let buying = try XMLFields.text(currency, "ForexBuying", in: place)
            let selling = try XMLFields.text(currency, "ForexSelling", in: place)
            if code == Self.specialDrawingRight && selling.isEmpty || code == pivot { return nil }
            let buyingRate = try PublishedText.rate(buying, currency: code, day: day)
            let sellingRate = try PublishedText.rate(selling, currency: code, day: day)
            let middle = try PublishedText.midpoint(buying: buyingRate, selling: sellingRate, currency: code, day: day)
            return PublishedQuote(currency: code, value: middle, unit: unit, direction: .pivotPerUnits)
        }.compactMap { $0 }
        return [ProviderPublication(day: day, quotes: quotes)]
    }

    /// An EVDS3 answer: one item per calendar day, each currency's buying (`_A_YTL`) and selling (`_S_YTL`) series.
    func parseEVDS(_ body: [UInt8]) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        // None for days without a bulletin only.
        return try document.field("items", of: "the answer").array("\"items\"").enumerated().map { index, item throws(UpstreamDataError) in
            let what = "item \(index + 1)"
            let day = try Day(parsing: item.string("Tarih", of: what), .dayMonthYear(separator: "-", padded: false))
            var codes: [String] = []
            var series: [String: ProviderJSON] = [:]
            for member in try item.members(what) where member.key != "Tarih" && member.key != "UNIXTIME" {
                // TP_DK_USD_A_YTL, TP_DK_USD_S_YTL; the banknote rates TP_DK_USD_A_EF_YTL, TP_DK_USD_S_EF_YTL are not read.
                let parts = member.key.split(separator: "_", omittingEmptySubsequences: false)
                guard parts.count == 5 || parts.count == 6 && parts[4] == "EF", parts[0] == "TP", parts[1] == "DK", parts.last == "YTL",
                    parts[3] == "A" || parts[3] == "S"
                else { throw .layout("\(what) (\(day)) has \(UpstreamDataError.quoted(member.key)), not a TP.DK series") }
                if parts.count == 6 { continue }
                guard series.updateValue(member.value, forKey: member.key) == nil else {
                    throw .layout("\(what) (\(day)) has \(member.key) twice")
                }
                if !codes.contains(String(parts[2])) { codes.append(String(parts[2])) }
            }
            var quotes: [PublishedQuote] = []
            for code in codes {
                let (buying, selling) = (series["TP_DK_\(code)_A_YTL"] ?? .null, series["TP_DK_\(code)_S_YTL"] ?? .null)
                guard let currency = CurrencyCode(code) else { throw .invalidCurrencyCode(code, day: day) }
                if buying == .null && selling == .null || currency == Self.specialDrawingRight && selling == .null { continue }
                guard let buyingRate = buying.publishedDecimal, let sellingRate = selling.publishedDecimal,
                    let middle = RateText.midpoint(buyingRate, sellingRate)
                else { throw .invalidRate(currency: currency, day: day, text: buying.shown + " / " + selling.shown) }
                quotes.append(PublishedQuote(currency: currency, value: middle, unit: Self.evdsUnits[currency] ?? 1, direction: .pivotPerUnits))
            }
            return quotes.isEmpty ? nil : ProviderPublication(day: day, quotes: quotes)
        }.compactMap { $0 }
    }
}
