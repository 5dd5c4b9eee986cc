import RatesCore

/// Banco de Portugal's history of the escudo: its daily reference rates of about 24 currencies in
/// PTE, from 1987-01-02 to 1998-12-31, the last day before the euro.
///
/// - Source: the BPstat API's dataset of escudo exchange rates, daily series only (`dim_cats=40:4263`):
///   `https://bpstat.bportugal.pt/data/v1/domains/29/datasets/23e0cdd56bddb4ad3016a9c3ad63a539/?dim_cats=40:4263&lang=EN&obs_since=YYYY-MM-DD&obs_to=YYYY-MM-DD&page=N`.
///   Each answer is a JSON-stat 2.0 dataset of up to ten series (one page): `id` and `size` name the
///   dimensions (`["12","13","18","19","29","40","70","reference_date"]`, `[11,1,1,1,1,1,1,4]`),
///   `dimension` their categories (`"12"`, the counterparty currency, by name: `"Italy, Liras"`;
///   `"reference_date"` the days), and `value` the figures in row-major order (the last dimension
///   fastest), `null` for none. A currency may be on two pages (the guilder, the Belgian franc): the
///   pages must then agree.
/// - Quote convention: escudos per 1 unit of the currency (`172.392` PTE per USD, `0.10353` per ITL):
///   ``PublishedQuote/Direction/pivotPerUnits``, unit 1, the JSON number's text as written. Every
///   other dimension must have one category: the reference currency and unit "Portuguese Escudo",
///   periodicity "Daily". The currencies are named, not coded: ``codes`` is the fixed table of the
///   names the bank uses (the ECU as XEU); a name not in it rejects the answer.
/// - Skipped: a `null` figure (no rate that day).
/// - Schedule: none any more (the rates were set on Lisbon working days until 1998-12-31); the
///   schedule has no weekdays, so no publication is ever due or missed.
/// - Ranges: three pages per calendar year of the range (the 25 daily series, ten a page), cut to
///   1987-01-02 … 1998-12-31 (``historyStart``, ``lastDay``); a third page that says another follows
///   (`extension.next_page`) is rejected, since the adapter would not ask for it. The newest
///   publication is asked for as the history's last four days. With nothing stored, a fetch asks
///   for the whole history.
public struct BDPProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The last day of the escudo's own rates.
    public static let lastDay = Day(year: 1998, month: 12, day: 31)!
    /// The pages asked for each span: the daily series, ten a page.
    static let pages = 3

    /// The bank's currency names and their ISO 4217 codes.
    public static let codes: [String: String] = [
        "United States of America, Dollars": "USD", "United Kingdom, Pounds": "GBP", "Switzerland, Francs": "CHF", "Norway, Krone": "NOK",
        "Sweden, Kronor": "SEK", "European Currency Unit - Banco de Portugal": "XEU", "The Netherlands, Guilder": "NLG",
        "Ireland, Pounds": "IEP", "Italy, Liras": "ITL", "Spain, Pesetas": "ESP", "South Africa, Rand": "ZAR", "Japan, Yen": "JPY",
        "Denmark, Kroner": "DKK", "Canada, Dollars": "CAD", "Greece, Drachma": "GRD", "Cabo Verde, Escudo": "CVE", "Belgium, Francs": "BEF",
        "France, Francs": "FRF", "Germany, Deutsche Mark": "DEM", "Finland, Markka": "FIM", "Macau, Patacas": "MOP", "Brazil Real": "BRL",
        "Australia, Dollars": "AUD", "Austria, Schilling": "ATS",
    ]

    /// The single-category dimensions whose category label is checked, and the label each must have.
    static let fixedLabels = ["13": "Portuguese Escudo", "70": "Portuguese Escudo", "40": "Daily"]

    /// The dataset's URL, with its trailing slash.
    var endpoint: String { baseURL + "/data/v1/domains/29/datasets/23e0cdd56bddb4ad3016a9c3ad63a539/" }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: requests(from: Self.lastDay.adding(days: -3), through: Self.lastDay)) { first, last in
            Day.yearSpans(from: max(first, historyStart), through: min(last, Self.lastDay)).flatMap { requests(from: $0.first, through: $0.last) }
        }
    }

    /// The pages of `first` through `last`.
    func requests(from first: Day, through last: Day) -> [ProviderRequest] {
        (1...Self.pages).map { page in
            ProviderRequest(url: endpoint + "?dim_cats=40:4263&lang=EN&obs_since=\(first.text(.iso))&obs_to=\(last.text(.iso))&page=\(page)")
        }
    }

    /// With nothing stored, the whole history; otherwise what is left of it after `stored`, or the
    /// newest publication again once all of it is (nothing new ever comes).
    public func catchUp(after stored: Day?, backfillDays: Int, today: Day) -> FetchWindow {
        guard let stored else { return .range(historyStart, Self.lastDay) }
        return stored < Self.lastDay ? .range(stored.adding(days: 1), Self.lastDay) : .latest
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        guard try document.field("class", of: "the answer").string("\"class\"") == "dataset" else {
            throw .layout("the answer is not a JSON-stat dataset")
        }
        if request.url.hasSuffix("&page=\(Self.pages)"), let next = document["extension"]?["next_page"], !next.isNull {
            throw .layout("the answer says another page follows (\(next.shown)): more series than the adapter asks for")
        }
        let ids = try document.field("id", of: "the answer").array("\"id\"")
        let sizes = try document.field("size", of: "the answer").array("\"size\"")
        guard ids.count == sizes.count else { throw .layout("\"id\" and \"size\" differ in length") }
        let dimensions = try document.field("dimension", of: "the answer")
        var currencyAxis: (position: Int, codes: [CurrencyCode])?
        var dayAxis: (position: Int, days: [Day])?
        var counts: [Int] = []
        for (position, (idValue, sizeValue)) in zip(ids, sizes).enumerated() {
            let id = try idValue.string("a dimension id")
            let size = try sizeValue.integer("the size of dimension \(id)")
            let category = try dimensions.field(id, of: "\"dimension\"").field("category", of: "dimension \(id)")
            let index = try category.field("index", of: "dimension \(id)'s category").array("dimension \(id)'s index")
            guard index.count == size else { throw .layout("dimension \(id) has \(index.count) categories, not \(size)") }
            let keys = try index.map { (key: ProviderJSON) throws(UpstreamDataError) -> String in try key.string("a category of dimension \(id)") }
            counts.append(size)
            switch id {
            case "12":
                currencyAxis = (position, try keys.map { key throws(UpstreamDataError) in
                    let label = try category.field("label", of: "dimension 12").field(key, of: "dimension 12's labels")
                        .string("the label of currency \(key)")
                    guard let code = Self.codes[label].flatMap(CurrencyCode.init) else {
                        throw .layout("the currency \(UpstreamDataError.quoted(label)) is not in the adapter's table")
                    }
                    return code
                })
            case "reference_date":
                dayAxis = (position, try keys.map { key throws(UpstreamDataError) in try Day(parsing: key, .iso) })
            default:
                guard size == 1 else { throw .layout("dimension \(id) has \(size) categories, not one") }
                if let wanted = Self.fixedLabels[id] {
                    let label = try category.field("label", of: "dimension \(id)").field(keys[0], of: "dimension \(id)'s labels")
                    guard label.stringValue == wanted else {
                        throw .layout("dimension \(id) is \(UpstreamDataError.quoted(label.shown)), not \(wanted)")
                    }
                }
            }
        }
        guard let currencyAxis, let dayAxis, Set(Self.fixedLabels.keys).isSubset(of: Set(ids.compactMap(\.stringValue))) else {
            throw .layout("the dataset lacks the currency, date, reference currency, unit or periodicity dimension")
        }
        let values = try document.field("value", of: "the answer").array("\"value\"")
        guard values.count == counts.reduce(1, *) else {
            throw .layout("\(values.count) values for \(counts.reduce(1, *)) cells")
        }
        // Row-major: the stride of a dimension is the product of the sizes after it.
        func stride(_ position: Int) -> Int { counts[(position + 1)...].reduce(1, *) }
        let (currencyStride, dayStride) = (stride(currencyAxis.position), stride(dayAxis.position))
        var publications: [ProviderPublication] = []
        for (dayIndex, day) in dayAxis.days.enumerated() {
            var quotes: [PublishedQuote] = []
            for (currencyIndex, currency) in currencyAxis.codes.enumerated() {
                let value = values[currencyIndex * currencyStride + dayIndex * dayStride]
                guard !value.isNull else { continue }
                guard case .number = value, let text = value.publishedDecimal else { throw .invalidRate(currency: currency, day: day, text: value.shown) }
                quotes.append(PublishedQuote(currency: currency, value: text, unit: 1, direction: .pivotPerUnits))
            }
            if !quotes.isEmpty { publications.append(ProviderPublication(day: day, quotes: quotes)) }
        }
        return publications
    }
}
