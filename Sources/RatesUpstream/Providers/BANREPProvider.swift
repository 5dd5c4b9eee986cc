import RatesCore

/// The Banco de la República's representative market rate (TRM) of the Colombian peso against the dollar.
///
/// - Source: the TRM dataset on Colombia's open-data portal (Socrata), certified by the Superintendencia Financiera from the day's market and
///   published by the Banco de la República:
///   `https://www.datos.gov.co/resource/32sa-8pi3.json?$limit=50000&$order=vigenciadesde%20ASC&$where=vigenciadesde%3E=%272026-03-16T00:00:00.000%27%20AND%20vigenciadesde%3C=%272026-03-24T00:00:00.000%27`,
///   answered with a JSON array of
///   `{"valor":"3691.9","unidad":"COP","vigenciadesde":"2026-03-17T00:00:00.000","vigenciahasta":"2026-03-17T00:00:00.000"}`.
/// - Quote convention: `valor` pesos per 1 US dollar, read as the text it is written in: ``RatesCore/PublishedQuote/Direction/pivotPerUnits``, USD
///   only. A record with another `unidad` than COP, or a `valor` that is not a plain decimal, rejects the answer. An empty array (no TRM starts in
///   the range) is no publication.
/// - Schedule: America/Bogota; each working day's market sets, by about 18:00 local time, the TRM of the next calendar day: a record is dated
///   `vigenciadesde`, the first day it holds. Friday's holds from Saturday through `vigenciahasta` (the Monday, or the Tuesday after a Monday
///   holiday): one publication, dated Saturday, carried forward over the rest.
/// - Ranges: one request for any range (`vigenciadesde` within it, both included); the newest publication is asked for as the seven days before
///   tomorrow through tomorrow. The history starts on 2000-01-03.
public struct BANREPProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today().adding(days: 1)) else { return [] }
        let bound = { (day: Day) in "%27\(day.text(.iso))T00:00:00.000%27" }
        let query = "$limit=50000&$order=vigenciadesde%20ASC&$where=vigenciadesde%3E=\(bound(first))%20AND%20vigenciadesde%3C=\(bound(last))"
        return [ProviderRequest(url: "\(baseURL)?\(query)")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        try ProviderJSON(answer: body).array("the answer").enumerated().map { index, record throws(UpstreamDataError) in
            let what = "record \(index + 1)"
            let from = try Day(parsing: record.field("vigenciadesde", of: what).string("\(what)'s start"), .midnightTimestamp)
            let through = try Day(parsing: record.field("vigenciahasta", of: what).string("\(what)'s end"), .midnightTimestamp)
            guard through >= from else { throw .layout("the TRM of \(from) holds through \(through), before it starts") }
            let unit = try record.field("unidad", of: "the TRM of \(from)").string("the unit of the TRM of \(from)")
            guard unit == pivot.rawValue else { throw .layout("the TRM of \(from) is in \(UpstreamDataError.quoted(unit)), not COP") }
            let value = try record.field("valor", of: "the TRM of \(from)").string("the TRM of \(from)")
            return ProviderPublication(day: from, currency: .usDollar, value: value, direction: .pivotPerUnits)
        }
    }
}
