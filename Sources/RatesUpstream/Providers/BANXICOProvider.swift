import RatesCore

/// The Banco de México's FIX and its peso rates of the other SDR-basket currencies and the Canadian dollar: 5 currencies in MXN, from its SIE API.
///
/// - Endpoint: `GET https://www.banxico.org.mx/SieAPIRest/service/v1/series/SF43718,SF46410,SF46407,SF46406,SF60632/datos/2026-03-01/2026-03-15` (all
///   series in one request, both days included); the newest publication is `…/datos/oportuno` (each series' latest figure). The answer:
///   `{"bmx":{"series":[{"idSerie":"SF43718","titulo":"…","datos":[{"fecha":"02/03/2026","dato":"17.3485"},…]},…]}`, days as DD/MM/YYYY, figures as
///   JSON strings; the series come in any order. The SIE (Sistema de Información Económica) takes the API key in the header `Bmx-Token`.
/// - Series (``series``): SF43718 is the FIX (USD), SF46410 EUR, SF46407 GBP, SF46406 JPY, SF60632 CAD; a series not listed there is a layout error.
/// - Quote convention: MXN per 1 unit of the currency, ``PublishedQuote/Direction/pivotPerUnits`` (the yen too: `0.1105` MXN per yen, four decimals).
/// - Skipped: `"N/E"` ("no existe"), the SIE's mark for no figure that day. A series with no figure in the span asked for (only holidays or weekends,
///   or days before the series starts) comes without its `datos`: no figure of that currency; an answer with no figure at all is no publication.
/// - Schedule: America/Mexico_City, Monday to Friday; the FIX is determined at 12:00 and out about 12:30 local time.
/// - History: the FIX from 1991-11-12 (``historyStart``), the other series from their own first days.
public struct BANXICOProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The series read, in request order, and their currencies.
    public static let series: KeyValuePairs = ["SF43718": "USD", "SF46410": "EUR", "SF46407": "GBP", "SF46406": "JPY", "SF60632": "CAD"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard let span = window.map(latest: "oportuno", range: { "\($0)/\($1)" }) else { return [] }
        let ids = Self.series.map(\.key).joined(separator: ",")
        return [ProviderRequest(url: "\(baseURL)/series/\(ids)/datos/\(span)", headers: ["Bmx-Token": apiKey, "Accept": "application/json"])]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        if let failure = document["error"] {
            let message = [failure["mensaje"]?.stringValue, failure["detalle"]?.stringValue].compactMap { $0 }.joined(separator: ": ")
            throw .layout("the SIE answered an error: \(message)")
        }
        guard let seriesList = document["bmx"]?["series"]?.elements else { throw .layout("no \"bmx\" object with a \"series\" array") }
        guard !seriesList.isEmpty else { throw .empty }
        var rows: [(day: Day, quote: PublishedQuote)] = []
        for series in seriesList {
            guard let id = series["idSerie"]?.stringValue else { throw .layout("a series without the text idSerie") }
            let datos = series["datos"] ?? .null
            guard let observations = datos == .null ? [] : datos.elements else { throw .layout("the datos of \(id) is \(datos.kind), not an array") }
            guard let currency = Self.series.first(where: { $0.key == id }).flatMap({ CurrencyCode($0.value) }) else {
                throw .layout("a series \(DelimitedText.shown(id)), which has no currency here")
            }
            for observation in observations {
                guard let dayText = observation["fecha"]?.stringValue, let text = observation["dato"]?.stringValue else {
                    throw .layout("a figure of \(id) without the texts fecha and dato")
                }
                let day = try Day(parsing: dayText, .dayMonthYear(separator: "/"))
                // "N/E": no figure that day. A figure is read as written: the SIE's decimal point (a comma would group thousands).
                if text == "N/E" { continue }
                rows.append((day, PublishedQuote(currency: currency, value: text, direction: .pivotPerUnits)))
            }
        }
        return ProviderPublication.byDay(rows)
    }
}
