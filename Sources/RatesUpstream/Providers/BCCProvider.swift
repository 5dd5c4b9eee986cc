import RatesCore

/// The Banco Central de Cuba's floating rates of the Cuban peso (segment III, the informal market rate): 13 currencies.
///
/// - Source: the bank's API, one request per currency (``ProviderRequest/subject`` is its code; the answer
///   does not name it): `https://api.bc.gob.cu/v1/tasas-de-cambio/historico?codigoMoneda=AUD&fechaFin=2026-05-22&fechaInicio=2026-05-19`
///   (both days included), answered with a JSON array of
///   `{"fecha":"2026-05-19","tasaOficial":17.1732,"tasaPublica":85.866,"tasaEspecial":359.2061}`.
/// - Quote convention: `tasaEspecial`, the rate of segment III (the floating, informal-market rate; 502 CUP
///   per USD on 19 May 2026), read as written in the JSON. Pesos per 1 unit of the currency
///   (``RatesCore/PublishedQuote/Direction/pivotPerUnits``), except the yen, which the bank quotes the other
///   way round, yen per 1 peso (0.31668 on 19 May 2026: 0.31668 × 502 = 159 JPY per USD, as its official
///   6.62396 × 24 is): ``RatesCore/PublishedQuote/Direction/unitsPerPivot``. The administered segments I
///   (`tasaOficial`, 24 CUP per USD) and II (`tasaPublica`, 120) are not read. A day whose `tasaEspecial`
///   is `null` has no figure and is left out; any other value that is not a positive number rejects the answer.
/// - Schedule: America/Havana, every day, from 00:00 local time, dated the day it applies to.
/// - Ranges: one request per currency for any range; the newest publication is asked for as the last
///   seven days up to today. Segment III is published since 2025-12-19.
public struct BCCProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies the bank quotes, in request order.
    public static let currencies = ["AUD", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "JPY", "MXN", "NOK", "RUB", "SEK", "USD"]
    /// The currencies quoted as units per 1 peso.
    static let quotedPerPeso: Set<String> = ["JPY"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(each: Self.currencies, latestDays: 7, today: today()) { code, first, last in
            ProviderRequest(
                url: "\(baseURL)/historico?codigoMoneda=\(code)&fechaFin=\(last.text(.iso))&fechaInicio=\(first.text(.iso))",
                headers: ["Accept": "application/json"])
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let subject = try request.subjectCurrency(among: Self.currencies, none: "none of the bank's currencies").rawValue
        let direction: PublishedQuote.Direction = Self.quotedPerPeso.contains(subject) ? .unitsPerPivot : .pivotPerUnits
        var publications: [ProviderPublication] = []
        for (index, record) in try ProviderJSON(answer: body).array("the answer").enumerated() {
            let day = try Day(parsing: try record.string("fecha", of: "\(subject) record \(index + 1)"), .iso)
            let value = try record.field("tasaEspecial", of: "\(subject) on \(day)")
            if value.isNull { continue }
            guard case .number = value else {
                throw .layout("\"tasaEspecial\" of \(subject) on \(day) is \(value.kind), not a number")
            }
            publications.append(ProviderPublication(day: day, quotes: [try .reading(code: subject, value: value, direction: direction, day: day)]))
        }
        return publications
    }
}
