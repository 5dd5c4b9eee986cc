import RatesCore

/// The Banco Nacional de Angola's reference rates of the kwanza: about 64 currencies.
///
/// - Source: the bank's rates service, one request per currency and range:
///   `https://www.bna.ao/service/rest/taxas/get/evolucao/taxa/intervalo?datafim=2026-05-21&datainicio=2026-05-18&moeda=AED&tipocambio=M` (both days
///   included; `tipocambio=M`, the middle rate), answered with
///   `{"genericResponse":[{"taxa":248.609,"descricaoTipoCambio":"Taxa de Referência - MEDIO","tipoCambio":"M","data":"2026-05-19",
///   "designacaoMoeda":"DINAR EMIRATES","codigoMoeda":"AED"},…],"success":true}`.
///   The currencies are those the bank lists at `…/taxas/get/lista/moedas` (``sessionRequest(for:)``:
///   `{"genericResponse":[{"idMoeda":99,"designacaoMoeda":"DINAR EMIRATES","codigoMoeda":"AED"},…]}`); without that list (`rates-relay import`),
///   ``currencies``. Every record names its currency, and an answer may hold others than the one asked for: asked for the Albanian lek (`moeda=ALL`),
///   the service answers every currency's rates.
/// - Quote convention: `taxa` kwanzas per 1 unit of the currency, read as written in the JSON (``RatesCore/PublishedQuote/Direction/pivotPerUnits``);
///   the service prints its doubles as Java does, a figure below 0.001 with an exponent (`7.0E-4`), which is written out (`0.00070`). Skipped, and
///   not asked for: `AOA` (the kwanza itself), `XDRUSD` (the SDR's dollar rate, not a currency code), `XAU` (gold, whose series mixes kwanzas and
///   dollars per ounce), and codes ISO 4217 has withdrawn, whose figures the bank derives from their successors: `EEK`, `HRK`, `ZMK` (at their
///   conversion rates) and `STD`, `VEF` (43.5 AOA per "STD" is the new dobra's figure, STN, worth 1000 STD). A record of another rate type than `M`,
///   or a currency twice on a day, rejects the answer; an answer with no records (SDG in May 2026) or only skipped ones is no publication.
/// - Schedule: Africa/Luanda, Monday to Friday, usually out by 16:00 local time, dated the day they apply to.
/// - Ranges: one request per currency for any range; the newest publication is asked for as the last seven days up to today. The history starts on
///   2000-01-01.
public struct BNAProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies asked for without the bank's list: the list of May 2026 less what is skipped.
    public static let currencies = [
        "AED", "ALL", "ARS", "AUD", "BGN", "BMD", "BOB", "BRL", "BSD", "BWP", "CAD", "CDF", "CHF", "CNY", "CRC", "CUP", "CVE", "CZK", "DKK", "EGP",
        "ETB", "EUR", "GBP", "HKD", "HUF", "IDR", "ILS", "INR", "IQD", "JMD", "JPY", "KES", "KRW", "KWD", "KZT", "LBP", "LKR", "LSL", "MAD", "MXN",
        "MYR", "MZN", "NAD", "NGN", "NOK", "NZD", "PEN", "PKR", "PLN", "QAR", "RON", "RUB", "SAR", "SDG", "SEK", "SGD", "THB", "TTD", "TWD", "TZS",
        "UAH", "USD", "VND", "XAF", "ZAR",
    ]
    /// Codes the bank lists and quotes that are skipped, as the doc comment says why.
    static let skipped: Set<String> = ["AOA", "XDRUSD", "XAU", "EEK", "HRK", "ZMK", "STD", "VEF"]

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        ProviderRequest(url: "\(baseURL)/get/lista/moedas", headers: ["Accept": "application/json"])
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        requests(for: window, currencies: Self.currencies)
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        let list = try ProviderJSON(answer: session.body).field("genericResponse", of: "the currency list").array("the currency list")
        var codes: [String] = []
        for (index, entry) in list.enumerated() {
            let code = try entry.field("codigoMoeda", of: "currency \(index + 1) of the list").string("currency \(index + 1) of the list")
            if CurrencyCode(code) != nil, !Self.skipped.contains(code), !codes.contains(code) { codes.append(code) }
        }
        guard !codes.isEmpty else { throw .layout("the currency list names no currency") }
        return requests(for: window, currencies: codes)
    }

    func requests(for window: FetchWindow, currencies: [String]) -> [ProviderRequest] {
        window.requests(each: currencies, latestDays: 7, today: today()) { code, first, last in
            ProviderRequest(
                url: "\(baseURL)/get/evolucao/taxa/intervalo?datafim=\(last.text(.iso))&datainicio=\(first.text(.iso))&moeda=\(code)&tipocambio=M",
                headers: ["Accept": "application/json"])
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        guard try document.field("success", of: "the answer") == .bool(true) else { throw .layout("the answer reports no success") }
        var rows: [(day: Day, quote: PublishedQuote)] = []
        for (index, record) in try document.field("genericResponse", of: "the answer").array("\"genericResponse\"").enumerated() {
            let what = "record \(index + 1)"
            let day = try Day(parsing: try record.string("data", of: what), .iso)
            let code = try record.string("codigoMoeda", of: what)
            let type = try record.field("tipoCambio", of: "\(code) on \(day)")
            guard type == .string("M") else {
                throw .layout("the rate of \(code) on \(day) is of type \(UpstreamDataError.quoted(type.shown)), not M (middle)")
            }
            if Self.skipped.contains(code) { continue }
            var value = try record.field("taxa", of: "\(code) on \(day)")
            guard case .number(let literal) = value else { throw .layout("\"taxa\" of \(code) on \(day) is \(value.kind), not a number") }
            if literal.contains(where: { $0 == "E" || $0 == "e" }), let plain = XLSXCell.plainDecimal(literal) { value = .number(plain) }
            rows.append((day, try .reading(code: code, value: value, direction: .pivotPerUnits, day: day)))
        }
        // None, or only skipped currencies (the answer for one of them): nothing published of what is read.
        return ProviderPublication.byDay(rows)
    }
}
