import RatesCore

/// The strict reading of delimited text (CSV, TSV, pipe-separated) that the CSV providers share:
/// UTF-8 only, lines split at LF with a trailing CR dropped, fields split at one separator with
/// RFC 4180 quoting (`"a, b"`, `""` for a quote) inside one line.
///
/// Nothing is guessed: bytes that are not UTF-8 and a quote left open reject the answer.
enum DelimitedText {
    /// The lines of `body`, decoded as UTF-8 (a byte order mark dropped), without their line ends.
    static func lines(_ body: [UInt8], provider: String) throws(UpstreamDataError) -> [Substring] {
        var bytes = body[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .unexpectedLayout(provider: provider, "the body is not UTF-8 text")
        }
        // Split on the scalar LF: as a `Character`, CR LF is one grapheme that is not "\n".
        var lines: [Substring] = []
        var start = text.startIndex
        for index in text.unicodeScalars.indices where text.unicodeScalars[index] == "\n" {
            lines.append(text[start..<index])
            start = text.unicodeScalars.index(after: index)
        }
        lines.append(text[start...])
        return lines.map { line in
            line.unicodeScalars.last == "\r" ? Substring(line.unicodeScalars.dropLast()) : line
        }
    }

    /// The fields of one line split at `separator`; a field that starts with `"` is read up to
    /// its closing quote, `""` inside it standing for one quote.
    static func fields(_ line: Substring, separator: Character, provider: String) throws(UpstreamDataError) -> [String] {
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var fieldStarted = false  // a quote opens a field only as its first character
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            line.formIndex(after: &index)
            if inQuotes {
                if character == "\"" {
                    if index < line.endIndex && line[index] == "\"" {
                        field.append("\"")
                        line.formIndex(after: &index)
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == separator {
                fields.append(field)
                field = ""
                fieldStarted = false
            } else if character == "\"" && !fieldStarted {
                inQuotes = true
                fieldStarted = true
            } else {
                field.append(character)
                fieldStarted = true
            }
        }
        guard !inQuotes else { throw .unexpectedLayout(provider: provider, "a quoted field is not closed in line \(Self.shown(line))") }
        fields.append(field)
        return fields
    }

    /// The first characters of a line, for error messages.
    static func shown(_ line: some StringProtocol) -> String {
        let limit = 60
        return "\"" + (line.count > limit ? String(line.prefix(limit)) + "…" : String(line)) + "\""
    }

    /// Whether a line holds nothing but spaces.
    static func isBlank(_ line: some StringProtocol) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// `YYYY-MM-DD` as a ``RatesCore/Day``, or ``UpstreamDataError/invalidDay(_:)``.
    static func isoDay(_ text: some StringProtocol) throws(UpstreamDataError) -> Day {
        let text = String(text)
        guard text.utf8.count == 10, let day = Day(text) else { throw .invalidDay(text) }
        return day
    }

    /// `21.04.2000` or `02/03/2026` (two-digit day, two-digit month, four-digit year; `separator` between them).
    static func dayMonthYear(_ text: some StringProtocol, separator: Character) throws(UpstreamDataError) -> Day {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 2, parts[1].count == 2, parts[2].count == 4,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let day = Int(parts[0]), let month = Int(parts[1]), let year = Int(parts[2]),
            let result = Day(year: year, month: month, day: day)
        else { throw .invalidDay(String(text)) }
        return result
    }

    /// `03-Jan-2023` or `17 Mar 2026` (day, English month abbreviation, year; `separator` between them).
    static func dayMonthNameYear(_ text: some StringProtocol, separator: Character) throws(UpstreamDataError) -> Day {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count <= 2, parts[2].count == 4,
            let day = Int(parts[0]), let year = Int(parts[2]),
            let month = monthNames.firstIndex(of: String(parts[1])),
            let result = Day(year: year, month: month + 1, day: day)
        else { throw .invalidDay(String(text)) }
        return result
    }

    /// English month abbreviations, January first.
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
