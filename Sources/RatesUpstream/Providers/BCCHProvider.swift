import Foundation
import RatesCore

/// The Banco Central de Chile's observed dollar and nominal exchange rates of the peso: 8 currencies.
///
/// - Source: the bank's statistics database API (BDE, registered users: the account's e-mail and password go in every query), one request per series
///   (``ProviderRequest/subject`` is its currency):
///   `https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?firstdate=2026-03-01&function=GetSeries&lastdate=2026-03-15&pass=…&timeseries=F073.TCO.PRE.Z.D&user=…`
///   (both days included), answered with
///   `{"Codigo":0,"Descripcion":"Success","Series":{"seriesId":"F073.TCO.PRE.Z.D","Obs":[{"indexDateString":"02-03-2026","value":"871.41","statusCode":"OK"},…]},…}`.
///   The series are `F073.TCO.PRE.Z.D` (the observed dollar, the dólar observado) and `F072.CLP.XXX.N.O.D` (the nominal rate of EUR, GBP, JPY, CAD,
///   AUD, CNY, BRL, derived by the bank from the observed dollar). The answer names its series, which must be the one asked for. A `Codigo` other
///   than 0 (wrong credentials, an unknown series) rejects the answer with the bank's `Descripcion`.
/// - Quote convention: `value` pesos per 1 unit of the currency, read as written (`"5.7"`, thousands commas dropped if any):
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. An observation with `statusCode` `ND` (no data: weekends and holidays, value `NaN`) is
///   left out; any other status, or an `OK` value that is not a decimal, rejects the answer.
/// - Schedule: America/Santiago, Monday to Friday, usually out by 13:00 local time; an observation is dated the day the rate is in force (the
///   observed dollar is computed from the previous banking day's trades).
/// - Ranges: one request per series for any range; the newest publication is asked for as the last seven days up to today. The history starts on
///   1990-01-02; an answer with days before 1999-01-04 is rejected, as for every source.
public struct BCCHProvider: RatesProvider {
    /// The series asked for, by currency, in request order.
    public static let series: [(code: String, id: String)] = [
        ("USD", "F073.TCO.PRE.Z.D"), ("EUR", "F072.CLP.EUR.N.O.D"), ("GBP", "F072.CLP.GBP.N.O.D"), ("JPY", "F072.CLP.JPY.N.O.D"),
        ("CAD", "F072.CLP.CAD.N.O.D"), ("AUD", "F072.CLP.AUD.N.O.D"), ("CNY", "F072.CLP.CNY.N.O.D"), ("BRL", "F072.CLP.BRL.N.O.D"),
    ]

    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The API key is the BDE account as `USER:PASSWORD` (the e-mail, a colon, the password; secret).
    var account: (user: String, password: String) {
        let parts = apiKey.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(each: Self.series, named: \.code, latestDays: 7, today: today()) { series, first, last in
            let query = "firstdate=\(first.text(.iso))&function=GetSeries&lastdate=\(last.text(.iso))&pass=\(Self.queryValue(account.password))"
            return ProviderRequest(url: "\(baseURL)?\(query)&timeseries=\(series.id)&user=\(Self.queryValue(account.user))")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let status = try document.field("Codigo", of: "the answer")
        guard status == .number("0") else {
            throw .layout("the API answers code \(status.shown): \(UpstreamDataError.quoted(document["Descripcion"]?.shown ?? "no description"))")
        }
        let series = try document.field("Series", of: "the answer")
        let id = try series.field("seriesId", of: "\"Series\"").string("\"seriesId\"")
        guard let code = Self.series.first(where: { $0.id == id })?.code else {
            throw .layout("the answer is for the series \(UpstreamDataError.quoted(id)), not one asked for")
        }
        if let subject = request.subject, subject != code { throw .layout("the answer is for \(code) (\(id)), where \(subject) was asked for") }
        let currency = CurrencyCode(code)!
        var publications: [ProviderPublication] = []
        for (index, observation) in try series.field("Obs", of: "\"Series\"").array("\"Obs\"").enumerated() {
            let what = "\(code) observation \(index + 1)"
            let day = try Day(parsing: observation.field("indexDateString", of: what).string("\(what)'s date"), .dayMonthYear(separator: "-"))
            let status = try observation.field("statusCode", of: "\(code) on \(day)").string("its status")
            if status == "ND" { continue }
            guard status == "OK" else {
                throw .layout("the observation of \(code) on \(day) has status \(UpstreamDataError.quoted(status)), not OK or ND")
            }
            let text = try observation.field("value", of: "\(code) on \(day)").string("the value of \(code) on \(day)")
            let value = try PublishedText.commaGroupedRate(text, currency: currency, day: day)
            publications.append(ProviderPublication(day: day, currency: currency, value: value, direction: .pivotPerUnits))
        }
        return publications
    }

    /// `text` percent-encoded for a query value: every byte but letters, digits and `-._~` (RFC 3986's unreserved characters).
    static func queryValue(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
