import RatesCore

/// The parameters only exchangerate.host's clients send: `places`, `source`, `start_date`, `end_date`.
extension QueryParameters {
    /// The most decimal places `places` takes.
    static let maxPlaces = 18

    /// `places=N`: round values to N decimal places (0…``maxPlaces``); `nil` when absent.
    func exchangerateHostPlaces() throws(Problem) -> Int? {
        try value("places", mustBe: "a whole number of decimal places from 0 to \(Self.maxPlaces), such as 2") { text in
            // Plain digits without a sign or leading zero, as the contract's pattern says.
            guard text.utf8.count <= 2, let places = Int(text), (0...Self.maxPlaces).contains(places), String(places) == text else { return nil }
            return places
        }
    }

    /// `source=`: exchangerate.host chose among its feeds with it (`ecb`, `crypto`, …). `ecb` (any
    /// letter case) is accepted and changes nothing: the values of the ECB's currencies are the
    /// ECB's. Any other feed is refused rather than answered with other data.
    func checkExchangerateHostSource() throws(Problem) {
        guard let text = try single("source"), text.lowercased() != "ecb" else { return }
        throw .invalid(
            "source",
            "'source' \(text.prefix(20)) is not served: this server answers central-bank reference rates (source=ecb, or leave it out); use providers= to choose among them.")
    }

    /// The first and last calendar days of exchangerate.host's `/timeseries` and `/fluctuation`:
    /// `start_date` (required) and `end_date` (today when absent; a date after today is today),
    /// at most ``maxExchangerateHostDays`` days apart, as exchangerate.host allowed.
    func exchangerateSpan(today: Day) throws(Problem) -> (start: Day, end: Day) {
        guard let start = try day("start_date") else {
            throw .invalid("start_date", "'start_date' is required: the first date, YYYY-MM-DD.")
        }
        let end = min(try day("end_date") ?? today, today)
        guard start <= today else { throw Problem.dateInFuture("start_date", start, today: today) }
        guard start <= end else { throw Problem(.invalidRange, "'start_date' \(start) is after 'end_date' \(end).", parameter: "start_date") }
        guard end.dayNumber - start.dayNumber < Self.maxExchangerateHostDays else {
            throw Problem(
                .invalidRange, "From 'start_date' \(start) to 'end_date' \(end) is more than \(Self.maxExchangerateHostDays) days; ask for at most that many.",
                parameter: "end_date")
        }
        return (start, end)
    }

    /// The longest span `/timeseries` and `/fluctuation` answer, in days, both ends included (exchangerate.host's limit).
    static let maxExchangerateHostDays = 366
}
