import RatesCore
import RatesStore
import RatesUpstream

extension ProviderQuotes {
    /// The rank every source has earned for each currency on `day` (``SourceStanding``), measured
    /// from the stored quotes of the ``SourceStanding/windowDays`` days up to it, as the merge measures it.
    ///
    /// - Throws: `DatabaseError` when the store cannot be read.
    public func standing(on day: Day) throws -> SourceStanding {
        let span = QuoteReader.Span(from: day.adding(days: -(SourceStanding.windowDays + policy.carryForwardDays)), through: day)
        let reader = try store.quotes(span)
        let providers = Ingestor.MergedProvider.all(reader.providers, policy: policy)
        return Ingestor.standing(through: [day], of: providers, reader: reader, policy: policy)
    }

    /// Why a value of `provider` serves `currency` (``MergePolicy/precedence(of:issues:for:)``).
    public func precedence(of provider: String, for currency: CurrencyCode) -> MergePolicy.Precedence {
        policy.precedence(of: provider, issues: ProviderRegistry.issuedCurrencies[provider] ?? [], for: currency)
    }

    /// Whether `provider`, with `measure` for `currency`, ranks below every source that is not, as the merge ranks it.
    public func demotes(_ provider: String, with measure: SourceStanding.Measure, for currency: CurrencyCode) -> Bool {
        policy.demotes(measure, speaksFor: precedence(of: provider, for: currency) != .rank)
    }
}
