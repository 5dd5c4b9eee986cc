import RatesCore

/// The quotes of every provider (or of some) over a range of days, read at once, for the merge
/// to compute merged days from: around the days an ingest touches, inside its transaction, or
/// for an answer computed from some providers only (``RatesStore/quotes(_:providers:)``).
public struct QuoteReader: Sendable {
    /// How far around the ingested days quotes are read: the merge's carry-forward limit and
    /// the merged days after the ingested ones that a carried-forward value may reach.
    public static let lookBackDays = 14

    /// The days a reader reads: ``from`` through ``through`` for every provider, and from
    /// ``longLivedFrom`` for the providers whose figures hold longer than the carry-forward limit
    /// (a monthly source's figures hold for their month).
    public struct Span: Hashable, Sendable {
        public var from: Day
        public var through: Day
        /// Providers read from ``longLivedFrom``, sorted.
        public var longLived: [String]
        public var longLivedFrom: Day

        /// `from` through `through`, and for each provider of `validity` whose figures hold longer
        /// than ``QuoteReader/lookBackDays``, from as many days again before `from` as the longest holds.
        ///
        /// - Parameter validity: How many days each long-lived provider's figures hold, by key.
        public init(from: Day, through: Day, validity: [String: Int] = [:]) {
            self.from = from
            self.through = through
            let extra = validity.filter { $0.value > QuoteReader.lookBackDays }
            longLived = extra.keys.sorted()
            longLivedFrom = from.adding(days: -(extra.values.max() ?? 0))
        }

        /// Around the days `first` through `last` that `provider` published: ``QuoteReader/lookBackDays``
        /// before and after (as far after as its figures hold, when longer).
        public static func around(first: Day, last: Day, of provider: String, validity: [String: Int]) -> Span {
            let after = max(QuoteReader.lookBackDays, validity[provider] ?? 0)
            return Span(from: first.adding(days: -QuoteReader.lookBackDays), through: last.adding(days: after), validity: validity)
        }
    }

    /// Quotes by provider, then by day (ascending).
    private let publications: [String: [ProviderPublication]]
    /// Every day some provider published on, ascending.
    public let publicationDays: [Day]

    /// The quotes read, by provider and day, with `batches` applied to them in memory as the store
    /// applies them, in order: a publication replaces its provider's quotes of its day, or, in parts,
    /// its quotes of the currencies it has. The merge of an ingest reads the quotes stored around
    /// the ingested days before it writes, so it never reads back what it has just written.
    init(byProvider: [String: [Day: [PublishedQuote]]], applying batches: [QuoteBatch] = []) {
        var byProvider = byProvider
        for batch in batches {
            for publication in batch.publications {
                guard batch.inParts, let stored = byProvider[batch.provider]?[publication.day] else {
                    byProvider[batch.provider, default: [:]][publication.day] = publication.quotes
                    continue
                }
                let published = Set(publication.quotes.map(\.currency))
                byProvider[batch.provider, default: [:]][publication.day] = stored.filter { !published.contains($0.currency) } + publication.quotes
            }
        }
        publications = byProvider.mapValues { days in
            days.map { ProviderPublication(day: $0.key, quotes: $0.value) }.sorted { $0.day < $1.day }
        }
        publicationDays = Set(publications.values.flatMap { $0.map(\.day) }).sorted()
    }

    /// The providers with quotes in the range read.
    public var providers: [String] { publications.keys.sorted() }

    /// The days `providers` published on in the range read, ascending.
    public func publicationDays(of providers: Set<String>) -> [Day] {
        Set(providers.flatMap { publications[$0]?.map(\.day) ?? [] }).sorted()
    }

    /// `provider`'s publications on or before `day` and no older than `maxAge` days, newest first.
    public func publications(of provider: String, onOrBefore day: Day, maxAge: Int) -> [ProviderPublication] {
        guard let days = publications[provider] else { return [] }
        return days.filter { $0.day <= day && day.dayNumber - $0.day.dayNumber <= maxAge }.reversed()
    }

    /// `provider`'s newest publication on or before `day` and no older than `maxAge` days, if any.
    public func publication(of provider: String, onOrBefore day: Day, maxAge: Int) -> ProviderPublication? {
        guard let days = publications[provider] else { return nil }
        let low = days.partitionPoint { $0.day <= day }
        guard low > 0, day.dayNumber - days[low - 1].day.dayNumber <= maxAge else { return nil }
        return days[low - 1]
    }
}
