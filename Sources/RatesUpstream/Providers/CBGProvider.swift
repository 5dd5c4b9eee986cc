import RatesCore

/// The Central Bank of The Gambia's indicative (daily valuation) rates of the dalasi: 29 currencies.
///
/// - Source: one request per currency (``ProviderRequest/subject`` is its code; the answer does not name it):
///   `https://www.cbg.gm/ajax/indicative-exchange-rates/USD`, answered with the currency's whole archive as a JSON array of
///   `[epoch milliseconds at 00:00 UTC, rate]` pairs, newest first: `[[1779408000000,72.39],[1779321600000,72.84],…]`. Weekly figures from 2000 (USD,
///   EUR, GBP; XOF from 2005, CHF and JPY from 2007, the others from 18 Nov 2019), every working day since 2024.
/// - Quote convention: dalasis per 1 unit of the currency, per 100 for JPY, SEK and NOK (the answer does not say so: 45.47 GMD per 100 JPY and 72.39
///   per USD on 22 May 2026 make 159 JPY per USD, as every other year of the archive does), read as written in the JSON, to two decimals however
///   small the unit (GNF is `0.01`): ``RatesCore/PublishedQuote/Direction/pivotPerUnits``; the SDR is `XDR`. The archive holds some days twice: a
///   repeat with the same figure is read once, and a day given two different figures (USD on 2015-08-27: 44.82 and 39.61; GBP on 2026-04-16: 95.87
///   and 14.54) is left out, since nothing tells which is right. A figure of 0 (days some currencies had none, TRY among them) is no figure. Anything
///   else that is not a pair of a whole day and a positive number rejects the answer. Not asked for: the West African unit of account (WAUA, no ISO
///   4217 code); the Sierra Leonean leone, quoted as `SLL` at the figures of the new leone (SLE, worth 1000 SLL) since the 2022 redenomination and at
///   0 or 0.01 before it; the CFA franc (XOF), quoted per 5000 francs (646.22 GMD), a unit that is no power of ten; and the Danish krone, whose
///   figure has been `1` every day since July 2025.
/// - Schedule: Africa/Banjul, Monday to Friday, usually out by 11:00 local time, dated the day they apply to.
/// - Ranges: a range is the same requests as the newest publication, each answered with the whole archive (from 2000-01-07); a fetch keeps its days.
public struct CBGProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies asked for, in request order.
    public static let currencies = [
        "USD", "EUR", "GBP", "CHF", "SEK", "CAD", "NOK", "SAR", "JPY", "AUD", "TWD", "LKR", "THB", "PHP", "NZD", "AED", "KWD", "NGN", "HKD", "ZAR",
        "EGP", "CNY", "BRL", "INR", "GHS", "TRY", "GNF", "XDR", "SGD",
    ]
    /// The currencies quoted per 100 units.
    static let perHundred: Set<String> = ["JPY", "SEK", "NOK"]
    static let millisecondsPerDay: Int64 = 86_400_000

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.wholeHistory(Self.currencies.map { ProviderRequest(url: "\(baseURL)/\($0)", headers: ["Accept": "application/json"], subject: $0) })
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let currency = try request.subjectCurrency(among: Self.currencies, none: "none of the bank's currencies")
        let unit = Self.perHundred.contains(currency.rawValue) ? 100 : 1
        var figures: [Day: String?] = [:]
        for (index, pair) in try ProviderJSON(answer: body).array("the answer").enumerated() {
            let what = "\(currency) entry \(index + 1)"
            guard let elements = pair.elements, elements.count == 2, let stamp = elements[0].numberText, case .number = elements[1] else {
                throw .layout("\(what) is not a pair of a time and a number")
            }
            guard let milliseconds = Int64(stamp), milliseconds % Self.millisecondsPerDay == 0 else {
                throw .layout("\(what) is at \(UpstreamDataError.quoted(stamp)), not at 00:00 UTC in whole milliseconds")
            }
            let day = Day(dayNumber: Int(milliseconds / Self.millisecondsPerDay))
            if elements[1].numberText.map({ Double($0) == 0 }) == true { continue }
            guard let value = elements[1].publishedDecimal else { throw .invalidRate(currency: currency, day: day, text: elements[1].shown) }
            // A day seen before with another figure (or two already) has nil: it is left out.
            figures[day] = figures[day] == nil || figures[day] == .some(value) ? .some(value) : .some(nil)
        }
        return figures.compactMap { day, value in
            value.map { ProviderPublication(day: day, currency: currency, value: $0, unit: unit, direction: .pivotPerUnits) }
        }
    }
}
