import Foundation
import RatesCore

/// The Banco Central de la República Argentina's reference quotations of the peso: about 32 currencies.
///
/// - Source: the bank's exchange statistics API, one day per request:
///   `https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones?fecha=2026-03-19`, answered with `{"status":200,
///   "results":{"fecha":"2026-03-19","detalle":[{"codigoMoneda":"AUD","descripcion":"DOLAR AUSTRALIA","tipoPase":0.70550000,
///   "tipoCotizacion":983.81975000},…]}}`. An empty `detalle` (a day without quotations: a holiday is answered `{"status":200,
///   "results":{"fecha":null,"detalle":[]}}`, with or without its date) is no publication; quotations without a date reject the answer.
/// - Quote convention: `tipoCotizacion` pesos for one unit of the currency, or for the number of units its `descripcion` names
///   (`DONG VIETNAM (C/1.000 UNIDADES)`: per 1000 VND), read as written in the JSON, trailing zeros kept (`983.81975000`):
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. `tipoPase` (the currency against the dollar) is not read. Skipped: `ARS` (the peso itself,
///   quoted 0), `REF` (the reference dollar of Communication A 3500, a benchmark, not a currency), `XAU` and `XAG` (gold and silver, quoted 0 here),
///   and `MXP` and `VEB`, codes ISO 4217 withdrew in 1993 and 2008 under which the bank quotes today's Mexican peso and bolívar (78.44 ARS per "MXP"
///   is the MXN's figure): stored under neither code. The SDR is `XDR`. A `tipoCotizacion` of 0 is the bank's mark for a currency it lists but does
///   not quote that day: skipped. Codes are read without the spaces around them (`"USD "`). The units are written with a point between thousands
///   (`C/1.000`) or without one (`C/1000`).
/// - Schedule: America/Argentina/Buenos_Aires, Monday to Friday, usually out by 13:00 local time, dated the day the quotations are for.
/// - Ranges: one request per weekday of the range; the newest publication is asked for as the weekdays of the last seven days up to today. The
///   history starts on 2000-01-03.
public struct BCRAProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public let emptyAnswerIsNoPublication = true

    /// Codes among the quotations that are skipped, as the doc comment says why.
    static let skipped: Set<String> = ["ARS", "REF", "XAU", "XAG", "MXP", "VEB"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latestDays: 7, today: today(), on: PublicationSchedule.workingDays).map { day in
            ProviderRequest(url: "\(baseURL)/Cotizaciones?fecha=\(day.text(.iso))", headers: ["Accept": "application/json"])
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let status = try document.field("status", of: "the answer")
        guard status == .number("200") else { throw .layout("the answer's status is \(status.shown), not 200") }
        let results = try document.field("results", of: "the answer")
        let details = try results.field("detalle", of: "\"results\"").array("\"detalle\"")
        let date = try results.field("fecha", of: "\"results\"")
        // A day without quotations (a holiday): `"fecha":null` or the day, and no `detalle`.
        if details.isEmpty, date == .null || date.stringValue != nil { return [] }
        let day = try Day(parsing: try date.string("\"fecha\""), .iso)
        var quotes: [PublishedQuote] = []
        for (index, detail) in details.enumerated() {
            let what = "quotation \(index + 1) of \(day)"
            let code = try detail.string("codigoMoneda", of: what).trimmingCharacters(in: .whitespaces)
            if Self.skipped.contains(code) { continue }
            let unit = try Self.unit(in: detail.field("descripcion", of: "\(code) on \(day)").string("its description"))
            let value = try detail.field("tipoCotizacion", of: "\(code) on \(day)")
            guard case .number(let figure) = value else { throw .layout("\"tipoCotizacion\" of \(code) on \(day) is \(value.kind), not a number") }
            // Listed, not quoted that day (a JSON number all of whose digits are zero: `0`, `0.00000000`).
            if ProviderValidation.isZero(figure) { continue }
            quotes.append(try .reading(code: code, value: value, unit: unit, direction: .pivotPerUnits, day: day))
        }
        return [ProviderPublication(day: day, quotes: quotes)]
    }

    /// The units a description names (`DONG VIETNAM (C/1.000 UNIDADES)`: 1000, a point grouping thousands, or `C/1000` without); 1 if it names none.
    static func unit(in description: String) throws(UpstreamDataError) -> Int {
        guard let start = description.range(of: "(C/") else { return 1 }
        guard let end = description.range(of: " UNIDADES)", range: start.upperBound..<description.endIndex) else {
            throw .layout("the description \(UpstreamDataError.quoted(description)) names units without \"UNIDADES)\"")
        }
        let written = description[start.upperBound..<end.lowerBound]
        let groups = written.split(separator: ".", omittingEmptySubsequences: false)
        guard groups.count == 1 || (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }),
            groups.allSatisfy({ $0.utf8.allSatisfy(\.isASCIIDigit) }), let unit = Int(groups.joined()), unit > 0
        else { throw .layout("the description \(UpstreamDataError.quoted(description)) names no whole number of units") }
        return unit
    }
}
