import RatesCore

/// One provider's value of one currency in units per 1 EUR, with what it was computed from:
/// a candidate of the merge, and the merged rate when it wins.
public struct PerEuroRate: Hashable, Sendable {
    /// How the published figure became a value per EUR.
    public enum Route: Hashable, Sendable {
        /// The figure is itself the value per EUR, read the right way round and shifted by its unit: a quote
        /// of an EUR-pivot provider (ECB, BDI), or a provider's quote of EUR giving its own pivot per EUR
        /// (the NBP's 4.2304 PLN per 1 EUR is PLN's value).
        case perEuro
        /// Combined with the provider's own quote of EUR of the same day (`euro`).
        case throughEuro(euro: PublishedQuote)
        /// The provider quotes no EUR that day: through a currency Y that both it and the ECB quote
        /// on the provider's day. `via` is the provider's quote of Y (`nil` when ``PerEuroRate/source``
        /// is that quote: the pivot's own value); `ecb` is the ECB's Y per EUR.
        case throughECB(via: PublishedQuote?, ecb: PublishedQuote)
        /// The provider quotes no EUR that day and its pivot has a fixed rate to the euro (a legacy
        /// currency's conversion rate, a peg to the euro): `parity` is that rate.
        case throughFixedRate(parity: PublishedQuote)
        /// The figure through the merged day's value of the provider's pivot, `pivot` units per EUR: a
        /// periodic source's figure carried forward, or a publication with no way to EUR of its own.
        case throughMergedPivot(pivot: ExactDecimal)
        /// The currency's declared peg (``PerEuroRate/source``) times the
        /// anchor's merged value `anchor` (`nil` for a peg to the euro itself).
        case pegged(anchor: ExactDecimal?)
    }

    /// The currency valued.
    public var currency: CurrencyCode
    /// Units of ``currency`` per 1 EUR (``PerEuroRate/significantDigits`` when computed, as published when not).
    public var value: ExactDecimal
    /// The provider's key.
    public var provider: String
    /// The provider's own day for the figure (not the merged day it is used for).
    public var day: Day
    /// The published figure the value comes from: the provider's quote of ``currency``, or for the
    /// provider's own pivot the quote that prices it (its EUR quote, or its quote of the bridge currency).
    public var source: PublishedQuote
    /// How ``source`` became ``value``.
    public var route: Route

    public init(currency: CurrencyCode, value: ExactDecimal, provider: String, day: Day, source: PublishedQuote, route: Route) {
        self.currency = currency
        self.value = value
        self.provider = provider
        self.day = day
        self.source = source
        self.route = route
    }

    /// Significant digits of a computed value per EUR, rounded half away from zero: 18, the most a
    /// rate holds (``RateText/maxSignificantDigits``).
    ///
    /// A value per EUR is an intermediate: cross rates are computed from two of them and rounded to
    /// ``CrossRates/significantDigits`` (8). Carried at 18 digits, its own rounding moves a cross rate
    /// by at most 10⁻¹⁷ of itself, so the served cross rate is the exact quotient of the published
    /// figures rounded once (it could differ only within 10⁻¹⁷ of a rounding boundary); at 10
    /// digits, 6 of the 1,024 cross rates of one NBP table came out one unit off in their eighth digit.
    public static let significantDigits = RateText.maxSignificantDigits
}

extension PerEuroRate: CustomStringConvertible {
    /// `USD 1.173286 per EUR (NBP 2026-03-02: 3.6056 for 1, pivot-per-units)`, for test failures and logs.
    public var description: String {
        "\(currency) \(value) per EUR (\(provider) \(day): \(source.value) for \(source.unit), \(source.direction.rawValue))"
    }
}
