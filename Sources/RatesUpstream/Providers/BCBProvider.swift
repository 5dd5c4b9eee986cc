import RatesCore

/// The Banco Central do Brasil's PTAX closing rates: 10 currencies in BRL.
///
/// - Endpoint: the PTAX OData service, one request per currency, as it answers for one at a time (``ProviderRequest/subject`` is its code):
///   `GET https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)?@moeda='USD'&@dataInicial='03-01-2026'&@dataFinalCotacao='03-06-2026'&$filter=tipoBoletim eq 'Fechamento'&$format=json`
///   (dates as MM-DD-YYYY, both included). The newest publication is asked for as the last seven days up to today. The answer:
///   `{"value":[{"cotacaoCompra":5.19950,"cotacaoVenda":5.20010,"dataHoraCotacao":"2026-03-02 13:09:26.433","tipoBoletim":"Fechamento",…},…]}`. Only
///   the closing bulletin (`Fechamento`, the PTAX rate itself) is asked for; the day's four intermediate bulletins are not read, and one in an answer
///   is a layout error. An empty `value` (a span of weekends and holidays only, such as Carnival's Monday and Tuesday) is no publication.
/// - Quote convention: BRL per 1 unit of the currency, buying (`cotacaoCompra`) and selling (`cotacaoVenda`) only. As for every buy/sell-only source,
///   the figure stored is their exact midpoint (``RatesCore/RateText/midpoint(_:_:)``, digits read from the JSON text: `5.19950` and `5.20010` give
///   `5.19980`), ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. (Frankfurter stores the selling rate, the figure Brazilian contracts cite as
///   "PTAX"; the two differ by half the spread, about 0.006 %.) The `paridade*` fields (the currency against USD) are not read.
/// - Schedule: America/Sao_Paulo, Monday to Friday, the closing bulletin about 13:10 local time.
public struct BCBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies with a PTAX rate (the Bank's type A and B currencies), in request order.
    public static let currencies = ["AUD", "CAD", "CHF", "DKK", "EUR", "GBP", "JPY", "NOK", "SEK", "USD"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(each: Self.currencies, latestDays: 7, today: today()) { code, first, last in
            let dates = [first, last].map { "%27\($0.text(.monthDayYear(separator: "-")))%27" }
            let query = "@moeda=%27\(code)%27&@dataInicial=\(dates[0])&@dataFinalCotacao=\(dates[1])&$filter=tipoBoletim%20eq%20%27Fechamento%27"
            let function = "CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)"
            return ProviderRequest(url: "\(baseURL)/\(function)?\(query)&$format=json", headers: ["Accept": "application/json"])
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let code = try request.subjectCurrency(among: Self.currencies, none: "no PTAX currency")
        guard let records = try ProviderJSON(answer: body)["value"]?.elements else {
            throw .layout("no \"value\" array at the top level for \(code)")
        }
        return try records.map { record throws(UpstreamDataError) in
            guard let buying = record["cotacaoCompra"]?.numberText, let selling = record["cotacaoVenda"]?.numberText,
                let stamp = record["dataHoraCotacao"]?.stringValue, let bulletin = record["tipoBoletim"]?.stringValue
            else {
                throw .layout("a \(code) quotation without the numbers cotacaoCompra and cotacaoVenda and the texts dataHoraCotacao and tipoBoletim")
            }
            let day = try Self.stampDay(stamp)
            guard bulletin == "Fechamento" else {
                throw .layout("a \(DelimitedText.shown(bulletin)) bulletin of \(code) on \(day), where only Fechamento was asked for")
            }
            let quote = try PublishedQuote.midpoint(buying: buying, selling: selling, of: code, direction: .pivotPerUnits, day: day)
            return ProviderPublication(day: day, quotes: [quote])
        }
    }

    /// The day of `2026-03-02 13:09:26.433`.
    static func stampDay(_ text: String) throws(UpstreamDataError) -> Day {
        guard text.unicodeScalars.count > 11, text.unicodeScalars.dropFirst(10).first == " " else { throw .invalidDay(text) }
        return try Day(parsing: text.prefix(10), .iso)
    }
}
