import Dispatch
import RatesCore
import RatesStore
import RatesUpstream
import Synchronization

extension Ingestor {
    /// Validates a provider's publications, stores them as published and the merged days they
    /// touch, in one transaction, and applies what changed to the in-memory dataset: ``ingest(_:notAfter:)`` of one provider.
    ///
    /// - Parameters:
    ///   - provider: The provider's key and pivot.
    ///   - run: The record of this ingest; stored with the data, with its outcome and count filled in.
    ///   - notAfter: The newest day a valid publication may hold (tomorrow, to allow for time zones).
    /// - Returns: The recorded run: `.updated` with the merged rows changed, or `.unchanged`.
    /// - Throws: `UpstreamDataError` when a publication is invalid (nothing is stored), `DatabaseError` when the write fails.
    @discardableResult
    public func ingest(
        _ publications: [ProviderPublication], of provider: (key: String, pivot: CurrencyCode), run: FetchRun, notAfter: Day
    ) throws -> FetchRun {
        try ingest([QuoteBatch(provider: provider.key, publications: publications, run: run)], notAfter: notAfter)[0]
    }

    /// Validates providers' publications, stores them as published and the merged days they
    /// touch, in one transaction, and applies what changed to the in-memory dataset. Each merged
    /// day is recomputed once, however many of the batches touch it: an archive of many
    /// providers' histories costs one merge of its days, not one per provider.
    ///
    /// The merged days recomputed are every day some provider published from the first day
    /// of a batch's publications through ``MergePolicy/carryForwardDays`` after its last (as long as
    /// the provider's figures hold, for a monthly or quarterly one): a value carried forward from
    /// these publications may reach them.
    ///
    /// - Parameters:
    ///   - batches: Each provider's publications and the record of its ingest (stored with the
    ///     data, with the outcome and count filled in); whether a batch is in parts comes from the registry.
    ///   - notAfter: The newest day a valid publication may hold (tomorrow, to allow for time zones).
    /// - Returns: The recorded runs, in the batches' order: `.updated` with the merged rows changed, or `.unchanged`.
    /// - Throws: `UpstreamDataError` when a publication is invalid (nothing is stored), `DatabaseError` when the write fails.
    @discardableResult
    public func ingest(_ batches: [QuoteBatch], notAfter: Day) throws -> [FetchRun] {
        try exclusively {
            let policy = mergePolicy
            let valid = try Self.validated(batches, notAfter: notAfter)
            let recomputed = valid.compactMap { batch -> ClosedRange<Day>? in
                guard let first = batch.publications.first?.day, let last = batch.publications.last?.day else { return nil }
                return first...last.adding(days: policy.validity(of: batch.provider))
            }
            let exclusions = Mutex<[ConsensusExclusion]>([])
            let recorded = try store.ingest(valid, validity: ProviderRegistry.validityDays) { reader, runs in
                let found = Self.mergedDays(recomputed, reader: reader, policy: policy, into: runs)
                exclusions.withLock { $0 = found }
            }
            record(exclusions.withLock { $0 }, recomputed: recomputed)
            if let updated = recorded.first(where: { $0.outcome == .updated }) { state.recordDataOrigin(updated.source) }
            if followsIngests { try applyLoggedChanges() }
            return recorded
        }
    }

