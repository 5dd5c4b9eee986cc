import RatesCore

/// The Central Bank of Armenia's average market rates of the dram (28 currencies and the SDR).
///
/// - Source: the SOAP service `https://api.cba.am/exchangerates.asmx` (POST, SOAP 1.1, namespace
///   `http://www.cba.am/`). `ExchangeRatesLatest` answers the newest day:
///   `<ExchangeRatesLatestResult><CurrentDate>2026-03-18T00:00:00</CurrentDate>…<Rates>` with one
///   `<ExchangeRate><ISO>USD</ISO><Amount>1</Amount><Rate>377.39</Rate><Difference>…` per currency.
///   `ExchangeRatesByDateRangeByISO` (`ISOCodes`, `DateFrom`, `DateTo`) answers a .NET DataSet: an
///   `xs:schema`, then a `diffgr:diffgram` whose `<DocumentElement>` holds one
///   `<ExchangeRatesByRange>` row (`Rate`, `Amount`, `ISO`, `Diff`,
///   `RateDate` `2026-03-02T00:00:00+04:00`) per currency and day. Either answer is read whatever
///   request it answers, by its response element.
/// - Quote convention: `Rate` drams for `Amount` units of the currency (377.39 AMD per 1 USD, 0.028677
///   AMD per 100 IRR, per 10 JPY, KZT and UZS): ``PublishedQuote/Direction/pivotPerUnits``. The SDR
///   (`XDR`) is kept; gold and silver (`XAU`, `XAG`, drams per gram) are not currencies and are
///   skipped. `Difference`/`Diff` (the change from the day before) is not read.
/// - Schedule: Armenian working days (Asia/Yerevan); the day's rates are out by about 16:00, dated
///   the day they are set.
/// - Ranges: one `ExchangeRatesByDateRangeByISO` request for the whole range, naming the
///   currencies (``currencies``); the answer has a row per currency for each day the bank set
///   rates, none for weekends and holidays. A range without any such day (a weekend, the New Year
///   holidays of 1–7 January) is answered with a `diffgram` without `DocumentElement` (or one without
///   rows): no publication.
public struct CBAProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies a range request names: those the bank quotes (2026), metals left out.
    public static let currencies = [
        "USD", "GBP", "AUD", "EUR", "XDR", "IRR", "PLN", "CAD", "INR", "NOK", "JPY", "SEK", "CHF", "CZK", "CNY", "SGD", "BRL", "AED",
        "KGS", "KZT", "RUB", "UAH", "UZS", "BYN", "TJS", "GEL", "HKD", "NZD",
    ]

    static let serviceNamespace = "http://www.cba.am/"

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [soapRequest("ExchangeRatesLatest", parameters: "")]) { first, last in
            let parameters = "<ISOCodes>\(Self.currencies.joined(separator: ","))</ISOCodes><DateFrom>\(first)</DateFrom><DateTo>\(last)</DateTo>"
            return [soapRequest("ExchangeRatesByDateRangeByISO", parameters: parameters)]
        }
    }

    /// A SOAP 1.1 call of `operation`, with `subject` naming it.
    func soapRequest(_ operation: String, parameters: String) -> ProviderRequest {
        let envelope = """
            <?xml version="1.0" encoding="utf-8"?>
            <soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" \
            xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>\
            <\(operation) xmlns="\(Self.serviceNamespace)">\(parameters)</\(operation)></soap:Body></soap:Envelope>
            """
        return .soap(url: baseURL, action: "\"\(Self.serviceNamespace)\(operation)\"", envelope: envelope, subject: operation)
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let response = try XMLFields.soapAnswer(body)
        switch response.localName {
        case "ExchangeRatesLatestResponse":
            let result = try only("ExchangeRatesLatestResult", in: response)
            let day = try Self.day(XMLFields.text(result, "CurrentDate", in: "<ExchangeRatesLatestResult>"))
            let rates = try only("Rates", in: result)
            try XMLFields.expectOnly(["ExchangeRate"], in: rates)
            let quotes = try rates.children.map { row throws(UpstreamDataError) in try quote(row, day: day) }.compactMap { $0 }
            return [ProviderPublication(day: day, quotes: quotes)]
        case "ExchangeRatesByDateRangeByISOResponse":
            let result = try only("ExchangeRatesByDateRangeByISOResult", in: response)
            try XMLFields.expectOnly(["schema", "diffgram"], in: result)
            let diffgram = try only("diffgram", in: result)
            try XMLFields.expectOnly(["DocumentElement"], in: diffgram)
            guard let table = diffgram.child("DocumentElement") else { return [] }
            try XMLFields.expectOnly(["ExchangeRatesByRange"], in: table)
            var days: [Day: [PublishedQuote]] = [:]
            for row in table.children {
                let day = try Self.day(XMLFields.text(row, "RateDate", in: "<ExchangeRatesByRange>"))
                if let figure = try quote(row, day: day) { days[day, default: []].append(figure) }
            }
            return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
        default:
            throw .layout("<\(response.qualifiedName)> is not an answer of the exchange-rate service")
        }
    }

    /// The one child `name` of `element`.
    func only(_ name: String, in element: XMLReader.Element) throws(UpstreamDataError) -> XMLReader.Element {
        let matches = element.children(name)
        guard matches.count == 1, let child = matches.first else {
            throw .layout("<\(element.qualifiedName)> has \(matches.count) <\(name)> elements, expected one")
        }
        return child
    }

    /// One row's quote (`ISO`, `Amount`, `Rate`); `nil` for a metal or the dram itself.
    func quote(_ row: XMLReader.Element, day: Day) throws(UpstreamDataError) -> PublishedQuote? {
        let figure = try XMLFields.quote(row, code: .child("ISO"), unit: .child("Amount"), rate: .child("Rate"), day: day)
        guard !PreciousMetal.codes.contains(figure.currency), figure.currency != pivot else { return nil }
        return figure
    }

    /// A day as the service writes it: `2026-03-18T00:00:00`, also with a UTC offset (`+04:00`).
    static func day(_ text: String) throws(UpstreamDataError) -> Day {
        let bytes = Array(text.utf8)
        var stamp = text
        if bytes.count == 25, bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-"), bytes[22] == UInt8(ascii: ":"),
            PublishedText.isDigits(String(decoding: bytes[20..<22] + bytes[23..<25], as: UTF8.self))
        {
            stamp = String(decoding: bytes[..<19], as: UTF8.self)
        }
        guard let day = Day(stamp, .midnightTimestamp) else { throw .invalidDay(text) }
        return day
    }
}
