import NIOCore
import RatesCore
import RatesIngest

/// exchangerate.host's keyless API (api.exchangerate.host before 2023) at the root, for its
/// existing clients: `/timeseries`, `/fluctuation` and `/symbols` are built here; `/convert` is
/// ``DataAnswers/convert(_:snapshot:style:)`` and `/latest`, `/{date}` are Frankfurter's root
/// routes, all with exchangerate.host's members (``ExchangerateHostStyle``).
///
/// As on Frankfurter's routes at the root, `symbols` without data on the days asked are left out
/// rather than refused (and the base is not listed in its own rates); an unknown base is a 404.
extension DataAnswers {
    /// `/timeseries?start_date=&end_date=`: every calendar day of the span, as exchangerate.host
    /// listed them, each with the rates of the publication on or before it (a weekend has Friday's);
    /// days before the first publication are left out.
    func exchangerateTimeseries(_ query: QueryParameters, snapshot: RatesSnapshot) throws(Problem) -> ByteBuffer {
        let style = try ExchangerateHostStyle(query, historical: false)
        let (start, end) = try query.exchangerateSpan(today: configuration.today)
        let (base, symbols, amount) = try query.baseSymbolsAmount(defaultBase: snapshot.base)
        let days: [(day: Day, table: CrossRates)] = (start.dayNumber...end.dayNumber).compactMap { number in
            let day = Day(dayNumber: number)
            return snapshot.publication(onOrBefore: day).map { (day, snapshot.crossRates($0)) }
        }
        guard let last = days.last else { throw beforeData(end, parameter: "end_date", snapshot: snapshot) }
        let isAvailable = { (code: CurrencyCode) in days.contains { $0.table.contains(code) } }
        let listed = try listedSymbols(
            symbols, base: base, lenient: true, within: "between \(start) and \(last.day)", snapshot: snapshot, isAvailable: isAvailable)
        return JSONWriter.object { json in
            style.writeMembers(into: &json)
            json.field("timeseries", bool: true)
            json.field("base", string: base.rawValue)
            json.field("start_date", string: start.description)
            json.field("end_date", string: end.description)
            json.field("rates") { json in
                for (day, table) in days where table.contains(base) {
                    json.field(day.description) { json in
                        table.forEachRate(base: base, symbols: listed) { code, rate in
                            json.field(code, number: style.rounded(rate.scaled(by: amount).exact))
                        }
                    }
                }
            }
        }
    }

    /// `/fluctuation?start_date=&end_date=`: each currency's rate on the first and the last day
    /// (the publication on or before each) and its change, as exchangerate.host computed it
    /// (``RatesCore/RateFluctuation``: `change` = start − end, exact; `change_pct` = change / start
    /// as a fraction, rounded half away from zero to 6 decimal places, or to `places`).
    func exchangerateFluctuation(_ query: QueryParameters, snapshot: RatesSnapshot) throws(Problem) -> ByteBuffer {
        let style = try ExchangerateHostStyle(query, historical: false)
        let (start, end) = try query.exchangerateSpan(today: configuration.today)
        let (base, symbols, amount) = try query.baseSymbolsAmount(defaultBase: snapshot.base)
        guard let first = snapshot.publication(onOrBefore: start) else { throw beforeData(start, parameter: "start_date", snapshot: snapshot) }
        guard let last = snapshot.publication(onOrBefore: end) else { throw beforeData(end, parameter: "end_date", snapshot: snapshot) }
        let opening = snapshot.crossRates(first)
        let closing = snapshot.crossRates(last)
        let isAvailable = { (code: CurrencyCode) in opening.contains(code) && closing.contains(code) }
        let listed = try listedSymbols(
            symbols, base: base, lenient: true, within: "on both \(first.day) and \(last.day)", snapshot: snapshot, isAvailable: isAvailable)
        return JSONWriter.object { json in
            style.writeMembers(into: &json)
            json.field("fluctuation", bool: true)
            json.field("start_date", string: start.description)
            json.field("end_date", string: end.description)
            json.field("rates") { json in
                opening.forEachRate(base: base, symbols: listed) { code, startRate in
                    guard let endRate = closing.rate(from: base, to: code),
                          let movement = RateFluctuation(
                            start: startRate.scaled(by: amount).exact, end: endRate.scaled(by: amount).exact, unscaledStart: startRate.exact,
                            unscaledEnd: endRate.exact, percentDigits: style.places ?? RateFluctuation.changePercentDigits)
                    else { return }
                    json.field(code.rawValue) { json in
                        json.field("start_rate", number: style.rounded(movement.start))
                        json.field("end_rate", number: style.rounded(movement.end))
                        json.field("change", number: style.rounded(movement.change).description)
                        json.field("change_pct", number: movement.changePercent.description)
                    }
                }
            }
        }
    }

    /// `/symbols`: each currency with data, `{"description": its name, "code": its code}`.
    func exchangerateSymbols(_ snapshot: RatesSnapshot) -> ByteBuffer {
        return JSONWriter.object { json in
            json.field("success", bool: true)
            json.field("symbols") { json in
                for code in snapshot.currencies.sorted() {
                    json.field(code.rawValue) { json in
                        json.field("description", string: code.name ?? code.rawValue)
                        json.field("code", string: code.rawValue)
                    }
                }
            }
        }
    }

    /// No publication on or before `day`.
    private func beforeData(_ day: Day, parameter: String, snapshot: RatesSnapshot) -> Problem {
        Problem(.dateBeforeData, "No rates on or before \(day): the first publication is \(snapshot.firstDay?.description ?? "not loaded yet").", parameter: parameter)
    }
}
