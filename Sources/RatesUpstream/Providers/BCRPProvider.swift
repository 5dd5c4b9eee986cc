import RatesCore

/// The Banco Central de Reserva del Perú's exchange rate of the sol against the US dollar, from BCRPData.
///
/// - Source: the BCRPData statistics API, the banking system's (SBS) buying and selling rates as two series:
///   `https://estadisticas.bcrp.gob.pe/estadisticas/series/api/PD04639PD-PD04640PD/json/2026-09-01/2026-09-08/ing` (served as `text/html`, the body
///   is JSON): `{"config":{"title":"Tipo de cambio","series":[{"name":"Tipo de cambio - TC Sistema bancario SBS (S/ por US$) -
///   Compra","dec":"3"},{"name":"… - Venta",…}]},"periods":[{"name":"01.Set.26","values":["3.36","3.368"]},…]}`. A period is named `DD.Mon.YY`, the
///   English month abbreviation except September, `Set` (the Spanish one); a two-digit year from 90 is in the 1900s (the series start in the 1990s),
///   otherwise in the 2000s. `n.d.` ("no data") for both values is a day without rates (the newest day, before the close): no publication for that
///   day. One value `n.d.` and the other a figure rejects the answer.
/// - Quote convention: buying (`Compra`) and selling (`Venta`) only. As for every buy/sell-only source, the figure stored is their exact midpoint
///   (``RatesCore/RateText/midpoint(_:_:)``: `"3.36"` and `"3.368"` give `"3.364"`), soles for one US dollar,
///   ``PublishedQuote/Direction/pivotPerUnits``. The series' names must say they are the buying and the selling rate in soles per US dollar.
/// - Schedule: America/Lima, Monday to Friday, the day's close out by about 17:00; the series start on 1997-01-02 (``historyStart``): an answer
///   reaching back to 1997 is read whole.
/// - Ranges: one request for the whole range; the newest publication is asked for as the last seven days up to today.
public struct BCRPProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public let emptyAnswerIsNoPublication = true

    /// The API root (`…/estadisticas/series/api`).
    var endpoint: String { baseURL + "/estadisticas/series/api" }

    /// The buying and the selling series, in that order.
    static let series = "PD04639PD-PD04640PD"
    static let dollar = CurrencyCode("USD")!
    /// Month abbreviations of the English answers, January first.
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Set", "Oct", "Nov", "Dec"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today()) else { return [] }
        return [ProviderRequest(url: "\(endpoint)/\(Self.series)/json/\(first.text(.iso))/\(last.text(.iso))/ing")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let series = try document.field("config", of: "the answer").field("series", of: "\"config\"").array("\"config\".\"series\"")
        let names = try series.map { entry throws(UpstreamDataError) in try entry.field("name", of: "a series").string("a series' \"name\"") }
        guard names.count == 2, names[0].hasSuffix("(S/ por US$) - Compra"), names[1].hasSuffix("(S/ por US$) - Venta") else {
            let shown = names.map { UpstreamDataError.quoted($0) }.joined(separator: ", ")
            throw .layout("the series are \(shown), not the buying and selling rates in soles per US dollar")
        }
        var publications: [ProviderPublication] = []
        for (index, period) in try document.field("periods", of: "the answer").array("\"periods\"").enumerated() {
            let what = "period \(index + 1)"
            let day = try Self.day(period.string("name", of: what))
            let values = try period.field("values", of: "\(day)").array("the values of \(day)")
            guard values.count == 2 else { throw .layout("\(day) has \(values.count) values, not a buying and a selling rate") }
            if values.allSatisfy({ $0 == .string("n.d.") }) { continue }
            guard let buying = values[0].publishedDecimal, let selling = values[1].publishedDecimal, let middle = RateText.midpoint(buying, selling)
            else { throw .invalidRate(currency: Self.dollar, day: day, text: values.map(\.shown).joined(separator: " / ")) }
            let quote = PublishedQuote(currency: Self.dollar, value: middle, direction: .pivotPerUnits)
            publications.append(ProviderPublication(day: day, quotes: [quote]))
        }
        return publications
    }

    /// `01.Set.26`: two-digit day, month abbreviation, two-digit year.
    static func day(_ text: String) throws(UpstreamDataError) -> Day {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 2, parts[2].utf8.count == 2,
            PublishedText.isDigits(parts[0]), PublishedText.isDigits(parts[2]),
            let month = months.firstIndex(of: String(parts[1])), let yy = Int(parts[2]),
            let day = Day(year: yy >= 90 ? 1900 + yy : 2000 + yy, month: month + 1, day: Int(parts[0])!)
        else { throw .invalidDay(text) }
        return day
    }
}
