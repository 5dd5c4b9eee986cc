import RatesCore

/// Financial Benchmarks India's reference rates of the rupee (published by FBIL, not the Reserve Bank, since 2018): USD, GBP, EUR, JPY, AED and IDR
/// in INR.
///
/// - Endpoint: `GET https://www.fbil.org.in/wasdm/refrates/fetchfiltered?authenticated=false&fromDate=2026-03-17&toDate=2026-03-21` (both days
///   included, one request for any range); the newest publication is asked for as the last seven days up to today. The answer is a JSON array, one
///   element per day and currency, newest day first:
///   `[{"processRunDate":"2026-03-20 00:00:00","subProdName":"INR / 100 JPY","displayTime":"2026-03-20 13:00:00","rate":58.940000,"comments":""},…]`.
///   The rates are JSON numbers and are read from their text (`93.348300` stays `93.348300`: the API writes six decimals, the benchmark has four); a
///   record whose `rate` is `null` has no figure and is left out. A range without a publication (Indian holidays, a weekend) answers `[]`: no
///   publication.
/// - Quote convention: INR per N units of the currency as `subProdName` says (`INR / 1 USD`, `INR / 100 JPY`, `INR / 10000 IDR`),
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits`` with `unit` N. A `subProdName` of any other form is a layout error.
/// - Schedule: Asia/Kolkata, Monday to Friday except Indian holidays, published about 13:30 local time.
public struct FBILProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard let span = window.span(latestDays: 7, today: today()) else { return [] }
        let query = "authenticated=false&fromDate=\(span.first)&toDate=\(span.last)"
        return [ProviderRequest(url: "\(baseURL)?\(query)", headers: ["Accept": "application/json"])]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        guard let records = try ProviderJSON(answer: body).elements else { throw .layout("the answer is not a JSON array of rates") }
        return ProviderPublication.byDay(try records.filter { $0["rate"] != ProviderJSON.null }.map { record throws(UpstreamDataError) in
            guard let stamp = record["processRunDate"]?.stringValue, let product = record["subProdName"]?.stringValue,
                let rate = record["rate"]?.numberText
            else { throw .layout("a rate without the texts processRunDate and subProdName and the number rate") }
            // FBIL stamps each run at midnight: `2026-03-20 00:00:00`.
            guard stamp.hasSuffix(" 00:00:00"), stamp.utf8.count == 19 else { throw .invalidDay(stamp) }
            let day = try Day(parsing: stamp.prefix(10), .iso)
            let (unit, currency) = try units(of: product, day: day)
            guard RateText.isValid(rate) else { throw .invalidRate(currency: currency, day: day, text: rate) }
            return (day, PublishedQuote(currency: currency, value: rate, unit: unit, direction: .pivotPerUnits))
        })
    }

    /// The units and currency of `INR / 100 JPY`.
    func units(of text: String, day: Day) throws(UpstreamDataError) -> (unit: Int, currency: CurrencyCode) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "INR", parts[1] == "/",
            parts[2].allSatisfy({ $0.isASCII && $0.isNumber }), let unit = Int(parts[2]), unit > 0, ProviderValidation.isPowerOfTen(unit)
        else {
            throw .layout("the product \(DelimitedText.shown(text)) on \(day) is not \"INR / N CODE\" with N 1, 10, 100, …")
        }
        guard let currency = CurrencyCode(String(parts[3])) else { throw .invalidCurrencyCode(String(parts[3]), day: day) }
        return (unit, currency)
    }
}
