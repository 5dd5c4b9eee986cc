import RatesCore

/// The Deutsche Bundesbank's history of the Deutsche Mark: the official Frankfurt fixing of 18 currencies in DEM, from 1948-06-21 to 1998-12-30, its
/// last day before the euro.
///
/// - Source: the Bundesbank's SDMX web service, series `BBEX3.D.<currency>.DEM.AA.AC.000` (daily, against DEM, middle rates), as SDMX-CSV:
///   `https://api.statistiken.bundesbank.de/rest/data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv&startPeriod=YYYY-MM-DD&endPeriod=YYYY-MM-DD`. The answer
///   is semicolon-separated with a byte order mark and CRLF line ends, one row per series and day and a blank line between series:
///   `DATAFLOW;BBK_STD_FREQ;BBK_STD_CURRENCY; BBK_ERX_PARTNER_CURRENCY;…;TIME_PERIOD;OBS_VALUE;…;BBK_UNIT;BBK_UNIT_MULT;BBK_TITLE;…;OBS_STATUS`
///   (`BBK:BBEX3(1.0);D;ATS;DEM;AA;AC;000;1998-12-21;14.214;P1D;3;…;DEM;0;Devisenkurse der Frankfurter Börse / 100 ATS = ... DEM / Österreich;…`).
/// - Quote convention: `OBS_VALUE` Deutsche Mark for the number of units of `BBK_STD_CURRENCY` the series title names (`100 ATS = ... DEM`,
///   `1 000 ITL = ... DEM`, `1 USD = ... DEM`): ``PublishedQuote/Direction/pivotPerUnits`` with that unit. A row must be daily, against DEM, in DEM
///   (`BBK_UNIT`) without a multiplier (`BBK_UNIT_MULT` 0), and its title must name its own currency; a code ISO 4217 does not list rejects the
///   answer.
/// - Skipped: an `OBS_VALUE` of `.` (no fixing that day: weekends and Frankfurt holidays, flagged `K`).
/// - Schedule: none any more. The fixing was set on Frankfurt working days at about 13:00 (Europe/Berlin) until 1998-12-30; the schedule has no
///   weekdays, so no publication is ever due or missed, and the scheduler fetches only at its safety-net interval. A day's figures are that day's
///   fixing.
/// - Ranges: one request per calendar year of the range, cut to 1948-06-21 … 1998-12-30 (``historyStart``, ``lastDay``); none for a range outside it.
///   The newest publication is asked for as the last ten days of the history. With nothing stored, a fetch asks for the whole history.
public struct BBKProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The last fixing in Deutsche Mark.
    public static let lastDay = Day(year: 1998, month: 12, day: 30)!

    /// The columns a row must have.
    static let columns = [
        "BBK_STD_FREQ", "BBK_STD_CURRENCY", "BBK_ERX_PARTNER_CURRENCY", "TIME_PERIOD", "OBS_VALUE", "BBK_UNIT", "BBK_UNIT_MULT",
        "BBK_TITLE",
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [request(from: Self.lastDay.adding(days: -9), through: Self.lastDay)]) { first, last in
            Day.yearSpans(from: max(first, historyStart), through: min(last, Self.lastDay)).map { request(from: $0.first, through: $0.last) }
        }
    }

    func request(from first: Day, through last: Day) -> ProviderRequest {
        let period = "startPeriod=\(first.text(.iso))&endPeriod=\(last.text(.iso))"
        return ProviderRequest(url: "\(baseURL)/rest/data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv&\(period)")
    }

    /// With nothing stored, the whole history; otherwise what is left of it after `stored`, or the newest publication again once all of it is
    /// (nothing new ever comes).
    public func catchUp(after stored: Day?, backfillDays: Int, today: Day) -> FetchWindow {
        guard let stored else { return .range(historyStart, Self.lastDay) }
        return stored < Self.lastDay ? .range(stored.adding(days: 1), Self.lastDay) : .latest
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let (lines, header) = try DelimitedText.header(body, separator: ";")
        let index = try DelimitedText.positions(of: Self.columns, in: header, line: lines[0])
        func field(_ fields: [String], _ column: String) -> String { fields[index[column]!] }
        var quotes: [Day: [PublishedQuote]] = [:]
        for line in lines.dropFirst() where !DelimitedText.isBlank(line) {
            let fields = try DelimitedText.fields(line, separator: ";")
            guard fields.count == header.count else {
                throw .layout("\(fields.count) fields instead of \(header.count) in \(DelimitedText.shown(line))")
            }
            guard field(fields, "BBK_STD_FREQ") == "D", field(fields, "BBK_ERX_PARTNER_CURRENCY") == "DEM", field(fields, "BBK_UNIT") == "DEM",
                field(fields, "BBK_UNIT_MULT") == "0"
            else { throw .layout("a row that is not a daily rate in DEM: \(DelimitedText.shown(line))") }
            let day = try Day(parsing: field(fields, "TIME_PERIOD"), .iso)
            let code = field(fields, "BBK_STD_CURRENCY")
            guard let currency = CurrencyCode(code), currency.name != nil else { throw .invalidCurrencyCode(code, day: day) }
            let unit = try self.unit(title: field(fields, "BBK_TITLE"), of: currency)
            let value = field(fields, "OBS_VALUE")
            guard value != "." else { continue }
            quotes[day, default: []].append(PublishedQuote(currency: currency, value: value, unit: unit, direction: .pivotPerUnits))
        }
        return quotes.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }

    /// The number of units a series title names: `100` in `Devisenkurse der Frankfurter Börse / 100 ATS = ... DEM / Österreich`, `1000` in
    /// `… / 1 000 ITL = ... DEM / …`.
    func unit(title: String, of currency: CurrencyCode) throws(UpstreamDataError) -> Int {
        let suffix = " \(currency) = ... DEM"
        guard let part = title.split(separator: " / ").first(where: { $0.hasSuffix(suffix) }) else {
            throw .layout("the title \(UpstreamDataError.quoted(title)) names no unit of \(currency) in DEM")
        }
        let digits = part.dropLast(suffix.count)
        guard let first = digits.first, first != "0", first != " ", digits.last != " ",
            digits.allSatisfy({ $0 == " " || PublishedText.isDigits(String($0)) }), !digits.contains("  "),
            let unit = Int(digits.filter { $0 != " " }), digits.count <= 13
        else { throw .layout("the title \(UpstreamDataError.quoted(title)) names no unit of \(currency) in DEM") }
        return unit
    }
}
