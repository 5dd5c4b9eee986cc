import RatesCore

/// Why an upstream payload was rejected. Every case says what was wrong and where.
///
/// Nothing from a rejected payload is stored: the provider sent something we cannot trust,
/// so the previous data stays and the fetch is retried later.
public enum UpstreamDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The XML is not well-formed; the text names the problem and its line, column and byte offset.
    case malformedXML(String)
    /// Well-formed XML, but not the ECB eurofxref layout (an HTML error page, a document without day cubes),
    /// or XML that ``XMLReader`` declines to read (a document type declaration, an encoding it does not read).
    case unexpectedDocument(String)
    /// A provider's answer that does not follow its published layout (a missing field, an unknown
    /// header, a value of the wrong type); the text names what and where. An adapter throws it
    /// without its key (``layout(_:)``): ``RatesProvider/parse(_:of:)`` and ``ProviderClient`` name
    /// the provider (``attributed(to:)``).
    case unexpectedLayout(provider: String?, String)
    /// A CSV line (1-based, the header is line 1) that does not follow the ECB history layout.
    case malformedCSV(line: Int, reason: String)
    /// Text that should be a day but is not `YYYY-MM-DD` or names no real day (`2024-02-30`).
    case invalidDay(String)
    /// A day before the source's first day (1999-01-04 for most: ``RatesProvider/historyStart``) or after the newest day allowed.
    case dayOutOfRange(Day)
    /// The same day appears twice in one payload.
    case duplicateDay(Day)
    /// A currency code that is not three ASCII capital letters.
    case invalidCurrencyCode(String, day: Day)
    /// The same currency appears twice within one day.
    case duplicateCurrency(CurrencyCode, day: Day)
    /// A rate that is not a positive, finite, plain decimal (see ``RatesCore/RateText/isValid(_:)``).
    case invalidRate(currency: CurrencyCode, day: Day, text: String)
    /// A day with no rate at all.
    case emptyDay(Day)
    /// The payload holds no day at all (an empty body, a CSV with only its header).
    case empty
    /// A history file that cannot be read: a damaged zip, no `.csv` member, an unknown file type.
    case unreadableArchive(String)
    /// The payload's newest day is older than the newest day already stored: the provider (or a
    /// cache in front of it) went back in time.
    case olderThanStored(newest: Day, stored: Day)
    /// A rate more than ``ProviderValidation/maxRateMove`` times away from the currency's previous one.
    case implausibleRate(currency: CurrencyCode, day: Day, text: String, previous: String, previousDay: Day)

    public var description: String {
        switch self {
        case .malformedXML(let reason): return "malformed XML: \(reason)"
        case .unexpectedDocument(let reason): return "not an ECB eurofxref document: \(reason)"
        case .unexpectedLayout(let provider, let reason): return "not \(provider ?? "the source")'s published layout: \(reason)"
        case .malformedCSV(let line, let reason): return "malformed CSV at line \(line): \(reason)"
        case .invalidDay(let text): return "invalid day \(Self.quoted(text)): expected a real day as YYYY-MM-DD"
        case .dayOutOfRange(let day): return "day \(day) is out of range (before the source's first day, 1999-01-04 for most, or in the future)"
        case .duplicateDay(let day): return "day \(day) appears more than once"
        case .invalidCurrencyCode(let text, let day): return "invalid currency code \(Self.quoted(text)) on \(day)"
        case .duplicateCurrency(let code, let day): return "currency \(code) appears more than once on \(day)"
        case .invalidRate(let code, let day, let text):
            return "invalid rate \(Self.quoted(text)) for \(code) on \(day): expected a positive plain decimal"
        case .emptyDay(let day): return "day \(day) has no rates"
        case .empty: return "the payload holds no day"
        case .unreadableArchive(let reason): return "unreadable history file: \(reason)"
        case .olderThanStored(let newest, let stored): return "the newest day sent, \(newest), is older than the newest day stored, \(stored)"
        case .implausibleRate(let code, let day, let text, let previous, let previousDay):
            return "implausible rate \(Self.quoted(text)) for \(code) on \(day): more than \(Int(ProviderValidation.maxRateMove))x away from \(previous) on \(previousDay)"
        }
    }

    /// A layout error of an adapter's answer, named for its provider when it leaves the adapter (``attributed(to:)``).
    public static func layout(_ reason: String) -> UpstreamDataError { .unexpectedLayout(provider: nil, reason) }

    /// This error with `key` as the provider of a layout error that names none yet.
    public func attributed(to key: String) -> UpstreamDataError {
        guard case .unexpectedLayout(nil, let reason) = self else { return self }
        return .unexpectedLayout(provider: key, reason)
    }

    /// `text` in quotes, shortened and with control characters escaped, for messages and logs.
    static func quoted(_ text: String) -> String { JSONValue.quoted(text) }
}
