import RatesCore

/// The Central Bank of Iceland's (Seðlabanki Íslands) rates of the króna (32 currencies and the SDR).
///
/// - Source: `https://sedlabanki.is/xmltimeseries/Default.aspx?DagsFra=YYYY-MM-DD&DagsTil=YYYY-MM-DD&GroupID=N&Type=xml`, UTF-8 XML: `<Group ID="N">`
///   holding one `<TimeSeries ID="…">` per series, each with entries `<Entry><Date>3/24/2026 12:00:00 AM</Date><Value>124.440000</Value></Entry>`.
///   Series are named in Icelandic, not by ISO code: ``seriesCurrencies`` maps the IDs of the mid-rate series (`skráð miðgengi`) to codes. Group 9 is
///   the official reference rate (10 currencies and the SDR today, from 1981; the euro's legacy currencies until their withdrawal), group 7 the
///   registered mid rate of 22 more (from 2006; the rouble, kuna, lev, Baltic and Maltese currencies and the bolívar until the bank stopped quoting
///   them). Every answer lists all of its group's series, those without figures in the window included. The buying (`skráð kaupgengi`) and selling
///   (`skráð sölugengi`) series are not read. A mid-rate series with entries that the map does not name rejects the answer: the bank has added a
///   currency to map. An answer whose series are all without entries (a window of holidays) is no publication.
/// - Quote convention: krónur for 1 unit of the currency (0.7830 ISK per 1 JPY): ``PublishedQuote/Direction/pivotPerUnits``, unit 1. The euro series
///   (4064) is the ECU (`XEU`) on days before 1999-01-01, and the bolívar series (3504) is `VEB` before 2008-01-01, `VEF` until 2018-08-19 and `VES`
///   from 2018-08-20, as the bolívar was redenominated (``currency(series:group:on:)``).
/// - Schedule: Icelandic working days (Atlantic/Reykjavik), about 11:00.
/// - Requests: two per window, one per group (``ProviderRequest/subject`` `"9"` and `"7"`); the latest is the last seven days to today in Reykjavik
///   by the system clock. History from 1981-01-01 (``historyStart``), the króna's redenomination.
public struct SBIProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The mid-rate series read, by group and series ID: the code of the currency today (or when it was withdrawn).
    public static let seriesCurrencies: [String: [String: CurrencyCode]] = [
        "9": [
            "4055": "USD", "4061": "DKK", "4064": "EUR", "4085": "JPY", "4088": "CAD", "4091": "NOK", "4097": "XDR", "4103": "GBP",
            "4106": "CHF", "4109": "SEK",
            // The euro's legacy currencies.
            "4052": "ATS", "4058": "BEF", "4067": "FIM", "4070": "FRF", "4073": "GRD", "4076": "NLG", "4079": "IEP", "4082": "ITL",
            "4094": "PTE", "4100": "ESP", "4112": "DEM",
        ].mapValues { CurrencyCode($0)! },
        "7": [
            "29": "CNY", "31": "PLN", "35": "NGN", "36": "TWD", "37": "KRW", "38": "SRD", "39": "AUD", "40": "NZD", "41": "HKD",
            "42": "HUF", "43": "ILS", "44": "ZAR", "45": "SGD", "46": "MXN", "48": "TRY", "50": "INR", "52": "CZK", "53": "BRL",
            "74": "THB", "288": "JMD", "3503": "SAR", "19254": "KWD",
            // Currencies no longer quoted.
            "30": "RUB", "32": "EEK", "33": "LVL", "34": "LTL", "47": "MTL", "49": "HRK", "51": "BGN", "3504": "VEF",
        ].mapValues { CurrencyCode($0)! },
    ]

    /// The currency of series `id` of `group` on `day`: the mapped code, except the euro series before the euro (the ECU) and the bolívar series
    /// across its redenominations; `nil` for a series not mapped.
    public static func currency(series id: String, group: String, on day: Day) -> CurrencyCode? {
        guard let code = seriesCurrencies[group]?[id] else { return nil }
        switch (group, id) {
        case ("9", "4064"): return CurrencyCode(Redenomination.code("EUR", on: day))!
        case ("7", "3504"): return CurrencyCode(Redenomination.code("VES", on: day))!
        default: return code
        }
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(each: ["9", "7"], latestDays: 7, today: today()) { group, first, last in
            ProviderRequest(url: "\(baseURL)?DagsFra=\(first)&DagsTil=\(last)&GroupID=\(group)&Type=xml")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "Group")
        try XMLFields.expectOnly(["Name", "TimeSeries"], in: root)
        let group = try XMLFields.attribute(root, "ID", in: "<Group>")
        guard let currencies = Self.seriesCurrencies[group], request.subject.map({ $0 == group }) ?? true else {
            throw .layout("<Group ID=\"\(group)\"> answers a request for group \(request.subject ?? "?")")
        }
        var quotes: [Day: [PublishedQuote]] = [:]
        for series in root.children("TimeSeries") {
            let id = try XMLFields.attribute(series, "ID", in: "<TimeSeries>")
            let place = "<TimeSeries ID=\"\(id)\">"
            try XMLFields.expectOnly(["FameName", "Name", "Description", "TimeSeriesData"], in: series)
            let data = try XMLFields.onlyChild("TimeSeriesData", of: series, in: place)
            try XMLFields.expectOnly(["Entry"], in: data)
            if data.children.isEmpty { continue }  // a series without figures in the window
            let description = try XMLFields.text(series, "Description", in: place)
            if description.contains("kaupgengi") || description.contains("sölugengi") { continue }  // buying or selling rate
            guard currencies[id] != nil else { throw .layout("\(place) of group \(group) is not a known series") }
            guard description.contains("miðgengi") else { throw .layout("\(place) is \(UpstreamDataError.quoted(description)), not a mid rate") }
            for entry in data.children {
                let stamp = try XMLFields.text(entry, "Date", in: "an <Entry> of \(place)")
                // "3/24/2026 12:00:00 AM": a day at midnight.
                let parts = stamp.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, parts[1] == "12:00:00 AM" else { throw .invalidDay(stamp) }
                let day = try Day(parsing: String(parts[0]), .monthDayYear(separator: "/", padded: false))
                let code = Self.currency(series: id, group: group, on: day)!
                let value = try PublishedText.rate(XMLFields.text(entry, "Value", in: "the <Entry> of \(place) on \(day)"), currency: code, day: day)
                quotes[day, default: []].append(PublishedQuote(currency: code, value: value, direction: .pivotPerUnits))
            }
        }
        return quotes.map { ProviderPublication(day: $0.key, quotes: $0.value) }  // none for a window without a working day
    }
}
