import Foundation
import RatesCore

/// What the XML adapters (CBR, BNR, TCMB, NBK, SBI, MNB, DNB) share: days in the banks' own
/// notations, in queries and in answers, and the strict reading of elements, codes, units and rates.
///
/// Every reader throws on the first thing that is not as published, naming it, so an adapter
/// rejects a whole answer rather than skipping a row.
struct ProviderXMLParsing {
    /// The provider's key, for `UpstreamDataError.unexpectedLayout`.
    let provider: String

    init(_ provider: String) {
        self.provider = provider
    }

    // MARK: - Elements

    /// The text of `element`'s child `name`, which must be there exactly once and hold no elements.
    func text(_ element: XMLReader.Element, _ name: String, in place: @autoclosure () -> String) throws(UpstreamDataError) -> String {
        let matches = element.children(name)
        guard matches.count == 1, let child = matches.first, child.children.isEmpty else {
            throw .unexpectedLayout(provider: provider, "\(place()) has \(matches.count) <\(name)> elements, expected one holding text")
        }
        return child.text
    }

    /// `element`'s attribute `name`, which must be there.
    func attribute(_ element: XMLReader.Element, _ name: String, in place: @autoclosure () -> String) throws(UpstreamDataError) -> String {
        guard let value = element.attribute(name) else { throw .unexpectedLayout(provider: provider, "\(place()) has no \(name) attribute") }
        return value
    }

    /// Checks that `element` holds only child elements named in `names`, and no text but white space.
    func expectOnly(_ names: Set<String>, in element: XMLReader.Element) throws(UpstreamDataError) {
        if let other = element.children.first(where: { !names.contains($0.localName) }) {
            throw .unexpectedLayout(provider: provider, "<\(other.qualifiedName)> inside <\(element.qualifiedName)>")
        }
        guard element.text.allSatisfy(\.isWhitespace) else {
            throw .unexpectedLayout(provider: provider, "text \(UpstreamDataError.quoted(element.text)) inside <\(element.qualifiedName)>")
        }
    }

    // MARK: - Figures

    /// A published unit (`1`, `100`, …): ASCII digits without a sign or a leading zero, at most ten.
    /// Whether it is a power of ten is ``ProviderValidation/validate(_:notAfter:)``'s check.
    func unit(_ text: String, of currency: CurrencyCode, day: Day) throws(UpstreamDataError) -> Int {
        guard (1...10).contains(text.utf8.count), text.utf8.first != UInt8(ascii: "0"), Self.isDigits(text), let unit = Int(text) else {
            throw .unexpectedLayout(provider: provider, "unit \(UpstreamDataError.quoted(text)) of \(currency) on \(day) is not a whole number")
        }
        return unit
    }

    /// A currency code as published: exactly three capital letters.
    static func currency(_ text: String, day: Day) throws(UpstreamDataError) -> CurrencyCode {
        guard let code = CurrencyCode(text) else { throw .invalidCurrencyCode(text, day: day) }
        return code
    }

    /// A published rate as ``RatesCore/RateText`` (decimal comma to point, grouping spaces dropped).
    static func rate(_ text: String, currency: CurrencyCode, day: Day) throws(UpstreamDataError) -> String {
        guard let rate = ProviderValidation.rateText(text) else { throw .invalidRate(currency: currency, day: day, text: text) }
        return rate
    }

    // MARK: - Days

    /// The order of day, month and year in a bank's date notation.
    enum DayOrder {
        /// `25.04.2026`, `15/03/2016`.
        case dayMonthYear
        /// `3/24/2026`.
        case monthDayYear
    }

    /// Reads a day written as three numbers with `separator` between them (`25.04.2026`,
    /// `3/24/2026`): day and month of one or two digits, a year of four; nothing else.
    ///
    /// - Throws: `UpstreamDataError.invalidDay` for any other text or a day that does not exist.
    static func day(_ text: String, _ order: DayOrder, separator: Character) throws(UpstreamDataError) -> Day {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .invalidDay(text) }
        func number(_ part: Substring, digits: ClosedRange<Int>) -> Int? {
            digits.contains(part.utf8.count) && isDigits(part) ? Int(part) : nil
        }
        let (dayPart, monthPart) = order == .dayMonthYear ? (parts[0], parts[1]) : (parts[1], parts[0])
        guard let day = number(dayPart, digits: 1...2), let month = number(monthPart, digits: 1...2),
            let year = number(parts[2], digits: 4...4), let result = Day(year: year, month: month, day: day)
        else { throw .invalidDay(text) }
        return result
    }

    /// A day in ISO notation, `2026-03-24`.
    static func isoDay(_ text: String) throws(UpstreamDataError) -> Day {
        guard let day = Day(text) else { throw .invalidDay(text) }
        return day
    }

    /// `day` with two-digit day and month and a four-digit year in `order`, `separator` between
    /// them (`25/04/2026`, `25.04.2026`), for a query.
    static func text(of day: Day, _ order: DayOrder, separator: String) -> String {
        let (year, month, dayOfMonth) = day.parts
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let (first, second) = order == .dayMonthYear ? (dayOfMonth, month) : (month, dayOfMonth)
        return padded(first, 2) + separator + padded(second, 2) + separator + padded(year, 4)
    }

    /// The days from `first` through `last` whose ISO weekday is in `weekdays`.
    static func days(from first: Day, through last: Day, on weekdays: Set<Int>) -> [Day] {
        guard first <= last else { return [] }
        return (first.dayNumber...last.dayNumber).map(Day.init(dayNumber:)).filter { weekdays.contains($0.isoWeekday) }
    }

    /// Today in a time zone `utcOffset` seconds east of UTC, by the system clock.
    static func today(utcOffset: Int) -> Day {
        Day(containing: Date(), utcOffset: utcOffset)
    }

    static func isDigits(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
