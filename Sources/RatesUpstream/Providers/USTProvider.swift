import RatesCore

/// The US Treasury's Reporting Rates of Exchange: about 170 country-currency rates per US dollar,
/// set each quarter for federal agencies' reporting, with amendments in between.
///
/// - Source: the FiscalData API,
///   `https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v1/accounting/od/rates_of_exchange?fields=record_date,effective_date,country_currency_desc,exchange_rate&filter=…&page%5Bnumber%5D=1&page%5Bsize%5D=10000&sort=record_date`,
///   JSON: `{"data":[{"record_date":"2026-03-31","effective_date":"2026-03-31",
///   "country_currency_desc":"Afghanistan-Afghani","exchange_rate":"64.77"},…],"meta":{…,"total-pages":1},"links":{…}}`.
///   An answer of more than one page (`meta.total-pages` above 1) is rejected: the page of 10,000
///   rows holds any range of about fourteen years.
/// - Quote convention: `exchange_rate` units of the currency per 1 USD,
///   ``PublishedQuote/Direction/unitsPerPivot``, unit 1. Rows name a country and currency, not an
///   ISO code, and the descriptions changed over the dataset's history (from 2001): ``codes`` holds
///   the descriptions whose code never changed (the current ones and former ones: `Swaziland-Lilangeni`,
///   `Burma-Kyat`, `Netherlands Antilles-Guilder`, …), ``datedCodes`` those of a currency withdrawn
///   (`Croatia-Kuna` until 2022, the euro's legacy currencies until 2002-02-28) or whose figures changed
///   unit while the description stayed (`Sierra Leone-Leone` is SLL until 2022-03-31 and SLE from
///   2022-09-01; `Mauritania-Ouguiya` MRO before 2018-06-30 and MRU from then), with no code for the days
///   between, whose unit the rows do not say. A row of a description in neither, or of a day no span of its description covers, is left
///   out. Several descriptions are one currency (the CFA francs of each country, the East Caribbean
///   dollar, the euro of the euro zone and of Cyprus): they are one quote when their figures agree on a
///   day and reject the answer when they do not, except that a former description (``formerDescriptions``,
///   `Swaziland-Lilangeni` beside `Eswatini-Lilangeni`) yields to the other.
/// - Skipped: the descriptions of the US dollar itself (Ecuador, El Salvador, the Marshall Islands,
///   Micronesia, Palau, Panama's "Dolares", Timor-Leste), quoted at 1.0: the pivot.
/// - Days: a figure is dated its `effective_date`. The rates of a quarter have the quarter's last
///   day as both record and effective date; an amendment (a rate changed by more than 10% during the
///   quarter) keeps the quarter's record date with a later effective date, and is read as a
///   publication of its own day holding the amended currencies only. The source therefore
///   publishes in parts (``publishesInParts``): an amendment replaces its currencies' figures from
///   its day on and leaves the others as they were. A quarter's rates stay current 92 days (``validityDays``).
/// - Schedule: America/New_York. The schedule can say no more than monthly: it checks on the first
///   working day of every month (noon, no usual time is documented), so `/v1/providers` counts
///   the two months between quarters as missed publications.
/// - Ranges: one request filtered on the effective date (`filter=effective_date:gte:FIRST,effective_date:lte:LAST`);
///   the newest publication is asked for as every row of the last 183 days' record dates
///   (`filter=record_date:gte:…`): the last two quarters and their amendments.
public struct USTProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The Treasury's country-currency descriptions whose code never changed, and the ISO 4217 codes they are.
    public static let codes: [String: String] = [
        // Former descriptions.
        "Burma-Kyat": "MMK", "Democratic Republic Of Congo-Franc": "CDF", "Macao-Mop": "MOP", "Mauritania-First Ouguiya": "MRO",
        "Netherlands Antilles-Guilder": "ANG", "Sudan-Sudanese Pound": "SDG",
        "Swaziland-Lilangeni": "SZL", "Venezuela-Bolivar": "VEF",
        "Albania-Lek": "ALL", "Algeria-Dinar": "DZD", "Angola-Kwanza": "AOA",
        "Antigua & Barbuda-East Caribbean Dollar": "XCD", "Argentina-Peso": "ARS", "Armenia-Dram": "AMD", "Australia-Dollar": "AUD",
        "Azerbaijan-Manat": "AZN", "Bahamas-Dollar": "BSD", "Bahrain-Dinar": "BHD", "Bangladesh-Taka": "BDT", "Barbados-Dollar": "BBD",
        "Belarus-New Ruble": "BYN", "Belize-Dollar": "BZD", "Benin-Cfa Franc": "XOF", "Bermuda-Dollar": "BMD", "Bolivia-Boliviano": "BOB",
        "Bosnia-Marka": "BAM", "Botswana-Pula": "BWP", "Brazil-Real": "BRL", "Brunei-Dollar": "BND", "Bulgaria-Lev New": "BGN",
        "Burkina Faso-Cfa Franc": "XOF", "Burundi-Franc": "BIF", "Cambodia-Riel": "KHR", "Cameroon-Cfa Franc": "XAF",
        "Canada-Dollar": "CAD", "Cape Verde-Escudo": "CVE", "Cayman Islands-Dollar": "KYD", "Central African Republic-Cfa Franc": "XAF",
        "Chad-Cfa Franc": "XAF", "Chile-Peso": "CLP", "China-Renminbi": "CNY", "Colombia-Peso": "COP", "Comoros-Franc": "KMF",
        "Congo-Cfa Franc": "XAF", "Costa Rica-Colon": "CRC", "Cote D'Ivoire-Cfa Franc": "XOF", "Cuba-Chavito": "CUC", "Cuba-Peso": "CUP",
        "Curacao-Caribbean Guilder": "XCG", "Cyprus-Euro": "EUR", "Czech Republic-Koruna": "CZK",
        "Democratic Republic Of Congo-Congolese Franc": "CDF", "Denmark-Krone": "DKK", "Djibouti-Franc": "DJF",
        "Dominican Republic-Peso": "DOP", "Ecuador-Dolares": "USD", "Egypt-Pound": "EGP", "El Salvador-Dollar": "USD",
        "Equatorial Guinea-Cfa Franc": "XAF", "Eritrea-Nakfa": "ERN", "Eswatini-Lilangeni": "SZL", "Ethiopia-Birr": "ETB",
        "Euro Zone-Euro": "EUR", "Fiji-Dollar": "FJD", "Gabon-Cfa Franc": "XAF", "Gambia-Dalasi": "GMD", "Georgia-Lari": "GEL",
        "Ghana-Cedi": "GHS", "Grenada-East Caribbean Dollar": "XCD", "Guatemala-Quetzal": "GTQ", "Guinea Bissau-Cfa Franc": "XOF",
        "Guinea-Franc": "GNF", "Guyana-Dollar": "GYD", "Haiti-Gourde": "HTG", "Honduras-Lempira": "HNL", "Hong Kong-Dollar": "HKD",
        "Hungary-Forint": "HUF", "Iceland-Krona": "ISK", "India-Rupee": "INR", "Indonesia-Rupiah": "IDR", "Iran-Rial": "IRR",
        "Iraq-Dinar": "IQD", "Israel-Shekel": "ILS", "Jamaica-Dollar": "JMD", "Japan-Yen": "JPY", "Jordan-Dinar": "JOD",
        "Kazakhstan-Tenge": "KZT", "Kenya-Shilling": "KES", "Korea-Won": "KRW", "Kuwait-Dinar": "KWD", "Kyrgyzstan-Som": "KGS",
        "Laos-Kip": "LAK", "Lebanon-Pound": "LBP", "Lesotho-Maloti": "LSL", "Liberia-Dollar": "LRD", "Libya-Dinar": "LYD",
        "Madagascar-Ariary": "MGA", "Malawi-Kwacha": "MWK", "Malaysia-Ringgit": "MYR", "Maldives-Rufiyaa": "MVR", "Mali-Cfa Franc": "XOF",
        "Marshall Islands-U.S. Dollar": "USD", "Mauritius-Rupee": "MUR", "Mexico-Peso": "MXN",
        "Micronesia-U.S. Dollar": "USD", "Moldova-Leu": "MDL", "Mongolia-Tugrik": "MNT", "Morocco-Dirham": "MAD",
        "Mozambique-Metical": "MZN", "Myanmar-Kyat": "MMK", "Namibia-Dollar": "NAD", "Nepal-Rupee": "NPR", "New Zealand-Dollar": "NZD",
        "Nicaragua-Cordoba": "NIO", "Niger-Cfa Franc": "XOF", "Nigeria-Naira": "NGN", "Norway-Krone": "NOK", "Oman-Rial": "OMR",
        "Pakistan-Rupee": "PKR", "Palau-Dollar": "USD", "Panama-Dolares": "USD", "Papua New Guinea-Kina": "PGK", "Paraguay-Guarani": "PYG",
        "Peru-Sol": "PEN", "Philippines-Peso": "PHP", "Poland-Zloty": "PLN", "Qatar-Riyal": "QAR",
        "Republic Of North Macedonia-Denar": "MKD", "Romania-New Leu": "RON", "Russia-Ruble": "RUB", "Rwanda-Franc": "RWF",
        "Sao Tome & Principe-New Dobras": "STN", "Saudi Arabia-Riyal": "SAR", "Senegal-Cfa Franc": "XOF", "Serbia-Dinar": "RSD",
        "Seychelles-Rupee": "SCR", "Singapore-Dollar": "SGD", "Solomon Islands-Dollar": "SBD",
        "Somali-Shilling": "SOS", "South Africa-Rand": "ZAR", "South Sudan-Sudanese Pound": "SSP", "Sri Lanka-Rupee": "LKR",
        "St. Lucia-East Caribbean Dollar": "XCD", "Sudan-Pound": "SDG", "Suriname-Dollar": "SRD", "Sweden-Krona": "SEK",
        "Switzerland-Franc": "CHF", "Syria-Pound": "SYP", "Taiwan-Dollar": "TWD", "Tajikistan-Somoni": "TJS", "Tanzania-Shilling": "TZS",
        "Thailand-Baht": "THB", "Timor-Leste-Dili": "USD", "Togo-Cfa Franc": "XOF", "Tonga-Pa'Anga": "TOP",
        "Trinidad & Tobago-Dollar": "TTD", "Tunisia-Dinar": "TND", "Turkey-New Lira": "TRY", "Turkmenistan-New Manat": "TMT",
        "Uganda-Shilling": "UGX", "Ukraine-Hryvnia": "UAH", "United Arab Emirates-Dirham": "AED", "United Kingdom-Pound": "GBP",
        "Uruguay-Peso": "UYU", "Uzbekistan-Som": "UZS", "Vanuatu-Vatu": "VUV", "Venezuela-Bolivar Soberano": "VES", "Vietnam-Dong": "VND",
        "Western Samoa-Tala": "WST", "Yemen-Rial": "YER", "Zambia-New Kwacha": "ZMW", "Zimbabwe-Gold": "ZWG",
    ]

    /// The descriptions whose code depends on the day, each with its spans: the code from the first day
    /// (`nil`: open) until the second (excluded; `nil`: open). A day no span covers has no code.
    public static let datedCodes: [String: [(code: String, from: String?, until: String?)]] = [
        "Afghanistan-Afghani": [("AFN", "2003-01-01", nil)],
        "Austria-Schilling": [("ATS", nil, "2002-03-01")],
        "Azerbaijan-Second Manat": [("AZM", nil, "2006-01-01")],
        "Belarus-Ruble": [("BYR", nil, "2016-07-01")],
        "Belgium-Francs": [("BEF", nil, "2002-03-01")],
        "Croatia-Kuna": [("HRK", nil, "2023-01-01")],
        "Cyprus-Pound": [("CYP", nil, "2008-01-01")],
        "El Salvador-Colon": [("SVC", nil, "2015-01-01")],
        "Estonia-Kroon": [("EEK", nil, "2011-01-01")],
        "Finland-Markka": [("FIM", nil, "2002-03-01")],
        "France-Franc": [("FRF", nil, "2002-03-01")],
        "Germany-Mark": [("DEM", nil, "2002-03-01")],
        "Ghana-Second Cedi": [("GHC", nil, "2007-07-01"), ("GHS", "2007-07-01", "2015-01-01")],
        "Greece-Drachma": [("GRD", nil, "2002-03-01")],
        "Ireland-Pound": [("IEP", nil, "2002-03-01")],
        "Italy-Lira": [("ITL", nil, "2002-03-01")],
        "Latvia-Lats": [("LVL", nil, "2014-01-01")],
        "Lithuania-Lita": [("LTL", nil, "2015-01-01")],
        "Luxembourg-Franc": [("LUF", nil, "2002-03-01")],
        "Maltese-Lira": [("MTL", nil, "2008-01-01")],
        "Mauritania-Ouguiya": [("MRO", nil, "2018-06-30"), ("MRU", "2018-06-30", nil)],
        "Netherlands-Guilder": [("NLG", nil, "2002-03-01")],
        "Portugal-Escudo": [("PTE", nil, "2002-03-01")],
        "Romania-Third Leu": [("ROL", nil, "2005-07-01")],
        "Sao Tome & Principe-Dobras": [("STD", nil, "2018-01-01")],
        "Sierra Leone-Leone": [("SLL", nil, "2022-04-01"), ("SLE", "2022-09-01", nil)],
        "Slovak-Korun": [("SKK", nil, "2009-01-01")],
        "Slovenia-Tolars": [("SIT", nil, "2007-01-01")],
        "Spain-Peseta": [("ESP", nil, "2002-03-01")],
        "Sudan-Dinar": [("SDG", "2007-07-01", nil)],
        "Suriname-Guilder": [("SRD", "2004-07-01", nil)],
        "Turkey-Lira": [("TRL", nil, "2005-01-01")],
        "Turkmenistan-Manat": [("TMM", nil, "2009-01-01")],
        "Venezuela-Soberano": [("VEF", "2008-01-01", nil)],
        "Zambia-Kwacha": [("ZMK", nil, "2013-01-01")],
        "Zimbabwe-Rtgs": [("ZWL", "2019-02-22", nil)],
    ]

    /// Former descriptions of a currency another description names too: on a day both have a figure, the other's is read.
    public static let formerDescriptions: Set<String> = [
        "Burma-Kyat", "Democratic Republic Of Congo-Franc", "Ghana-Second Cedi", "Mauritania-First Ouguiya", "Sudan-Dinar",
        "Sudan-Sudanese Pound", "Suriname-Guilder", "Swaziland-Lilangeni", "Venezuela-Soberano",
    ]

    /// The currency `description` names on `day`; `nil` for a description not in the tables or a day none of its spans covers.
    public static func currency(described description: String, on day: Day) -> CurrencyCode? {
        if let code = codes[description] { return CurrencyCode(code) }
        let iso = day.text(.iso)
        let span = datedCodes[description]?.first { span in span.from.map { iso >= $0 } ?? true && span.until.map { iso < $0 } ?? true }
        return span.flatMap { CurrencyCode($0.code) }
    }

    /// The dataset's URL.
    var endpoint: String { baseURL + "/services/api/fiscal_service/v1/accounting/od/rates_of_exchange" }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [request(filter: "record_date:gte:\(today().adding(days: -183).text(.iso))")]) { first, last in
            [request(filter: "effective_date:gte:\(first.text(.iso)),effective_date:lte:\(last.text(.iso))")]
        }
    }

    func request(filter: String) -> ProviderRequest {
        ProviderRequest(
            url: endpoint + "?fields=record_date,effective_date,country_currency_desc,exchange_rate&filter=\(filter)"
                + "&page%5Bnumber%5D=1&page%5Bsize%5D=10000&sort=record_date")
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let meta = try document.field("meta", of: "the answer")
        let pages = try meta.field("total-pages", of: "\"meta\"").integer("\"total-pages\"")
        guard pages <= 1 else { throw .layout("the answer has \(pages) pages, not one") }
        var quotes: [Day: [(quote: PublishedQuote, former: Bool)]] = [:]
        for (index, row) in try document.field("data", of: "the answer").array("\"data\"").enumerated() {
            let what = "row \(index + 1)"
            _ = try Day(parsing: row.string("record_date", of: what), .iso)
            let day = try Day(parsing: row.string("effective_date", of: what), .iso)
            let description = try row.string("country_currency_desc", of: what)
            let value = try row.string("exchange_rate", of: what)
            guard let currency = Self.currency(described: description, on: day) else { continue }
            guard RateText.isValid(value) else { throw .invalidRate(currency: currency, day: day, text: value) }
            guard currency != pivot else { continue }
            let quote = PublishedQuote(currency: currency, value: value, unit: 1, direction: .unitsPerPivot)
            let former = Self.formerDescriptions.contains(description)
            if let index = quotes[day]?.firstIndex(where: { $0.quote.currency == currency }), let earlier = quotes[day]?[index] {
                if earlier.quote == quote || former && !earlier.former { continue }
                guard earlier.former && !former else { throw .duplicateCurrency(currency, day: day) }
                quotes[day]?[index] = (quote, former)
                continue
            }
            quotes[day, default: []].append((quote, former))
        }
        // No rate set or amendment in the range: no publication.
        return quotes.map { ProviderPublication(day: $0.key, quotes: $0.value.map(\.quote)) }
    }
}
