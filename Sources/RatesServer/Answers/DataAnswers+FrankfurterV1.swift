import Foundation
import NIOCore
import RatesCore
import RatesIngest

/// Frankfurter's v1 API, for its existing clients: `/v1/{dates}` beside ours and, as its old host
/// served it, `/latest`, `/currencies` and `/{dates}` at the root. `/currencies` is ours; `/latest`
/// and one date are ours in Frankfurter's reading of `symbols` (``frankfurterSymbols(_:base:isAvailable:)``);
/// a range (``FrankfurterDates``) is built here, in Frankfurter's shape.
extension DataAnswers {
    /// Whether a path segment is written as Frankfurter's dates are (it begins with a digit), so
    /// that its routes, not ours, answer it (and in their shape, errors included).
    static func isFrankfurterDates(_ segment: Substring) -> Bool {
        segment.utf8.first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
    }

    /// Frankfurter's `/v1/{start}..{end}`: its shape (`start_date`, `end_date`), our values. A range
    /// that starts on a day without a publication starts at the nearest earlier one, as Frankfurter's does.
    func frankfurterSeries(_ query: QueryParameters, from start: Day, through end: Day, snapshot: RatesSnapshot) throws(Problem) -> SegmentedBody {
        let (base, symbols, amount) = try query.baseSymbolsAmount(defaultBase: snapshot.base)
        guard start <= end else { throw Problem(.invalidRange, "The range starts on \(start), after its end \(end).", parameter: "dates") }
        let first = snapshot.publication(onOrBefore: start)?.day ?? start
        return try seriesBody(
            from: first, through: end, base: base, symbols: symbols, amount: amount, snapshot: snapshot, bounds: ("start_date", "end_date"),
            lenient: true)
    }

    /// The symbols as Frankfurter's routes read them: those with data (others are left out, not
    /// refused), never the base itself; `not found` when none is left. `nil` (every currency) stays `nil`.
    static func frankfurterSymbols(
        _ symbols: [CurrencyCode]?, base: CurrencyCode, isAvailable: (CurrencyCode) -> Bool
    ) throws(Problem) -> [CurrencyCode]? {
        guard let symbols else { return nil }
        let kept = symbols.filter { $0 != base && isAvailable($0) }
        guard !kept.isEmpty else { throw Problem(.unknownCurrency, "None of \(symbols.map(\.rawValue).joined(separator: ",")) has rates in \(base).", parameter: "symbols") }
        return kept
    }
}

/// Frankfurter's date segment: one date (`2025-06-13`), a range (`2025-01-02..2025-01-31`), or a
/// range through today (`2025-01-02..`).
enum FrankfurterDates: Equatable {
    case day(Day)
    case range(Day, Day)

    /// - Throws: A problem naming the `dates` parameter when `text` is none of the three.
    init(_ text: Substring, today: Day) throws(Problem) {
        guard let separator = text.range(of: "..") else {
            self = .day(try QueryParameters.day(text, parameter: "dates"))
            return
        }
        let start = try QueryParameters.day(text[..<separator.lowerBound], parameter: "dates")
        let endText = text[separator.upperBound...]
        self = .range(start, endText.isEmpty ? today : min(try QueryParameters.day(endText, parameter: "dates"), today))
    }
}
