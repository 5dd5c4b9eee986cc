import RatesCore

/// The Banco Central del Uruguay's quotations of the peso (27 currencies).
///
/// - Source: the SOAP service `https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones`
///   (POST, SOAP 1.1, namespace `Cotiza`), operation `wsbcucotizaciones.Execute` with an `Entrada` of
///   currencies (`Moneda`, the bank's own numbers), `FechaDesde`, `FechaHasta` and `Grupo` 0. The
///   answer's `<Salida>` holds `<respuestastatus>` (`status` 1 when answered) and `<datoscotizaciones>`
///   with one `<datoscotizaciones.dato>` per currency and day: `Fecha` (`2026-03-27`), `Moneda`
///   (`2225`), `Nombre`, `CodigoISO` (`DLS.` for the dollar, `EURO` for the euro, the ISO code for
///   the others), `Emisor`, `TCC` (buying), `TCV` (selling), `ArbAct` and `FormaArbitrar` (the
///   currency's arbitrage against the dollar).
/// - Quote convention: pesos for 1 unit of the currency, `TCC` and `TCV` with six decimals:
///   ``PublishedQuote/Direction/pivotPerUnits``, their exact midpoint
///   (``RatesCore/RateText/midpoint(_:_:)``; the two are equal in the recordings, so the figure is
///   the one published, trailing zeros kept). The currency is the bank's number read with a fixed
///   table (``currencies``), checked against `CodigoISO`; a number not in the table rejects the
///   answer. The dollar is `2225`, the bank's "billete" (bank-note interbank) quotation; the
///   arbitrage figures are not read.
/// - Schedule: Uruguayan working days (America/Montevideo), out by about 12:00 (the cron polls from
///   12:00 local).
/// - Ranges: one request per currency for the whole range (as Frankfurter asks), each with the
///   currency as its subject; the newest publication is asked as the last 7 days (by the source's
///   clock, ``RatesProvider/today()``). A range without a working day answers `status` 1 without
///   rows: no publication.
public struct BCUProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// One currency the bank quotes: its number, its ISO code and what `CodigoISO` says for it.
    public struct Currency: Sendable {
        public let number: String
        public let code: String
        public let label: String
    }

    /// The currencies asked for, by the bank's number (as Frankfurter asks for them, 2026).
    public static let currencies: [Currency] = [
        .init(number: "2225", code: "USD", label: "DLS."), .init(number: "1111", code: "EUR", label: "EURO"),
        .init(number: "1000", code: "BRL", label: "BRL"), .init(number: "0500", code: "ARS", label: "ARS"),
        .init(number: "2309", code: "CAD", label: "CAD"), .init(number: "1300", code: "CLP", label: "CLP"),
        .init(number: "4150", code: "CNY", label: "CNY"), .init(number: "5500", code: "COP", label: "COP"),
        .init(number: "1800", code: "DKK", label: "DKK"), .init(number: "5100", code: "HKD", label: "HKD"),
        .init(number: "4300", code: "HUF", label: "HUF"), .init(number: "5700", code: "INR", label: "INR"),
        .init(number: "2700", code: "GBP", label: "GBP"), .init(number: "4900", code: "ISK", label: "ISK"),
        .init(number: "3600", code: "JPY", label: "JPY"), .init(number: "5300", code: "KRW", label: "KRW"),
        .init(number: "5600", code: "MYR", label: "MYR"), .init(number: "4200", code: "MXN", label: "MXN"),
        .init(number: "4600", code: "NOK", label: "NOK"), .init(number: "1490", code: "NZD", label: "NZD"),
        .init(number: "4800", code: "PYG", label: "PYG"), .init(number: "4000", code: "PEN", label: "PEN"),
        .init(number: "5400", code: "RUB", label: "RUB"), .init(number: "1620", code: "ZAR", label: "ZAR"),
        .init(number: "5800", code: "SEK", label: "SEK"), .init(number: "5900", code: "CHF", label: "CHF"),
        .init(number: "4400", code: "TRY", label: "TRY"),
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(each: Self.currencies, named: \.code, latestDays: 7, today: today()) { currency, first, last in
            let envelope = """
                <?xml version="1.0" encoding="UTF-8"?>
                <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:cot="Cotiza"><soapenv:Header/>\
                <soapenv:Body><cot:wsbcucotizaciones.Execute><cot:Entrada><cot:Moneda><cot:item>\(currency.number)</cot:item></cot:Moneda>\
                <cot:FechaDesde>\(first)</cot:FechaDesde><cot:FechaHasta>\(last)</cot:FechaHasta><cot:Grupo>0</cot:Grupo></cot:Entrada>\
                </cot:wsbcucotizaciones.Execute></soapenv:Body></soapenv:Envelope>
                """
            return .soap(url: baseURL, action: "Cotizaaction/AWSBCUCOTIZACIONES.Execute", envelope: envelope)
        }
    }

    /// The bank's numbers as it writes them in answers (`500` for `0500`).
    static let byNumber: [Int: Currency] = Dictionary(uniqueKeysWithValues: currencies.map { (Int($0.number)!, $0) })

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let response = try XMLFields.soapAnswer(body)
        guard response.localName == "wsbcucotizaciones.ExecuteResponse", response.children.count == 1, let output = response.child("Salida")
        else { throw .layout("<\(response.qualifiedName)> is not the answer to wsbcucotizaciones.Execute") }
        try XMLFields.expectOnly(["respuestastatus", "datoscotizaciones"], in: output)
        guard output.children("respuestastatus").count == 1, let status = output.child("respuestastatus") else {
            throw .layout("<Salida> has no single <respuestastatus>")
        }
        let statusText = try XMLFields.text(status, "status", in: "<respuestastatus>")
        guard statusText == "1" else {
            throw .layout("status \(UpstreamDataError.quoted(statusText)): \(UpstreamDataError.quoted(status.child("mensaje")?.text ?? ""))")
        }
        let tables = output.children("datoscotizaciones")
        guard tables.count <= 1 else { throw .layout("<Salida> has \(tables.count) <datoscotizaciones>") }
        guard let table = tables.first, !table.children.isEmpty else { return [] }
        try XMLFields.expectOnly(["datoscotizaciones.dato"], in: table)
        return try ProviderPublication.byDay(table.children.map { row throws(UpstreamDataError) in
            let day = try Day(parsing: XMLFields.text(row, "Fecha", in: "<datoscotizaciones.dato>"), .iso)
            let place = "<datoscotizaciones.dato> of \(day)"
            let numberText = try XMLFields.text(row, "Moneda", in: place)
            let label = try XMLFields.text(row, "CodigoISO", in: place)
            guard PublishedText.isDigits(numberText), let number = Int(numberText), let currency = Self.byNumber[number] else {
                throw .layout("\(place): currency number \(UpstreamDataError.quoted(numberText)) is not one the adapter knows")
            }
            guard label == currency.label else {
                throw .layout(
                    "\(place): currency \(numberText) is labelled \(UpstreamDataError.quoted(label)), expected \(currency.label)")
            }
            if let subject = request.subject, subject != currency.code {
                throw .layout("\(place): currency \(currency.code) in the answer for \(subject)")
            }
            let code = CurrencyCode(currency.code)!
            let buying = try PublishedText.rate(XMLFields.text(row, "TCC", in: place), currency: code, day: day)
            let selling = try PublishedText.rate(XMLFields.text(row, "TCV", in: place), currency: code, day: day)
            return (day, try PublishedQuote.midpoint(buying: buying, selling: selling, of: code, direction: .pivotPerUnits, day: day))
        })
    }
}
