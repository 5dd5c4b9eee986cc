import RatesCore

extension ProviderDay {
    /// Every currency this publication values, in units per 1 EUR, computed from this
    /// publication alone (and, for a provider that quotes no EUR that day, one figure of the ECB's).
    ///
    /// - An EUR-pivot provider (ECB, BDI): each figure read the right way round and shifted by its
    ///   unit; a figure published as units per 1 EUR is kept exactly, digits included.
    /// - Any other pivot X, through the provider's own quote of EUR of the same day:
    ///   C per EUR = (C per X) × (X per EUR), computed as one exact product or one quotient of the two
    ///   published figures, rounded once to ``PerEuroRate/significantDigits``. X itself gets
    ///   X per EUR: the NBP's value of PLN is its EUR mid.
    /// - No EUR quote that day, and a pivot with a fixed rate to the euro (the Deutsche Mark's
    ///   1.95583, a peg to the euro such as the CFA franc's): through that rate, on any day — before
    ///   1999 too, when it expresses the figures in the euro of their own currency's conversion rate.
    /// - No EUR quote that day otherwise, or a provider whose EUR quote is not to be used
    ///   (``bridgesThroughECB``): through a currency Y quoted both here and in `ecb` (USD if both
    ///   quote it, else the first such code alphabetically): X per EUR = (X per Y) × (Y per EUR of the
    ///   ECB), multiplied into the same single rounding.
    /// - Nothing that day leads to EUR (no EUR quote, no shared currency with the ECB): nothing.
    ///
    /// EUR itself, a quote of the pivot, and a figure that is zero or whose unit is not a power of
    /// ten are left out.
    ///
    /// - Parameter ecb: The ECB's publication of this publication's own day, for the bridge; any
    ///   other day is ignored (the bridge never mixes days).
    public func perEuroRates(ecb: ProviderDay? = nil) -> [PerEuroRate] {
        let digits = PerEuroRate.significantDigits
        let others = quotes.filter { $0.currency != .euro && $0.currency != pivot }
        func rate(_ currency: CurrencyCode, _ ratio: PerEuroRatio?, source: PublishedQuote, route: PerEuroRate.Route) -> PerEuroRate? {
            guard let value = ratio?.evaluated(significantDigits: digits) else { return nil }
            return PerEuroRate(currency: currency, value: value, provider: provider, day: day, source: source, route: route)
        }

        if pivot == .euro {
            return others.compactMap { quote in rate(quote.currency, PerEuroRatio(quote), source: quote, route: .perEuro) }
        }

        // X per EUR, and how: through this provider's EUR quote, or the ECB bridge.
        let pivotPerEuro: PerEuroRatio
        let pivotRate: PerEuroRate?
        let route: PerEuroRate.Route
        if !bridgesThroughECB, let euro = quote(of: .euro) {
            guard let euroPerPivot = PerEuroRatio(euro) else { return [] }
            pivotPerEuro = euroPerPivot.inverse
            pivotRate = rate(pivot, pivotPerEuro, source: euro, route: .perEuro)
            route = .throughEuro(euro: euro)
        } else if let parity = FixedParity.perEuro(pivot), let pivotPerEuroRatio = PerEuroRatio(parity.quote) {
            pivotPerEuro = pivotPerEuroRatio
            pivotRate = rate(pivot, pivotPerEuro, source: parity.quote, route: .throughFixedRate(parity: parity.quote))
            route = .throughFixedRate(parity: parity.quote)
        } else if let ecb, ecb.day == day, case let (via, ecbQuote)? = bridge(to: ecb),
            let bridgePerPivot = PerEuroRatio(via), let bridgePerEuro = PerEuroRatio(ecbQuote)
        {
            pivotPerEuro = bridgePerPivot.inverse * bridgePerEuro
            pivotRate = rate(pivot, pivotPerEuro, source: via, route: .throughECB(via: nil, ecb: ecbQuote))
            route = .throughECB(via: via, ecb: ecbQuote)
        } else {
            return []
        }
        let rates = others.compactMap { quote in
            rate(quote.currency, PerEuroRatio(quote).map { $0 * pivotPerEuro }, source: quote, route: route)
        }
        return (pivotRate.map { [$0] } ?? []) + rates
    }

    /// Whether this publication's figures, counted for the merged day `day`, go per EUR through that
    /// day's merged value of their pivot rather than through this publication's own day: a periodic
    /// source's figures (valid longer than the carry-forward limit) carried past their own day stay in
    /// their pivot until they are used, so a currency at par with the dollar stays at par a month later.
    func goesThroughMergedPivot(on day: Day, policy: MergePolicy) -> Bool {
        pivot != .euro && self.day < day && (validityDays ?? policy.carryForwardDays) > policy.carryForwardDays
    }

    /// Every currency this publication values but its pivot and EUR, in units per 1 EUR, through
    /// `pivotPerEuro`, the merged day's value of the pivot: C per EUR = (C per X) × (X per EUR),
    /// rounded once to ``PerEuroRate/significantDigits``.
    public func perEuroRates(throughMergedPivot pivotPerEuro: ExactDecimal) -> [PerEuroRate] {
        let pivotRatio = PerEuroRatio(numerators: [pivotPerEuro], denominators: [], exponent: 0)
        return quotes.compactMap { quote in
            guard quote.currency != .euro, quote.currency != pivot,
                let value = PerEuroRatio(quote).map({ $0 * pivotRatio })?.evaluated(significantDigits: PerEuroRate.significantDigits)
            else { return nil }
            return PerEuroRate(
                currency: quote.currency, value: value, provider: provider, day: day, source: quote, route: .throughMergedPivot(pivot: pivotPerEuro))
        }
    }

    /// The bridge currency Y for a day without an EUR quote: this provider's quote of Y and the
    /// ECB's, USD when both have it, else the first code both have in alphabetical order.
    func bridge(to ecb: ProviderDay) -> (PublishedQuote, PublishedQuote)? {
        let ecbQuotes = Dictionary(ecb.quotes.map { ($0.currency, $0) }, uniquingKeysWith: { first, _ in first })
        let shared = quotes.filter { $0.currency != .euro && $0.currency != pivot && ecbQuotes[$0.currency] != nil }
        guard let chosen = shared.first(where: { $0.currency == .usDollar }) ?? shared.min(by: { $0.currency < $1.currency }) else { return nil }
        return (chosen, ecbQuotes[chosen.currency]!)
    }
}
