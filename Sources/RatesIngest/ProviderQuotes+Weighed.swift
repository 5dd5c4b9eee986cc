import RatesCore
import RatesStore
import RatesUpstream

extension ProviderQuotes {
    /// The merge of each of `days` recomputed from the providers' quotes, with every value it weighed
    /// (``MergedDay/weighed``) and the ones the consensus check left out (``MergedDay/exclusions``):
    /// what Frankfurter v2's `expand=providers` shows of a record. Pegs are not among them: a peg is
    /// a declaration, not a provider's figure.
    ///
    /// - Parameter providers: The providers to weigh (`providers=`); `nil` for every one. The ECB's
    ///   quotes are read in any case, to bridge providers that quote no EUR, as the merge does.
    /// - Throws: `DatabaseError` when the store cannot be read.
    public func weighedDays(_ days: Set<Day>, of providers: Set<String>? = nil) throws -> [Day: MergedDay] {
        guard let first = days.min(), let last = days.max() else { return [:] }
        let keys = providers ?? Set(ProviderRegistry.keys)
        let span = QuoteReader.Span(from: first.adding(days: -policy.carryForwardDays), through: last, validity: ProviderRegistry.validityDays)
        let reader = try store.quotes(span, providers: keys.union([ProviderKey.ecb]))
        var policy = policy
        policy.pegs = []
        let weighed = Ingestor.MergedProvider.all(keys.sorted(), policy: policy)
        return Dictionary(uniqueKeysWithValues: days.map { ($0, Ingestor.merge($0, of: weighed, reader: reader, policy: policy)) })
    }
}
