import RatesCore

/// Currencies that publishers name the same (or keep in one series) across a redenomination or a
/// changeover: the code a figure is of depends on its day. Declared once for every adapter that meets
/// such a name: the IMF's `Venezuelan bolivar`, the Bank of Jamaica's `VENEZUELAN BOLIVAR`, the Central
/// Bank of Iceland's bolívar and euro series, the South African Reserve Bank's kwacha series, the
/// Riksbank's euro and rouble series.
enum Redenomination {
    /// By today's code, the codes it replaced, oldest first, each with the first day of the code after it
    /// (ISO 4217's changeovers).
    static let predecessors: [String: [(code: String, until: Day)]] = [
        "VES": [("VEB", Day(year: 2008, month: 1, day: 1)!), ("VEF", Day(year: 2018, month: 8, day: 20)!)],
        // The ECU became the euro at par; the rouble was redenominated 1000 to 1.
        "EUR": [("XEU", Day(year: 1999, month: 1, day: 1)!)],
        "RUB": [("RUR", Day(year: 1998, month: 1, day: 1)!)],
        "MZN": [("MZM", Day(year: 2006, month: 7, day: 1)!)],
        "RON": [("ROL", Day(year: 2005, month: 7, day: 1)!)],
        "ZMW": [("ZMK", Day(year: 2013, month: 1, day: 1)!)],
    ]

    /// The code a figure of `current` (today's code) dated `day` is of: the code `current` replaced, for
    /// a day before it; `current` itself otherwise.
    static func code(_ current: String, on day: Day) -> String {
        predecessors[current]?.first { day < $0.until }?.code ?? current
    }
}
