import RatesCore

/// Precious metals served as currencies: ISO 4217's `XAU` (gold), `XAG` (silver), `XPT`
/// (platinum) and `XPD` (palladium), each one troy ounce of the metal.
///
/// Central banks mostly publish them per gram (the Bank of Russia, the National Bank of
/// Moldova, the NBP's gold price); such a price becomes one per troy ounce exactly, multiplied by
/// ``gramsPerTroyOunce``: no rounding, so the published figure is the stored one divided by that
/// constant, digit for digit.
public enum PreciousMetal {
    /// The metals' codes.
    public static let codes: Set<CurrencyCode> = [CurrencyCode("XAU")!, CurrencyCode("XAG")!, CurrencyCode("XPT")!, CurrencyCode("XPD")!]

    /// Grams in one troy ounce, exactly (the international yard and pound of 1959).
    public static let gramsPerTroyOunce: ExactDecimal = "31.1034768"

    /// A price of one gram of `metal` (its text as published, already read) as the price of one
    /// troy ounce, exact.
    ///
    /// - Throws: `UpstreamDataError.invalidRate` when the exact product has more digits than a
    ///   stored figure may (``RateText/maxSignificantDigits``).
    static func perTroyOunce(perGram price: String, of metal: CurrencyCode, day: Day) throws(UpstreamDataError) -> String {
        guard let perGram = ExactDecimal(price), let perOunce = perGram.multiplied(by: gramsPerTroyOunce),
              let text = ProviderValidation.rateText(perOunce.description)
        else { throw .invalidRate(currency: metal, day: day, text: price) }
        return text
    }
}
