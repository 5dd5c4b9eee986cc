import RatesCore

/// The ECB's history CSV (`eurofxref-hist.csv`, the member of `eurofxref-hist.zip`):
///
/// ```text
/// Date,USD,JPY,BGN,…,ZAR,
/// 2026-10-30,1.1172,175.68,N/A,…,18.6455,
/// ```
///
/// One header line naming the currencies, then one line per day, newest first. Every line
/// ends with a comma, so the last column has no name and no values. `N/A` marks a currency
/// not published that day (before it was added, after it was withdrawn).
public enum ECBCSV {
    /// Parses the ECB's history CSV layout (eurofxref-hist.csv).
    ///
    /// The header must start with `Date` and name each other column with a currency code; an
    /// empty name is allowed for the last column only, whose cells must then be empty. Lines
    /// end in LF or CRLF; blank lines are allowed at the end only. Every line must have as
    /// many fields as the header. A cell that is `N/A` or empty means the currency has no rate
    /// that day; any other cell must pass ``RatesCore/RateText/isValid(_:)`` and is kept
    /// as the exact published text. Fields are not quoted or padded in this layout, and are
    /// read as they are.
    ///
    /// Day ranges are not checked here: run ``ProviderValidation/validate(_:notAfter:notBefore:)`` on the result.
    ///
    /// - Returns: The days in ascending order, with EUR as base.
    /// - Throws: `UpstreamDataError`: `.empty` for an empty payload or one with no day line,
    ///   `.malformedCSV` for a bad header, a wrong field count or a blank line inside,
    ///   `.invalidDay`, `.duplicateDay`, `.emptyDay` and `.invalidRate` for bad values.
    public static func parse(_ data: some Collection<UInt8>) throws(UpstreamDataError) -> RatesBatch {
        func parsed(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<RatesBatch, UpstreamDataError> {
            Result { () throws(UpstreamDataError) in try parse(buffer: buffer) }
        }
        return try (data.withContiguousStorageIfAvailable(parsed) ?? Array(data).withUnsafeBufferPointer(parsed)).get()
    }

    static func parse(buffer bytes: UnsafeBufferPointer<UInt8>) throws(UpstreamDataError) -> RatesBatch {
        let comma = UInt8(ascii: ",")
        var lines = Lines(bytes: bytes)
        guard bytes.contains(where: { !$0.isXMLWhitespace }), let header = lines.next() else { throw .empty }

        // Header: Date, then one currency per column; the last column may be unnamed.
        let names = fields(of: header.range, in: bytes, separator: comma)
        func name(_ index: Int) -> String { text(names[index], in: bytes) }
        guard name(0) == "Date" else {
            throw .malformedCSV(line: 1, reason: "the first column is \(UpstreamDataError.quoted(name(0))), expected Date")
        }
        var columns: [CurrencyCode?] = []
        var named: Set<CurrencyCode> = []
        for index in 1..<names.count {
            if names[index].isEmpty && index == names.count - 1 {
                columns.append(nil)
                continue
            }
            guard let code = CurrencyCode(name(index)) else {
                throw .malformedCSV(line: 1, reason: "column \(index + 1) is \(UpstreamDataError.quoted(name(index))), not a currency code")
            }
            guard named.insert(code).inserted else { throw .malformedCSV(line: 1, reason: "currency \(code) has two columns") }
            columns.append(code)
        }
        guard !named.isEmpty else { throw .malformedCSV(line: 1, reason: "no currency column") }

        // One line per day.
        var days: [DailyRates] = []
        var seenDays: Set<Day> = []
        var blankLine: Int?
        while let line = lines.next() {
            if line.range.isEmpty {
                blankLine = blankLine ?? line.number
                continue
            }
            if let blankLine { throw .malformedCSV(line: blankLine, reason: "blank line before the last day") }
            let cells = fields(of: line.range, in: bytes, separator: comma)
            guard cells.count == names.count else {
                throw .malformedCSV(line: line.number, reason: "\(cells.count) fields where the header has \(names.count)")
            }
            let dayText = text(cells[0], in: bytes)
            guard let day = Day(dayText) else { throw .invalidDay(dayText) }
            guard seenDays.insert(day).inserted else { throw .duplicateDay(day) }
            var rates: [CurrencyCode: String] = Dictionary(minimumCapacity: columns.count)
            for (column, currency) in columns.enumerated() {
                let cell = cells[column + 1]
                guard let currency else {
                    guard cell.isEmpty else {
                        throw .malformedCSV(line: line.number, reason: "a value in the last column, which has no name")
                    }
                    continue
                }
                if cell.isEmpty || isNotAvailable(cell, in: bytes) { continue }
                let rate = text(cell, in: bytes)
                guard RateText.isValid(rate) else { throw .invalidRate(currency: currency, day: day, text: rate) }
                rates[currency] = rate
            }
            guard !rates.isEmpty else { throw .emptyDay(day) }
            days.append(DailyRates(day: day, rates: rates))
        }
        guard !days.isEmpty else { throw .empty }
        return RatesBatch(base: .euro, days: days)
    }

    // MARK: - Lines and fields

    /// The lines of the payload, without their LF or CRLF; a UTF-8 byte order mark is skipped.
    struct Lines {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var number = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        }

        mutating func next() -> (range: Range<Int>, number: Int)? {
            guard position < bytes.count else { return nil }
            let start = position
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            position = end + 1
            number += 1
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            return (start..<end, number)
        }
    }

    static func fields(of line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, separator: UInt8) -> [Range<Int>] {
        var fields: [Range<Int>] = []
        fields.reserveCapacity(48)
        var start = line.lowerBound
        for index in line where bytes[index] == separator {
            fields.append(start..<index)
            start = index + 1
        }
        fields.append(start..<line.upperBound)
        return fields
    }

    static func isNotAvailable(_ cell: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        cell.count == 3 && bytes[cell.lowerBound] == UInt8(ascii: "N") && bytes[cell.lowerBound + 1] == UInt8(ascii: "/")
            && bytes[cell.lowerBound + 2] == UInt8(ascii: "A")
    }

    static func text(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
