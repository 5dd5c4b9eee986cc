import RatesCore

extension Day {
    /// A notation in which a provider writes days, in its answers or in its queries.
    ///
    /// Every adapter reads and writes days through these, so each notation is read one way:
    /// digits are ASCII digits, every part has the width the notation names, and the day must
    /// exist. ``Day/init(_:_:)`` returns `nil` for any other text; ``Day/init(parsing:_:)``
    /// throws ``UpstreamDataError/invalidDay(_:)`` naming the text. Writing (``Day/text(_:)``)
    /// always pads day and month to two digits and the year to four.
    enum ProviderFormat: Hashable, Sendable {
        /// `2026-03-24`.
        case iso
        /// `20260324`.
        case compact
        /// `24.03.2026`, `24/03/2026`; with an empty separator `24032026`. When `padded` is false,
        /// reading also takes a day or month of one digit (`4.3.2026`).
        case dayMonthYear(separator: String, padded: Bool = true)
        /// `03-24-2026`, `03/24/2026`. When `padded` is false, reading also takes a day or month of
        /// one digit (`3/24/2026`).
        case monthDayYear(separator: String, padded: Bool = true)
        /// `03-Jan-2023`, `17 Mar 2026`, `03/Jan/2023`: a day of one or two digits, the English
        /// month abbreviation, a four-digit year.
        case dayMonthNameYear(separator: String)
        /// `March 02, 2026`: the English month name, a two-digit day and a comma, a four-digit year.
        case monthNameDayYear
        /// `2026M03D24`, Statistics Denmark's notation.
        case statbank
        /// `2026-03-24T00:00:00`, also with `Z`, `.000` or `.000Z` after it: a plain day as some APIs
        /// write it, a timestamp at midnight.
        case midnightTimestamp

        /// English month abbreviations, January first.
        static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        /// English month names, January first.
        static let monthNames = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
        ]
    }

    /// The day `text` names in `format`; `nil` for any other text or a day that does not exist.
    init?(_ text: some StringProtocol, _ format: ProviderFormat) {
        let bytes = Array(text.utf8)
        let parts: (year: Int, month: Int, day: Int)?
        switch format {
        case .iso:
            guard let day = Day(text) else { return nil }
            self = day
            return
        case .compact:
            parts = Self.numbers(bytes, separator: "", widths: [4...4, 2...2, 2...2]).map { ($0[0], $0[1], $0[2]) }
        case .dayMonthYear(let separator, let padded):
            let width = padded ? 2...2 : 1...2
            parts = Self.numbers(bytes, separator: separator, widths: [width, width, 4...4]).map { ($0[2], $0[1], $0[0]) }
        case .monthDayYear(let separator, let padded):
            let width = padded ? 2...2 : 1...2
            parts = Self.numbers(bytes, separator: separator, widths: [width, width, 4...4]).map { ($0[2], $0[0], $0[1]) }
        case .dayMonthNameYear(let separator):
            let fields = Self.split(bytes, separator: separator)
            guard let fields, fields.count == 3, let day = Self.number(fields[0], width: 1...2), let year = Self.number(fields[2], width: 4...4),
                let month = ProviderFormat.monthAbbreviations.firstIndex(of: String(decoding: fields[1], as: UTF8.self))
            else { return nil }
            parts = (year, month + 1, day)
        case .monthNameDayYear:
            let fields = Self.split(bytes, separator: " ")
            guard let fields, fields.count == 3, fields[1].last == UInt8(ascii: ","), let day = Self.number(fields[1].dropLast(), width: 2...2),
                let year = Self.number(fields[2], width: 4...4),
                let month = ProviderFormat.monthNames.firstIndex(of: String(decoding: fields[0], as: UTF8.self))
            else { return nil }
            parts = (year, month + 1, day)
        case .statbank:
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "M"), bytes[7] == UInt8(ascii: "D") else { return nil }
            parts = Self.numbers(Array(bytes[0..<4] + bytes[5..<7] + bytes[8..<10]), separator: "", widths: [4...4, 2...2, 2...2]).map { ($0[0], $0[1], $0[2]) }
        case .midnightTimestamp:
            guard bytes.count >= 19, bytes[10] == UInt8(ascii: "T"),
                ["00:00:00", "00:00:00Z", "00:00:00.000Z", "00:00:00.000"].contains(String(decoding: bytes[11...], as: UTF8.self))
            else { return nil }
            guard let day = Day(String(decoding: bytes[..<10], as: UTF8.self)) else { return nil }
            self = day
            return
        }
        guard let parts, let day = Day(year: parts.year, month: parts.month, day: parts.day) else { return nil }
        self = day
    }

    /// The day `text` names in `format`.
    ///
    /// - Throws: ``UpstreamDataError/invalidDay(_:)`` with `text` for any other text or a day that does not exist.
    init(parsing text: some StringProtocol, _ format: ProviderFormat) throws(UpstreamDataError) {
        guard let day = Day(text, format) else { throw .invalidDay(String(text)) }
        self = day
    }

    /// This day written in `format`, for a query.
    func text(_ format: ProviderFormat) -> String {
        let (year, month, day) = parts
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        switch format {
        case .iso: return description
        case .compact: return padded(year, 4) + padded(month, 2) + padded(day, 2)
        case .dayMonthYear(let separator, _): return padded(day, 2) + separator + padded(month, 2) + separator + padded(year, 4)
        case .monthDayYear(let separator, _): return padded(month, 2) + separator + padded(day, 2) + separator + padded(year, 4)
        case .dayMonthNameYear(let separator):
            return padded(day, 2) + separator + ProviderFormat.monthAbbreviations[month - 1] + separator + padded(year, 4)
        case .monthNameDayYear: return ProviderFormat.monthNames[month - 1] + " " + padded(day, 2) + ", " + padded(year, 4)
        case .statbank: return padded(year, 4) + "M" + padded(month, 2) + "D" + padded(day, 2)
        case .midnightTimestamp: return description + "T00:00:00"
        }
    }

    // MARK: - Reading parts

    /// `bytes` split at the one-byte `separator`, empty parts kept; `nil` for a longer separator.
    private static func split(_ bytes: [UInt8], separator: String) -> [ArraySlice<UInt8>]? {
        guard separator.utf8.count == 1, let byte = separator.utf8.first else { return nil }
        return bytes.split(separator: byte, omittingEmptySubsequences: false)
    }

    /// The numbers in `bytes`, one per width, `separator` between them (with an empty separator,
    /// each part is read at its width's upper bound); `nil` unless every part fits its width.
    private static func numbers(_ bytes: [UInt8], separator: String, widths: [ClosedRange<Int>]) -> [Int]? {
        var fields: [ArraySlice<UInt8>] = []
        if separator.isEmpty {
            var start = 0
            for width in widths {
                guard start + width.upperBound <= bytes.count else { return nil }
                fields.append(bytes[start..<start + width.upperBound])
                start += width.upperBound
            }
            guard start == bytes.count else { return nil }
        } else {
            guard let split = split(bytes, separator: separator), split.count == widths.count else { return nil }
            fields = split
        }
        let numbers = zip(fields, widths).compactMap { number($0, width: $1) }
        return numbers.count == widths.count ? numbers : nil
    }

    /// The value of `digits` when they are `width` ASCII digits and nothing else.
    private static func number(_ digits: ArraySlice<UInt8>, width: ClosedRange<Int>) -> Int? {
        guard width.contains(digits.count) else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension Day {
    /// This day's month as `YYYY-MM` (`2026-09`), as an SDMX period or a monthly request names it.
    var yearMonth: String { String(description.prefix(7)) }
}
