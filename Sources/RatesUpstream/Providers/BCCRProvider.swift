import Foundation
import RatesCore

/// The Banco Central de Costa Rica's reference rates of the US dollar in colones, buying and selling.
///
/// - Source: the SDDE API behind the bank's economic indicators site (`https://apim.bccr.fi.cr/SDDE/api`). A
///   fetch first asks `…/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF` for an
///   anonymous token (a JWT, as plain text: ``sessionRequest(for:)``), then
///   `…/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro?CantidadSeriesAMostrar=100&FechaFin=2026-03-24&FechaInicio=2026-03-18T00:00:00&IdGrupoVariable=1`
///   with the token in the `token_csrf` header (and `Origin: https://sdd.bccr.fi.cr`, as the site sends it).
///   Variable group 1 is the table "US Dollar purchase and sale rates": JSON with `columnas` (the first,
///   `"field":"nombre"`, names the rows; then one per day, `{"field":"serie100","tituloIngles":"24 mar 2026",…}`)
///   and `indicadoresRaiz`, the rows: indicator 317 (`Compra`, buying) and 318 (`Venta`, selling), each
///   with `series` holding every day's figure twice, `"serie100":"463,50"` (decimal comma) and
///   `"serie100Ingles":"463.50"`. The English figure is read; both must say the same.
/// - Quote convention: colones per 1 USD, buying and selling only. As for every buy/sell-only source, the
///   figure stored is their exact midpoint (``RatesCore/RateText/midpoint(_:_:)``: `463.50` and `469.49`
///   give `466.495`), ``PublishedQuote/Direction/pivotPerUnits``. (Frankfurter stores the selling rate.)
///   A day whose column has neither figure (none published yet) is skipped; a day with only one rejects the answer.
/// - Schedule: America/Costa_Rica (UTC−6), Monday to Friday; the rates of a day are set and published on
///   the working day before (the recording of 24 March 2026, 11:34 local time, holds 24 March), by about
///   noon. Every calendar day has a column: Saturday's, Sunday's and Monday's figures are equal, set on the Friday.
/// - Ranges: the table answers the `CantidadSeriesAMostrar` (at most 100) days up to `FechaFin`, whatever
///   `FechaInicio` says: a range is asked for in spans of at most 100 days, and the fetch keeps the range's
///   own days. The newest publication is asked for as the last seven days up to today (the answer holds
///   the 100 days up to today).
public struct BCCRProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The variable group of the dollar's buying and selling reference rates.
    static let group = 1
    /// The row indicators: buying (`Compra`) and selling (`Venta`).
    static let buying = 317
    static let selling = 318
    /// The most days one table answers.
    static let maxDays = 100

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        ProviderRequest(url: baseURL + "/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF")
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        tables(for: window, token: nil)
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        let token = session.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")
        guard !token.isEmpty, token.count <= 4096, token.allSatisfy(allowed.contains), token.split(separator: ".").count == 3 else {
            throw .layout("the token answer is not a token: \(UpstreamDataError.quoted(token))")
        }
        return tables(for: window, token: token)
    }

    /// One table request per span of at most 100 days, with the token when there is one.
    func tables(for window: FetchWindow, token: String?) -> [ProviderRequest] {
        let url = baseURL + "/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro"
        var headers = ["Origin": "https://sdd.bccr.fi.cr", "Accept": "application/json"]
        if let token { headers["token_csrf"] = token }
        return window.spans(latestDays: 7, today: today(), maxDays: Self.maxDays).map { span in
            ProviderRequest(
                url: url + "?CantidadSeriesAMostrar=\(Self.maxDays)&FechaFin=\(span.last)&FechaInicio=\(span.first)T00:00:00&IdGrupoVariable=\(Self.group)",
                headers: headers)
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let info = try document.field("informacionDelCuadro", of: "the answer")
        guard try info.field("codGrupoVariablePublicado", of: "\"informacionDelCuadro\"").integer("the table's group") == Self.group
        else { throw .layout("the table is not variable group \(Self.group)") }
        let columns = try document.field("columnas", of: "the answer").array("\"columnas\"")
        guard let first = columns.first, first["field"]?.stringValue == "nombre" else {
            throw .layout("\"columnas\" does not start with the \"nombre\" column")
        }
        var buyingSeries: ProviderJSON?
        var sellingSeries: ProviderJSON?
        for (index, row) in try document.field("indicadoresRaiz", of: "the answer").array("\"indicadoresRaiz\"").enumerated() {
            let id = try row.field("idIndicador", of: "row \(index + 1)").integer("row \(index + 1)'s \"idIndicador\"")
            let series = try row.field("series", of: "row \(index + 1)")
            _ = try series.members("row \(index + 1)'s \"series\"")
            switch id {
            case Self.buying where buyingSeries == nil: buyingSeries = series
            case Self.selling where sellingSeries == nil: sellingSeries = series
            default: throw .layout("row \(index + 1) is indicator \(id), not buying (317) or selling (318), or one of them twice")
            }
        }
        guard let buyingSeries, let sellingSeries else {
            throw .layout("the table lacks the buying (317) or the selling (318) row")
        }
        var publications: [ProviderPublication] = []
        for column in columns.dropFirst() {
            let field = try column.field("field", of: "a column").string("a column's \"field\"")
            let title = try column.field("tituloIngles", of: "column \(field)").string("column \(field)'s \"tituloIngles\"")
            guard field.hasPrefix("serie"), field.count > 5, PublishedText.isDigits(field.dropFirst(5)) else {
                throw .layout("a column named \(UpstreamDataError.quoted(field))")
            }
            let day = try Self.day(title)
            switch (try figure(buyingSeries, field, day: day), try figure(sellingSeries, field, day: day)) {
            case (nil, nil):
                continue
            case (let buy?, let sell?):
                let middle = try PublishedText.midpoint(buying: buy, selling: sell, currency: .usDollar, day: day)
                publications.append(ProviderPublication(day: day, currency: .usDollar, value: middle, direction: .pivotPerUnits))
            default:
                throw .layout("\(day) has a buying or a selling rate, not both")
            }
        }
        return publications
    }

    /// A row's figure of the column `field`, English (`"463.50"`) and Spanish (`"463,50"`) alike;
    /// `nil` when the row has neither or both are empty.
    func figure(_ series: ProviderJSON, _ field: String, day: Day) throws(UpstreamDataError) -> String? {
        let english = series[field + "Ingles"]
        let spanish = series[field]
        if english?.isNoFigure ?? true, spanish?.isNoFigure ?? true {
            return nil
        }
        guard let englishText = english?.stringValue, let spanishText = spanish?.stringValue else {
            throw .invalidRate(currency: .usDollar, day: day, text: english?.shown ?? spanish?.shown ?? "")
        }
        guard RateText.isValid(englishText) else { throw .invalidRate(currency: .usDollar, day: day, text: englishText) }
        guard spanishText.filter(\.isNumber) == englishText.filter(\.isNumber), spanishText.contains(",") == englishText.contains(".") else {
            throw .layout("\(field) of \(day) reads \(UpstreamDataError.quoted(englishText)) in English but \(UpstreamDataError.quoted(spanishText)) in Spanish")
        }
        return englishText
    }

    /// The day of a column's English title, `24 mar 2026` (the month abbreviation in lower case).
    static func day(_ title: String) throws(UpstreamDataError) -> Day {
        let parts = title.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].count == 3, parts[1].allSatisfy({ $0.isASCII && $0.isLowercase }) else { throw .invalidDay(title) }
        guard let day = Day("\(parts[0]) \(parts[1].prefix(1).uppercased() + parts[1].dropFirst()) \(parts[2])", .dayMonthNameYear(separator: " "))
        else { throw .invalidDay(title) }
        return day
    }
}
