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
public struct BCRPProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let months = Day.ProviderFormat.monthAbbreviations.map { $0 == "Sep" ? "Set" : $0 }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today()) else { return [] }
        return [ProviderRequest(url: "\(baseURL)/estadisticas/series/api/PD04639PD-PD04640PD/json/\(first.text(.iso))/\(last.text(.iso))/ing")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let series = try document.field(at: "config", "series").array("\"config\".\"series\"")
        let names = try series.map { entry throws(UpstreamDataError) in try entry.string("name", of: "a series") }
        guard names.count == 2, names[0].hasSuffix("(S/ por US$) - Compra"), names[1].hasSuffix("(S/ por US$) - Venta") else {
            throw .layout("the series are \(names.map(UpstreamDataError.quoted).joined(separator: ", ")), not buying and selling S/ per US$")
        }
        let periods = try document.field("periods", of: "the answer").array("\"periods\"")
        return try periods.enumerated().map { index, period throws(UpstreamDataError) -> ProviderPublication? in
            let day = try Self.day(period.string("name", of: "period \(index + 1)"))
            let values = try period.field("values", of: "\(day)").array("the values of \(day)")
            guard values.count == 2 else { throw .layout("\(day) has \(values.count) values, not a buying and a selling rate") }
            if values.allSatisfy({ $0 == .string("n.d.") }) { return nil }
            guard let buying = values[0].publishedDecimal, let selling = values[1].publishedDecimal, let middle = RateText.midpoint(buying, selling)
            else { throw .invalidRate(currency: .usDollar, day: day, text: values.map(\.shown).joined(separator: " / ")) }
            return ProviderPublication(day: day, currency: .usDollar, value: middle, direction: .pivotPerUnits)
        }.compactMap { $0 }
    }

    /// `01.Set.26`: two-digit day, month abbreviation, two-digit year (from 90 in the 1900s).
    static func day(_ text: String) throws(UpstreamDataError) -> Day {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 2, parts[2].utf8.count == 2, let month = months.firstIndex(of: String(parts[1])),
            let day = Day("\(parts[0]).\(month + 1).\(parts[2] >= "90" ? "19" : "20")\(parts[2])", .dayMonthYear(separator: ".", padded: false))
        else { throw .invalidDay(text) }
        return day
    }
}
