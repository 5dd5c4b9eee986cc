import RatesCore

/// Bank Al-Maghrib's transfer rates (cours de virement) of the dirham: about 30 currencies.
///
/// - Source: the bank's API (a subscription key, sent as `Ocp-Apim-Subscription-Key`), one day per request:
///   `https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement?date=2026-03-25T12:30:00`, answered with a JSON array of
///   `{"date":"2026-03-25T12:30:00","libDevise":"NOK","moyen":95.938,"uniteDevise":100}`. The bank sometimes sends a record twice, identically (28 of
///   the 30 currencies of 26 Mar 2026): a repeat is read once, a currency given two different figures on a day rejects the answer. An empty array (a
///   day without rates) is no publication.
/// - Quote convention: `moyen` dirhams, the middle transfer rate, for `uniteDevise` units of the currency (9.3189 MAD per 1 USD, 95.938 MAD per 100
///   NOK, 0.7032 MAD per 10 DZD), read as written in the JSON: ``RatesCore/PublishedQuote/Direction/pivotPerUnits`` with unit `uniteDevise`. `MRO` is
///   skipped: the code was withdrawn in 2018 and its figure (23.569 MAD per 100) is the new ouguiya's (MRU, worth 10 MRO), so it is stored under
///   neither code.
/// - Schedule: Africa/Casablanca, Monday to Friday, usually out by 15:00 local time, dated the day they apply to.
/// - Ranges: one request per weekday of the range, each for the bank's 12:30 fixing; the newest publication is asked for as the weekdays of the last
///   seven days up to today. The history starts on 1999-01-04.
public struct BAMProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The withdrawn code under which the bank quotes the new ouguiya.
    static let mislabelled: Set<String> = ["MRO"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latestDays: 7, today: today(), on: PublicationSchedule.workingDays).map { day in
            ProviderRequest(
                url: "\(baseURL)/cours/Version1/api/CoursVirement?date=\(day.text(.iso))T12:30:00",
                headers: ["Ocp-Apim-Subscription-Key": apiKey, "Accept": "application/json"])
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        var quotes = RepeatedQuotes()
        for (index, record) in try ProviderJSON(answer: body).array("the answer").enumerated() {
            let what = "record \(index + 1)"
            let day = try Self.stampDay(record.string("date", of: what))
            let code = try record.string("libDevise", of: what)
            let unit = try record.field("uniteDevise", of: "\(code) on \(day)").integer("the unit of \(code) on \(day)")
            let value = try record.field("moyen", of: "\(code) on \(day)")
            guard case .number = value else { throw .layout("\"moyen\" of \(code) on \(day) is \(value.kind), not a number") }
            let quote = try PublishedQuote.reading(code: code, value: value, unit: unit, direction: .pivotPerUnits, day: day)
            if !Self.mislabelled.contains(code) { try quotes.add(quote, on: day) }
        }
        return quotes.publications
    }

    /// The day of `2026-03-25T12:30:00`: an ISO day, `T` and a time `HH:MM:SS`.
    static func stampDay(_ text: String) throws(UpstreamDataError) -> Day {
        let time = text.utf8.dropFirst(10).map { $0.isASCIIDigit ? UInt8(ascii: "0") : $0 }
        guard text.utf8.count == 19, time.elementsEqual("T00:00:00".utf8) else { throw .invalidDay(text) }
        return try Day(parsing: text.prefix(10), .iso)
    }
}
