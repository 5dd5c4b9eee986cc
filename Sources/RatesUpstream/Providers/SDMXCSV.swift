import RatesCore

/// An SDMX-CSV answer (Norges Bank, Bank of Israel): a header of column names, then one row per
/// observation; the columns a provider reads are found by name.
struct SDMXCSV {
    /// The requested columns of each row, in the order asked for.
    var rows: [[String]] = []

    init(_ body: [UInt8], columns: [String]) throws(UpstreamDataError) {
        let (lines, header) = try DelimitedText.header(body, separator: ",")
        let index = try DelimitedText.positions(of: columns, in: header, line: lines[0])
        let positions = columns.map { index[$0]! }
        for (offset, line) in lines.dropFirst().enumerated() {
            if DelimitedText.isBlank(line) {
                // Only the end of the file may be blank.
                guard lines.dropFirst(offset + 2).allSatisfy(DelimitedText.isBlank) else {
                    throw .layout("a blank line between rows")
                }
                break
            }
            let fields = try DelimitedText.fields(line, separator: ",")
            guard fields.count == header.count else {
                throw .layout("\(fields.count) fields instead of \(header.count) in \(DelimitedText.shown(line))")
            }
            rows.append(positions.map { fields[$0] })
        }
    }

    /// A quote of `base` priced per 10^`unitMultiplier` units.
    func quote(base: String, unitMultiplier: String, value: String, day: Day) throws(UpstreamDataError) -> PublishedQuote {
        guard let code = CurrencyCode(base) else { throw .invalidCurrencyCode(base, day: day) }
        guard unitMultiplier.count == 1, let power = Int(unitMultiplier), (0...9).contains(power) else {
            throw .layout("UNIT_MULT \(DelimitedText.shown(unitMultiplier)) of \(code) on \(day) is not 0…9")
        }
        guard let text = ProviderValidation.rateText(value) else { throw .invalidRate(currency: code, day: day, text: value) }
        var unit = 1
        for _ in 0..<power { unit *= 10 }
        return PublishedQuote(currency: code, value: text, unit: unit, direction: .pivotPerUnits)
    }
}
