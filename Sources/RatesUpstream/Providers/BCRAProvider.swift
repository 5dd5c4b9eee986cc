import Foundation
import RatesCore

/// The Banco Central de la República Argentina's reference quotations of the peso: about 32 currencies.
///
/// - Source: `https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones?fecha=2026-03-19`, the bank's exchange statistics API, one day per
///   request, answered with `{"status":200,"results":{"fecha":"2026-03-19","detalle":[{"codigoMoneda":"AUD","descripcion":"DOLAR AUSTRALIA",
///   "tipoPase":0.70550000,"tipoCotizacion":983.81975000},…]}}`. An empty `detalle` (a day without quotations: a holiday is answered
///   `{"status":200,"results":{"fecha":null,"detalle":[]}}`, with or without its date) is no publication; undated quotations reject the answer.
/// - Quote convention: `tipoCotizacion` pesos for one unit of the currency, or for the units its `descripcion` names, with a point between thousands
///   or without one (`DONG VIETNAM (C/1.000 UNIDADES)`, `C/1000`: per 1000 VND), read as written in the JSON, trailing zeros kept (`983.81975000`):
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. `tipoPase` (the currency against the dollar) is not read. Codes are read without the
///   spaces around them (`"USD "`); the SDR is `XDR`.
/// - Skipped: `ARS` (the peso itself, quoted 0), `REF` (the reference dollar of Communication A 3500, a benchmark, not a currency), `XAU` and `XAG`
///   (gold and silver, quoted 0 here), and `MXP` and `VEB`, codes ISO 4217 withdrew in 1993 and 2008 under which the bank quotes today's Mexican peso
///   and bolívar (78.44 ARS per "MXP" is the MXN's figure): stored under neither code. A `tipoCotizacion` of 0: the bank's mark for a currency it
///   lists but does not quote that day.
/// - Schedule: America/Argentina/Buenos_Aires, Monday to Friday, usually out by 13:00 local time, dated the day the quotations are for.
/// - Ranges: one request per weekday of the range; for the newest publication, the weekdays of the last seven days to today. History from 2000-01-03.
public struct BCRAProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latestDays: 7, today: today(), on: PublicationSchedule.workingDays).map { day in
            ProviderRequest(url: "\(baseURL)/Cotizaciones?fecha=\(day.text(.iso))", headers: ["Accept": "application/json"])
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        guard document["status"] == .number("200") else { throw .layout("the answer's status is \(document["status"]?.shown ?? "none"), not 200") }
        let details = try document.field(at: "results", "detalle").array("\"detalle\"")
        let date = try document.field(at: "results", "fecha")
        if details.isEmpty, date == .null || date.stringValue != nil { return [] }
        let day = try Day(parsing: try date.string("\"fecha\""), .iso)
        let quotes = try details.enumerated().map { index, detail throws(UpstreamDataError) -> PublishedQuote? in
            let code = try detail.string("codigoMoneda", of: "quotation \(index + 1) of \(day)").trimmingCharacters(in: .whitespaces)
            if ["ARS", "REF", "XAU", "XAG", "MXP", "VEB"].contains(code) { return nil }
            let unit = try Self.unit(in: detail.string("descripcion", of: "\(code) on \(day)"))
            let value = try detail.field("tipoCotizacion", of: "\(code) on \(day)")
            guard case .number(let figure) = value else { throw .layout("\"tipoCotizacion\" of \(code) on \(day) is \(value.kind), not a number") }
            if ProviderValidation.isZero(figure) { return nil }
            return try .reading(code: code, value: value, unit: unit, direction: .pivotPerUnits, day: day)
        }
        return [ProviderPublication(day: day, quotes: quotes.compactMap { $0 })]
    }

    /// The units a description names (`DONG VIETNAM (C/1.000 UNIDADES)`: 1000, a point grouping thousands, or `C/1000` without); 1 if it names none.
    static func unit(in description: String) throws(UpstreamDataError) -> Int {
        guard let start = description.range(of: "(C/") else { return 1 }
        guard let end = description.range(of: " UNIDADES)", range: start.upperBound..<description.endIndex),
            let unit = GroupedDecimal.rateText(description[start.upperBound..<end.lowerBound], decimalMark: ",", groupMark: ".").flatMap({ Int($0) })
        else { throw .layout("the description \(UpstreamDataError.quoted(description)) names no whole number of units") }
        return unit
    }
}
