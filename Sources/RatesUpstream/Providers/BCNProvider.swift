import RatesCore

/// The Banco Central de Nicaragua's official rate of the córdoba against the US dollar.
///
/// - Source: the SOAP service `https://servicios.bcn.gob.ni/Tc_Servicio/ServicioTC.asmx` (POST, SOAP 1.1, namespace `http://servicios.bcn.gob.ni/`),
///   operation `RecuperaTC_Mes` (`Ano`, `Mes`): `<RecuperaTC_MesResult><Detalle_TC>` with one
///   `<Tc><Fecha>2026-03-16</Fecha><Valor>36.6243</Valor><Ano>2026</Ano><Mes>3</Mes><Dia>16</Dia></Tc>` per day of the month the bank has set a rate
///   for (`Ano`, `Mes`, `Dia` must agree with `Fecha`).
/// - Quote convention: córdobas for 1 US dollar (the only currency), the bank's official rate: ``PublishedQuote/Direction/pivotPerUnits``.
/// - Schedule: the bank sets the official rate of every calendar day, weekends included, in advance (America/Managua); a day's rate is looked for
///   from 08:00 that day. A month's answer holds the days ahead too: those after today (by the source's clock, ``RatesProvider/today()``) are left
///   out, to be read on their own day, since a figure is served from the day it is dated.
/// - Ranges: one `RecuperaTC_Mes` request per calendar month the range touches; each answer holds its month's days, also those outside the range. The
///   newest publication is the current month's answer (by the source's clock, ``RatesProvider/today()``).
public struct BCNProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let serviceNamespace = "http://servicios.bcn.gob.ni/"

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 0, today: today()) else { return [] }
        return Day.months(from: first, through: last).map { month in
            let (year, monthNumber, _) = month.parts
            let envelope = """
                <?xml version="1.0" encoding="utf-8"?>
                <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tns="\(Self.serviceNamespace)"><soap:Body>\
                <tns:RecuperaTC_Mes><tns:Ano>\(year)</tns:Ano><tns:Mes>\(monthNumber)</tns:Mes></tns:RecuperaTC_Mes></soap:Body></soap:Envelope>
                """
            return ProviderRequest.soap(url: baseURL, action: "\"\(Self.serviceNamespace)RecuperaTC_Mes\"", envelope: envelope)
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let result = try XMLFields.soapResult(of: XMLFields.soapAnswer(body), operation: "RecuperaTC_Mes")
        try XMLFields.expectOnly(["Detalle_TC"], in: result)
        let detail = try XMLFields.onlyChild("Detalle_TC", of: result, in: "<RecuperaTC_MesResult>")
        try XMLFields.expectOnly(["Tc"], in: detail)
        guard !detail.children.isEmpty else { throw .empty }  // a month whose days are all ahead has rows, none of them published yet
        var publications: [ProviderPublication] = []
        for row in detail.children {
            let day = try Day(parsing: XMLFields.text(row, "Fecha", in: "<Tc>"), .iso)
            let place = "<Tc> of \(day)"
            for (name, expected) in zip(["Ano", "Mes", "Dia"], [day.parts.year, day.parts.month, day.parts.day]) {
                let text = try XMLFields.text(row, name, in: place)
                guard text == String(expected) else {
                    throw .layout("\(place) has <\(name)>\(UpstreamDataError.quoted(text))</\(name)>, expected \(expected)")
                }
            }
            let value = try PublishedText.rate(XMLFields.text(row, "Valor", in: place), currency: .usDollar, day: day)
            guard day <= today() else { continue }  // set in advance: read on its own day
            publications.append(ProviderPublication(day: day, currency: .usDollar, value: value, direction: .pivotPerUnits))
        }
        return publications
    }
}
