import RatesCore

extension PublishedText {
    /// A published rate written with a decimal point and perhaps thousands commas (`"1,253.60"` is `1253.60`),
    /// as ``GroupedDecimal/rateText(_:decimalMark:groupMark:)`` reads it; anything else rejects the answer.
    static func commaGroupedRate(_ text: String, currency: CurrencyCode, day: Day) throws(UpstreamDataError) -> String {
        try GroupedDecimal.rate(text, of: currency, day: day, decimalMark: ".", groupMark: ",")
    }
}
