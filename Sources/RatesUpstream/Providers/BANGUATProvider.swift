import RatesCore

/// The Banco de Guatemala's reference rate of the quetzal against the US dollar.
///
/// - Source: `https://www.banguat.gob.gt/variables/ws/TipoCambio.asmx` (POST, SOAP 1.1, namespace `http://www.banguat.gob.gt/variables/ws/`),
///   operation `TipoCambioRango` (`fechainit`, `fechafin` as `DD/MM/YYYY`): `<TipoCambioRangoResult><Vars>` with one `<Var>` per calendar day, then
///   `<TotalItems>`. A day: `<Var><moneda>2</moneda><fecha>02/03/2026</fecha><venta>7.66143</venta><compra>7.66143</compra></Var>`.
/// - Quote convention: quetzales for 1 US dollar (`moneda` 2, the only currency this operation answers; any other rejects the answer):
///   ``PublishedQuote/Direction/pivotPerUnits``. The service gives the reference rate as selling (`venta`) and buying (`compra`) figures, the same
///   for the dollar: the figure is their exact midpoint (``RatesCore/RateText/midpoint(_:_:)``), that rate as published. Saturday and Sunday repeat
///   Friday's rate under their own dates and are skipped: the publications are Monday to Friday.
/// - Schedule: every working day (America/Guatemala); the bank announces a day's reference rate the evening before, so it is looked for from 08:00.
/// - Ranges: one `TipoCambioRango` request per range; the newest publication is the last 7 days by the source's clock (``RatesProvider/today()``).
///   A range of a weekend alone answers its days, each repeating Friday's rate: no publication (``EmptyAnswerIsNoPublication``).
public struct BANGUATProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let serviceNamespace = "http://www.banguat.gob.gt/variables/ws/"

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today()) else { return [] }
        let format = Day.ProviderFormat.dayMonthYear(separator: "/")
        let envelope = """
            <?xml version="1.0" encoding="utf-8"?>
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><TipoCambioRango xmlns="\(Self.serviceNamespace)">\
            <fechainit>\(first.text(format))</fechainit><fechafin>\(last.text(format))</fechafin></TipoCambioRango></soap:Body></soap:Envelope>
            """
        return [.soap(url: baseURL, action: "\"\(Self.serviceNamespace)TipoCambioRango\"", envelope: envelope)]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let result = try XMLFields.soapResult(of: XMLFields.soapAnswer(body), operation: "TipoCambioRango")
        try XMLFields.expectOnly(["Vars", "TotalItems"], in: result)
        let varsElements = result.children("Vars")
        guard varsElements.count <= 1 else { throw .layout("<TipoCambioRangoResult> has \(varsElements.count) <Vars>") }
        guard let vars = varsElements.first else { throw .empty }
        try XMLFields.expectOnly(["Var"], in: vars)
        let total = try XMLFields.text(result, "TotalItems", in: "<TipoCambioRangoResult>")
        let count = vars.children.count
        guard total == String(count) else { throw .layout("<TotalItems> says \(UpstreamDataError.quoted(total)), the answer has \(count) <Var>") }
        var publications: [ProviderPublication] = []
        for row in vars.children {
            let day = try Day(parsing: XMLFields.text(row, "fecha", in: "<Var>"), .dayMonthYear(separator: "/"))
            let currency = try XMLFields.text(row, "moneda", in: "<Var> of \(day)")
            guard currency == "2" else {
                throw .layout("<Var> of \(day) is for currency \(UpstreamDataError.quoted(currency)), expected 2 (the dollar)")
            }
            let selling = try PublishedText.rate(XMLFields.text(row, "venta", in: "<Var> of \(day)"), currency: .usDollar, day: day)
            let buying = try PublishedText.rate(XMLFields.text(row, "compra", in: "<Var> of \(day)"), currency: .usDollar, day: day)
            let quote = try PublishedQuote.midpoint(buying: buying, selling: selling, of: .usDollar, direction: .pivotPerUnits, day: day)
            guard day.isoWeekday <= 5 else { continue }
            publications.append(ProviderPublication(day: day, quotes: [quote]))
        }
        return publications
    }
}
