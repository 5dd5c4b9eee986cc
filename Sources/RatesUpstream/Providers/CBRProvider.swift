import RatesCore

/// The Bank of Russia's official rates of the rouble (about 54 currencies).
///
/// - Source: `https://www.cbr.ru/scripts/XML_daily.asp`, one day's table as XML in
///   windows-1251: `<ValCurs Date="25.04.2026">` holding one `<Valute>` per currency with
///   `<CharCode>`, `<Nominal>` and `<Value>` (decimal comma). The latest table is the answer
///   without a query; the table of a day `D` is `?date_req=DD/MM/YYYY`.
/// - Quote convention: `Value` roubles for `Nominal` units of the currency (75,5273 RUB per 1 USD,
///   20,3123 RUB per 100 AMD): ``PublishedQuote/Direction/pivotPerUnits`` with unit `Nominal`.
///   `VunitRate` (the same figure divided by `Nominal`, computed by the bank) is not read.
/// - Schedule: the bank sets the rates on its working days (Europe/Moscow), usually by 13:00, for
///   the next calendar day: a table is dated Tuesday to Saturday, and Saturday's holds through Monday.
/// - Ranges: one daily request per Tuesday–Saturday in the range. For a day without a table of its own
///   (a holiday) the bank answers with the table in force, under its own date, which may lie before the range.
/// - One currency over a range: `https://www.cbr.ru/scripts/XML_dynamic.asp?date_req1=DD/MM/YYYY&date_req2=DD/MM/YYYY&VAL_NM_RQ=R01235`
///   answers `<ValCurs ID="R01235" DateRange1="01.03.2026" DateRange2="05.03.2026" name="Foreign Currency Market Dynamic">`
///   holding one `<Record Date="03.03.2026" Id="R01235">` per table of the range, with `<Nominal>` and `<Value>`
///   as in the daily table (none for a range without a table). The answer names its currency only by the bank's
///   own ID, the `ID` of the daily table's `<Valute>`: ``currencyIDs`` pairs the 54 IDs with their `CharCode`s
///   as the daily table does, and an ID not among them rejects the answer. The fetch does not ask for these
///   (one request per currency where the daily tables need one per day), but an answer of theirs reads as
///   the days' figures of its currency, whichever table request it is read for.
/// - Metals: `https://www.cbr.ru/scripts/xml_metall.asp?date_req1=DD/MM/YYYY&date_req2=DD/MM/YYYY`,
///   the bank's accounting prices of refined gold, silver, platinum and palladium per gram, in
///   roubles, for each day it set them in the range (none for a range of holidays): `<Metall>`
///   holding one `<Record Date="03.03.2026" Code="1">` per metal and day (codes 1 to 4: `XAU`, `XAG`,
///   `XPT`, `XPD`) with `<Buy>` and `<Sell>` (the same figure since 2008; their exact midpoint is
///   read), served per troy ounce (``PreciousMetal``).
///   Asked for beside the tables: for `.latest` the seven days up to today (by the source's
///   clock in Moscow, ``RatesProvider/today()``), for a range in spans of at most a year. The metal prices carry their
///   own days, which are not the tables' days, so the bank publishes in parts
///   (``publishesInParts``): a table adds to its day's figures, and a currency the bank stops
///   quoting leaves the merge when its last figure passes the carry-forward limit.
public struct CBRProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The weekdays the bank's tables are dated: Tuesday to Saturday.
    static let tableWeekdays: Set<Int> = [2, 3, 4, 5, 6]

    /// The metal prices' script.
    var metalsURL: String { "\(baseURL)/scripts/xml_metall.asp" }

    /// The metals by the code of their `<Record>`.
    static let metals = [1: CurrencyCode("XAU")!, 2: CurrencyCode("XAG")!, 3: CurrencyCode("XPT")!, 4: CurrencyCode("XPD")!]

    /// The bank's currency IDs (the `ID` of a daily table's `<Valute>`, the `VAL_NM_RQ` of `XML_dynamic.asp`) and
    /// the codes its daily table gives them (`<CharCode>`), as the table of 2026-04-25 pairs them.
    static let currencyIDs: [String: String] = [
        "R01010": "AUD", "R01020A": "AZN", "R01030": "DZD", "R01035": "GBP", "R01060": "AMD", "R01080": "BHD", "R01090B": "BYN",
        "R01105": "BOB", "R01115": "BRL", "R01135": "HUF", "R01150": "VND", "R01200": "HKD", "R01210": "GEL", "R01215": "DKK",
        "R01230": "AED", "R01235": "USD", "R01239": "EUR", "R01240": "EGP", "R01270": "INR", "R01280": "IDR", "R01300": "IRR",
        "R01335": "KZT", "R01350": "CAD", "R01355": "QAR", "R01370": "KGS", "R01375": "CNY", "R01395": "CUP", "R01500": "MDL",
        "R01503": "MNT", "R01520": "NGN", "R01530": "NZD", "R01535": "NOK", "R01540": "OMR", "R01565": "PLN", "R01580": "SAR",
        "R01585F": "RON", "R01589": "XDR", "R01625": "SGD", "R01670": "TJS", "R01675": "THB", "R01685": "BDT", "R01700J": "TRY",
        "R01710A": "TMT", "R01717": "UZS", "R01720": "UAH", "R01760": "CZK", "R01770": "SEK", "R01775": "CHF", "R01800": "ETB",
        "R01805F": "RSD", "R01810": "ZAR", "R01815": "KRW", "R01820": "JPY", "R02005": "MMK",
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let url = "\(baseURL)/scripts/XML_daily.asp"
        let slashed = Day.ProviderFormat.dayMonthYear(separator: "/")
        func metals(_ first: Day, _ last: Day) -> ProviderRequest {
            ProviderRequest(url: "\(metalsURL)?date_req1=\(first.text(slashed))&date_req2=\(last.text(slashed))")
        }
        let today = today()
        return window.requests(latest: [ProviderRequest(url: url), metals(today.adding(days: -6), today)]) { first, last in
            Day.days(from: first, through: last, on: Self.tableWeekdays).map { day in
                ProviderRequest(url: url + "?date_req=" + day.text(slashed))
            } + Day.spans(from: first, through: last, maxDays: 366).map { metals($0.first, $0.last) }
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        if request.url.hasPrefix(metalsURL + "?") { return try metalPrices(body) }
        let root = try XMLReader.Element(parsing: body, root: "ValCurs")
        if root.attribute("ID") != nil { return try currencyRange(root) }
        return try [XMLFields.valCursTable(body, pivot: pivot, days: .dayMonthYear(separator: ".", padded: false))]
    }

    /// Reads an `XML_dynamic.asp` answer: `<ValCurs ID=… DateRange1=… DateRange2=…>`, one currency's figure on
    /// each day of the range it was asked for, one `<Record>` a day.
    private func currencyRange(_ root: XMLReader.Element) throws(UpstreamDataError) -> [ProviderPublication] {
        let id = try XMLFields.attribute(root, "ID", in: "<ValCurs>")
        for bound in ["DateRange1", "DateRange2"] {
            _ = try Day(parsing: XMLFields.attribute(root, bound, in: "<ValCurs ID=\"\(id)\">"), .dayMonthYear(separator: "."))
        }
        try XMLFields.expectOnly(["Record"], in: root)
        guard let currency = Self.currencyIDs[id].flatMap({ CurrencyCode($0) }) else {
            throw .layout("<ValCurs ID=\"\(id)\">: a currency ID the adapter does not know")
        }
        // A range without a table (the New Year holidays) has no records: nothing published.
        return ProviderPublication.byDay(try root.children.map { record throws(UpstreamDataError) -> (day: Day, quote: PublishedQuote) in
            let day = try Day(parsing: XMLFields.attribute(record, "Date", in: "a <Record> of \(id)"), .dayMonthYear(separator: "."))
            let recordID = try XMLFields.attribute(record, "Id", in: "the <Record> of \(day)")
            guard recordID == id else {
                throw .layout("the <Record> of \(day) is of \(UpstreamDataError.quoted(recordID)) in the answer of \(id)")
            }
            let place = "the <Record> of \(currency) on \(day)"
            let unit = try PublishedText.unit(XMLFields.text(record, "Nominal", in: place), of: currency, day: day)
            return (day, try .reading(XMLFields.text(record, "Value", in: place), of: currency, unit: unit, direction: .pivotPerUnits, day: day))
        })
    }

    /// Reads a `<Metall>` answer: each metal's price per gram on each day, as one per troy ounce.
    private func metalPrices(_ body: [UInt8]) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "Metall")
        try XMLFields.expectOnly(["Record"], in: root)
        // Days without prices (the New Year holidays) make a `<Metall>` without records: nothing published.
        return ProviderPublication.byDay(try root.children.map { record throws(UpstreamDataError) -> (day: Day, quote: PublishedQuote) in
            let day = try Day(parsing: XMLFields.attribute(record, "Date", in: "a <Record>"), .dayMonthYear(separator: "."))
            let codeText = try XMLFields.attribute(record, "Code", in: "a <Record> of \(day)")
            guard let metal = Int(codeText).flatMap({ Self.metals[$0] }) else {
                throw .layout("a <Record> of \(day) has metal code \(UpstreamDataError.quoted(codeText)), expected 1 to 4")
            }
            let place = "the <Record> of \(metal) on \(day)"
            let buying = try PublishedText.rate(XMLFields.text(record, "Buy", in: place), currency: metal, day: day)
            let selling = try PublishedText.rate(XMLFields.text(record, "Sell", in: place), currency: metal, day: day)
            let perGram = try PublishedText.midpoint(buying: buying, selling: selling, currency: metal, day: day)
            let perOunce = try PreciousMetal.perTroyOunce(perGram: perGram, of: metal, day: day)
            return (day, PublishedQuote(currency: metal, value: perOunce, direction: .pivotPerUnits))
        })
    }
}
