import RatesCore

/// The Magyar Nemzeti Bank's official rates of the forint (32 currencies).
///
/// - Source: the SOAP service `http://www.mnb.hu/arfolyamok.asmx` (POST, SOAP 1.1): `GetCurrentExchangeRates` for the latest day, `GetExchangeRates`
///   (start day, end day, currency list) for a range. The answer's `<…Result>` element holds a second XML document as escaped text:
///   `<MNBExchangeRates><Day date="2025-03-28"><Rate unit="1" curr="EUR">402,61</Rate>…`. A range request must name its currencies: ``currencies``
///   lists the 32 the bank quotes. A range without a working day (holidays only) answers an empty `<MNBExchangeRates />`: no publication.
/// - Quote convention: forints for `unit` units of the currency (100 for IDR, JPY, KRW), decimal comma: ``PublishedQuote/Direction/pivotPerUnits``.
/// - Schedule: Hungarian working days (Europe/Budapest), usually by 12:00.
public struct MNBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies a range request names: those the bank quotes (2026).
    public static let currencies = [
        "AUD", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "IDR", "ILS", "INR", "ISK", "JPY", "KRW", "MXN", "MYR",
        "NOK", "NZD", "PHP", "PLN", "RON", "RSD", "RUB", "SEK", "SGD", "THB", "TRY", "UAH", "USD", "ZAR",
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [soapRequest("GetCurrentExchangeRates", parameters: "")]) { first, last in
            let parameters = """
                <web:startDate>\(first)</web:startDate><web:endDate>\(last)</web:endDate>\
                <web:currencyNames>\(Self.currencies.joined(separator: ","))</web:currencyNames>
                """
            return [soapRequest("GetExchangeRates", parameters: parameters)]
        }
    }

    /// A SOAP 1.1 call of `operation`, with `subject` naming it.
    func soapRequest(_ operation: String, parameters: String) -> ProviderRequest {
        let envelope = """
            <?xml version="1.0" encoding="utf-8"?>
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:web="http://www.mnb.hu/webservices/">\
            <soap:Body><web:\(operation)>\(parameters)</web:\(operation)></soap:Body></soap:Envelope>
            """
        let action = "http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/\(operation)"
        return .soap(url: baseURL, action: action, envelope: envelope, subject: operation)
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let result = try XMLFields.soapResult(of: XMLFields.soapAnswer(body), operation: request.subject ?? "GetExchangeRates")
        // The result is a document of its own, sent as escaped text.
        let rates = try XMLReader.Element(parsing: Array(result.text.utf8), root: "MNBExchangeRates")
        try XMLFields.expectOnly(["Day"], in: rates)
        // A range of Hungarian holidays only answers `<MNBExchangeRates />`: no day, no publication.
        return try rates.children.map { element throws(UpstreamDataError) in
            try XMLFields.expectOnly(["Rate"], in: element)
            let day = try Day(parsing: XMLFields.attribute(element, "date", in: "<Day>"), .iso)
            let quotes = try XMLFields.quotes(
                element.children, code: .attribute("curr"), unit: .attribute("unit"), rate: .text, day: day, pivot: pivot)
            return ProviderPublication(day: day, quotes: quotes)
        }
    }
}
