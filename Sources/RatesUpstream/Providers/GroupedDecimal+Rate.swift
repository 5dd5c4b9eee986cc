import RatesCore

extension GroupedDecimal {
    /// The figure of `currency` on `day` that a source writes as `text` with `decimalMark` and perhaps `groupMark`
    /// (``rateText(_:decimalMark:groupMark:)``); what is not such a figure rejects the answer, naming the currency, the day and the text.
    static func rate(_ text: String, of currency: CurrencyCode, day: Day, decimalMark: Character, groupMark: Character? = nil)
        throws(UpstreamDataError) -> String
    {
        guard let rate = rateText(text, decimalMark: decimalMark, groupMark: groupMark) else {
            throw .invalidRate(currency: currency, day: day, text: text)
        }
        return rate
    }
}
