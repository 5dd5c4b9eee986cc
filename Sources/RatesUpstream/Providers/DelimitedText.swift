import RatesCore

/// The strict reading of delimited text (CSV, TSV, pipe-separated) that the CSV providers share:
/// UTF-8 only, lines split at LF with a trailing CR dropped, fields split at one separator with
/// RFC 4180 quoting (`"a, b"`, `""` for a quote) inside one line.
///
/// Nothing is guessed: bytes that are not UTF-8 and a quote left open reject the answer.
enum DelimitedText {
    /// The lines of `body`, decoded as UTF-8 (a byte order mark dropped), without their line ends.
    static func lines(_ body: [UInt8]) throws(UpstreamDataError) -> [Substring] {
        var bytes = body[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .layout("the body is not UTF-8 text")
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

    /// The lines of `body` (``lines(_:)``) and the fields of the first, its header; ``UpstreamDataError/empty`` when that is blank.
    static func header(_ body: [UInt8], separator: Character) throws(UpstreamDataError) -> (lines: [Substring], fields: [String]) {
        let lines = try lines(body)
        guard let first = lines.first, !isBlank(first) else { throw .empty }
        return (lines, try fields(first, separator: separator))
    }

    /// Where each of `columns` is in `header`, the fields of the header line `line`; a layout error names the first it lacks.
    static func positions(of columns: [String], in header: [String], line: Substring) throws(UpstreamDataError) -> [String: Int] {
        var positions: [String: Int] = [:]
        for column in columns {
            guard let position = header.firstIndex(of: column) else {
                throw .layout("the header has no \(column): \(shown(line))")
            }
            positions[column] = position
        }
        return positions
    }

    /// The fields of one line split at `separator`; a field that starts with `"` is read up to
    /// its closing quote, `""` inside it standing for one quote.
    static func fields(_ line: Substring, separator: Character) throws(UpstreamDataError) -> [String] {
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
        guard !inQuotes else { throw .layout("a quoted field is not closed in line \(Self.shown(line))") }
        fields.append(field)
        return fields
    }

    /// The rows after the header line (`lines[0]`), each with its line (for error messages) and
    /// its fields split at `separator`, exactly `count` of them. Blank lines may only end the text:
    /// a row after one rejects the answer.
    static func rows(
        after lines: [Substring], separator: Character, count: Int
    ) throws(UpstreamDataError) -> [(line: Substring, fields: [String])] {
        var rows: [(line: Substring, fields: [String])] = []
        var ended = false
        for line in lines.dropFirst() {
            if isBlank(line) {
                ended = true
                continue
            }
            guard !ended else { throw .layout("a row after a blank line: \(shown(line))") }
            let fields = try fields(line, separator: separator)
            guard fields.count == count else {
                throw .layout("\(fields.count) fields instead of \(count) in \(shown(line))")
            }
            rows.append((line, fields))
        }
        return rows
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
}