    /// `batches` each validated as its provider's figures, side by side (an archive holds
    /// hundreds of thousands), with whether it is published in parts taken from the registry.
    ///
    /// - Throws: The first invalid batch's `UpstreamDataError`, in the batches' order.
    static func validated(_ batches: [QuoteBatch], notAfter: Day) throws -> [QuoteBatch] {
        let results = Mutex([Result<QuoteBatch, any Error>?](repeating: nil, count: batches.count))
        DispatchQueue.concurrentPerform(iterations: batches.count) { index in
            let result = Result { () throws -> QuoteBatch in
                let entry = ProviderRegistry.entry(batches[index].provider)
                var valid = batches[index]
                valid.publications = try ProviderValidation.validate(
                    valid.publications, notAfter: notAfter, notBefore: entry?.identity.historyStart ?? ProviderValidation.firstDay)
                valid.inParts = entry?.publishesInParts ?? false
                return valid
            }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }

    /// The merged days in `ranges`, recomputed from every provider's quotes, each with the rank every
    /// source has earned for each currency by that day (``SourceStanding``), sent to `runs` in runs of
    /// ``mergedRunDays`` ascending days, each as soon as it is merged: the store writes one while the
    /// next is merged.
    ///
    /// - Returns: The values the same-day consensus flagged.
    static func mergedDays(_ ranges: [ClosedRange<Day>], reader: QuoteReader, policy: MergePolicy, into runs: MergedRuns) -> [ConsensusExclusion] {
        let recomputed = reader.publicationDays.filter { day in ranges.contains { $0.contains(day) } }
        let providers = MergedProvider.all(reader.providers, policy: policy)
        let standing = standing(through: recomputed, of: providers, reader: reader, policy: policy)
        var exclusions: [ConsensusExclusion] = []
        for start in stride(from: 0, to: recomputed.count, by: mergedRunDays) {
            let days = Array(recomputed[start..<min(recomputed.count, start + mergedRunDays)])
            let results = sideBySide(days) { mergedDay($0, of: providers, reader: reader, policy: policy, standing: standing) }
            runs.send(RatesBatch(base: .euro, provider: ProviderKey.ecb, days: results.compactMap(\.rates)))
            exclusions += results.flatMap(\.exclusions)
        }
        return exclusions
    }

    /// The days of a run ``mergedDays(_:reader:policy:into:)`` sends: about a year of a long history,
    /// merged side by side in runs of 64.
    static let mergedRunDays = 256

    /// The ranks earned by the days `days` (ascending): every source's same-day deviations over the
    /// days `reader` holds from ``SourceStanding/windowDays`` before the first of them through the last.
    static func standing(through days: [Day], of providers: [MergedProvider], reader: QuoteReader, policy: MergePolicy) -> SourceStanding {
        guard let first = days.first, let last = days.last else { return .none }
        let measured = reader.publicationDays.filter { $0 > first.adding(days: -SourceStanding.windowDays) && $0 <= last }
        let deviations = sideBySide(measured) { day in
            let publications = publications(day, of: providers, reader: reader)
            return RatesMerge.sameDayDeviations(day: day, publications: publications, policy: policy, ecb: ecbBridge(for: publications, reader: reader))
        }
        return SourceStanding(deviations.joined())
    }

    /// `transform` of each of `days`, in their order: each day on its own, a long history side by
    /// side in runs of days.
    private static func sideBySide<Result: Sendable>(_ days: [Day], _ transform: @escaping @Sendable (Day) -> Result) -> [Result] {
        let run = 64
        let runs = (days.count + run - 1) / run
        let results = Mutex([[Result]](repeating: [], count: runs))
        let transformRun: @Sendable (Int) -> Void = { index in
            let transformed = days[index * run..<min(days.count, (index + 1) * run)].map(transform)
            results.withLock { $0[index] = transformed }
        }
        if runs > 1 { DispatchQueue.concurrentPerform(iterations: runs, execute: transformRun) } else if runs == 1 { transformRun(0) }
        return Array(results.withLock { $0 }.joined())
    }

    /// The merge of `day` from the quotes of `providers` in `reader` (which also holds the ECB's,
    /// for providers that quote no EUR): its rates with their sources, or `nil` when none has a value.
    static func mergedDay(
        _ day: Day, of providers: [MergedProvider], reader: QuoteReader, policy: MergePolicy, standing: SourceStanding = .none
    ) -> (rates: DailyRates?, exclusions: [ConsensusExclusion]) {
        let publications = publications(day, of: providers, reader: reader)
        // A day only the ECB published is its figures as they are (the merge would keep each one's
        // digits): no peg is added to it, so the ECB's history stays the ECB's.
        if publications.count == 1, let ecb = publications.first, ecb.provider == ProviderKey.ecb, ecb.day == day {
            return (DailyRates(day: day, rates: Dictionary(ecb.quotes.map { ($0.currency, $0.value) }) { first, _ in first }), [])
        }
        let ecb = ecbBridge(for: publications, reader: reader)
        var merged = RatesMerge.merge(day: day, publications: publications, policy: policy, ecb: ecb, standing: standing, weighing: false)
        // The pegs' values are not stored: they are derived when the day is read
        // (``RatesCore/DayTable/derivingPegs(_:base:)``), which a day of the ECB's values alone never gets.
        // Such a day is merged without pegs, so that what it stores is what it serves.
        if merged.rates.contains(where: { $0.provider == FixedParity.pegProvider }),
           !merged.rates.contains(where: { $0.provider != ProviderKey.ecb && $0.provider != FixedParity.pegProvider }) {
            var withoutPegs = policy
            withoutPegs.pegs = []
            merged = RatesMerge.merge(day: day, publications: publications, policy: withoutPegs, ecb: ecb, standing: standing, weighing: false)
        }
        guard !merged.rates.isEmpty else { return (nil, merged.exclusions) }
        var daily = DailyRates(day: day, rates: [:])
        for rate in merged.rates where rate.provider != FixedParity.pegProvider {
            daily.rates[rate.currency] = rate.value.description
            daily.sources[rate.currency] = RateSource(provider: rate.provider, day: rate.day)
        }
        return (daily.rates.isEmpty ? nil : daily, merged.exclusions)
    }

    /// The merge of `day` from the quotes of `providers` in `reader`, with every value it weighed.
    static func merge(_ day: Day, of providers: [MergedProvider], reader: QuoteReader, policy: MergePolicy) -> MergedDay {
        let publications = publications(day, of: providers, reader: reader)
        return RatesMerge.merge(day: day, publications: publications, policy: policy, ecb: ecbBridge(for: publications, reader: reader))
    }

    /// What the merge needs to know of a provider besides its quotes, looked up once per merge, not once per day.
    struct MergedProvider: Sendable {
        var key: String
        var pivot: CurrencyCode
        var inParts: Bool
        var maxAge: Int
        var bridgesThroughECB: Bool
        var issues: Set<CurrencyCode>

        static func all(_ keys: [String], policy: MergePolicy) -> [MergedProvider] {
            keys.map { key in
                let identity = ProviderRegistry.entry(key)?.identity
                return MergedProvider(
                    key: key, pivot: identity?.pivot ?? .euro, inParts: identity?.publishesInParts ?? false, maxAge: policy.validity(of: key),
                    bridgesThroughECB: identity?.bridgesThroughECB ?? false, issues: ProviderRegistry.issuedCurrencies[key] ?? [])
            }
        }
    }

    /// The publications of `providers` in `reader` that count for `day`.
    static func publications(_ day: Day, of providers: [MergedProvider], reader: QuoteReader) -> [ProviderDay] {
        providers.flatMap { provider in
            let publications = provider.inParts
                ? reader.publications(of: provider.key, onOrBefore: day, maxAge: provider.maxAge)
                : reader.publication(of: provider.key, onOrBefore: day, maxAge: provider.maxAge).map { [$0] } ?? []
            return publications.map {
                ProviderDay(
                    provider: provider.key, pivot: provider.pivot, day: $0.day, quotes: $0.quotes, inParts: provider.inParts,
                    validityDays: provider.maxAge, bridgesThroughECB: provider.bridgesThroughECB, issues: provider.issues)
            }
        }
    }

    /// The ECB's publication of each of `publications`' own days, for providers that quote no EUR.
    static func ecbBridge(for publications: [ProviderDay], reader: QuoteReader) -> [ProviderDay] {
        Set(publications.map(\.day)).compactMap { providerDay in
            reader.publication(of: ProviderKey.ecb, onOrBefore: providerDay, maxAge: 0).map {
                ProviderDay(provider: ProviderKey.ecb, pivot: .euro, day: $0.day, quotes: $0.quotes)
            }
        }
    }
}
