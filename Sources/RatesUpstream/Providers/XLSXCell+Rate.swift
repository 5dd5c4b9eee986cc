import RatesCore

extension XLSXCell {
    /// The figure of `currency` on `day` this cell holds: its number as decimal text (``decimalText``), read with
    /// ``PublishedText/rate(_:currency:day:)``. A cell that holds no number (text, an error value) rejects the answer,
    /// naming what it holds.
    func rate(of currency: CurrencyCode, day: Day) throws(UpstreamDataError) -> String {
        guard let decimal = decimalText else { throw .invalidRate(currency: currency, day: day, text: text ?? "\(value)") }
        return try PublishedText.rate(decimal, currency: currency, day: day)
    }
}
