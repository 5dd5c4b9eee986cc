import RatesCore

extension ProviderRequest {
    /// The currency this request asks for, its ``subject``, for a source asked one currency at a time whose answer
    /// does not name it: one of `currencies`, or a layout error saying the request names `none` (`"no PTAX currency"`)
    /// and what it names instead.
    func subjectCurrency(among currencies: [String], none: String) throws(UpstreamDataError) -> CurrencyCode {
        guard let subject, currencies.contains(subject), let currency = CurrencyCode(subject) else {
            throw .layout("the request names \(none): \(subject ?? "none")")
        }
        return currency
    }
}
