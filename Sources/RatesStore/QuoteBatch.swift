import RatesCore

/// One provider's publications for ``RatesStore/ingest(_:validity:merge:)``, stored as published
/// and recorded as `run`.
public struct QuoteBatch: Sendable {
    /// The provider's key.
    public var provider: String
    /// Its publications, each a day's quotes.
    public var publications: [ProviderPublication]
    /// Whether a publication adds to its day's quotes (a day published in parts) instead of replacing them.
    public var inParts: Bool
    /// The record of this batch's ingest.
    public var run: FetchRun

    public init(provider: String, publications: [ProviderPublication], inParts: Bool = false, run: FetchRun) {
        self.provider = provider
        self.publications = publications
        self.inParts = inParts
        self.run = run
    }

    /// The span of quotes a merge of `batches` reads: around each batch's days (``QuoteReader/Span/around(first:last:of:validity:)``), joined.
    static func span(of batches: [QuoteBatch], validity: [String: Int]) -> QuoteReader.Span? {
        let spans = batches.compactMap { batch -> QuoteReader.Span? in
            let days = batch.publications.map(\.day)
            guard let first = days.min(), let last = days.max() else { return nil }
            return .around(first: first, last: last, of: batch.provider, validity: validity)
        }
        guard let from = spans.map(\.from).min(), let through = spans.map(\.through).max() else { return nil }
        return QuoteReader.Span(from: from, through: through, validity: validity)
    }

    /// `runs`, one per batch in order, the last the one the merged changes were applied with, as they
    /// are stored: the others share its outcome and count, each with its own batch's newest day.
    static func sharingOutcome(_ runs: [FetchRun], of batches: [QuoteBatch]) -> [FetchRun] {
        guard let applied = runs.last else { return runs }
        return zip(runs, batches).enumerated().map { index, pair in
            guard index < runs.count - 1 else { return pair.0 }
            var run = pair.0
            run.outcome = applied.outcome
            run.rowsChanged = applied.rowsChanged
            run.latestDay = run.latestDay ?? pair.1.publications.map(\.day).max()?.description
            return run
        }
    }
}
