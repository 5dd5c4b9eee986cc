import RatesCore

/// A currency code, a unit or a rate as a source writes it, in any format (an XML element, a JSON
/// string, a table cell, a PDF line), read strictly: what is not a code, a whole unit or a decimal
/// rejects the answer, naming the currency and the day.
enum PublishedText {
    /// A published unit (`1`, `100`, …): ASCII digits without a sign or a leading zero, at most ten.
    /// Whether it is a power of ten is ``ProviderValidation/validate(_:notAfter:notBefore:)``'s check.
    static func unit(_ text: String, of currency: CurrencyCode, day: Day) throws(UpstreamDataError) -> Int {
        guard (1...10).contains(text.utf8.count), text.utf8.first != UInt8(ascii: "0"), Self.isDigits(text), let unit = Int(text) else {
            throw .layout("unit \(UpstreamDataError.quoted(text)) of \(currency) on \(day) is not a whole number")
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

    static func isDigits(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
