import RatesCore

/// The Central Bank of Kenya's indicative rates of the shilling (KES), 21 currencies.
///
/// - Source: the bank's wpDataTables table 193 (the rates since 5 January 2024), asked for whole:
///   `POST https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193` with the form body `draw=1&start=0&length=-1`. The
///   answer is JSON (``WPDataTablesAnswer``), one row per currency and day: `["05\/01\/2024","US DOLLAR","157.9012"]` (day as DD/MM/YYYY, the bank's
///   name of the currency, the figure). The names, white space collapsed, are read through the fixed table ``currencyNames``, or as the code when a
///   name is itself an ISO 4217 code; any other name rejects the answer. The earlier history (from 2003) is another table (32), whose layout is not
///   recorded here and which is not asked for.
/// - Quote convention: shillings for 1 unit of the currency (`US DOLLAR`: 129.5200 KES per USD),
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``; `JPY (100)` is per 100 yen (unit 100); the East African lines `KES / USHS`, `KES / TSHS`,
///   `KES / RWF`, `KES / BIF` are units of that currency per shilling (29.0700 UGX per KES): ``RatesCore/PublishedQuote/Direction/unitsPerPivot``.
///   Figures as published. The table repeats some days whole (28/11/2025 twice, figure for figure): a row the same as one before it counts once, a
///   currency of one day with two different figures rejects the answer.
/// - Schedule: Africa/Nairobi, Monday to Friday, usually by 11:00; a figure is dated the day it is for.
/// - Ranges: the one request gives every day since 2024-01-05; a fetch keeps the days it asked for.
public struct CBKProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The bank's names of the currencies: the code, the unit, and whether the figure is units per shilling.
    static let currencyNames: [String: (code: String, unit: Int, perShilling: Bool)] = [
        "US DOLLAR": ("USD", 1, false), "STG POUND": ("GBP", 1, false), "EURO": ("EUR", 1, false), "SA RAND": ("ZAR", 1, false),
        "KES / USHS": ("UGX", 1, true), "KES / TSHS": ("TZS", 1, true), "KES / RWF": ("RWF", 1, true), "KES / BIF": ("BIF", 1, true),
        "AE DIRHAM": ("AED", 1, false), "CAN $": ("CAD", 1, false), "S FRANC": ("CHF", 1, false), "JPY (100)": ("JPY", 100, false),
        "SW KRONER": ("SEK", 1, false), "NOR KRONER": ("NOK", 1, false), "DAN KRONER": ("DKK", 1, false), "IND RUPEE": ("INR", 1, false),
        "HONGKONG DOLLAR": ("HKD", 1, false), "SINGAPORE DOLLAR": ("SGD", 1, false), "SAUDI RIYAL": ("SAR", 1, false),
        "CHINESE YUAN": ("CNY", 1, false), "AUSTRALIAN $": ("AUD", 1, false),
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let url = "\(baseURL)/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193"
        return [ProviderRequest(url: url, method: .post, headers: FormBody.contentType, body: "draw=1&start=0&length=-1")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        var quotes = RepeatedQuotes()
        for row in try WPDataTablesAnswer.rows(body, columns: 3) {
            let day = try Day(parsing: row[0], .dayMonthYear(separator: "/"))
            let written = HTMLText.collapsed(row[1])
            let byCode = CurrencyCode(written).flatMap { $0.name == nil ? nil : (code: $0.rawValue, unit: 1, perShilling: false) }
            guard let name = Self.currencyNames[written] ?? byCode else {
                throw .layout("the currency \(UpstreamDataError.quoted(written)) on \(day) is not one the adapter knows")
            }
            let currency = CurrencyCode(name.code)!
            let value = try GroupedDecimal.rate(row[2], of: currency, day: day, decimalMark: ".")
            let direction: PublishedQuote.Direction = name.perShilling ? .unitsPerPivot : .pivotPerUnits
            try quotes.add(PublishedQuote(currency: currency, value: value, unit: name.unit, direction: direction), on: day)
        }
        return quotes.publications
    }
}
