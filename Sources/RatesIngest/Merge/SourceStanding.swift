import RatesCore
import RatesStore

/// How far one source's value of a currency sat from the other sources' values of the same day:
/// the distance from the median of the others, as a fraction of that median (0.014 for 1.4%).
public struct SameDayDeviation: Hashable, Sendable {
    public var provider: String
    public var currency: CurrencyCode
    public var day: Day
    public var deviation: Double

    public init(provider: String, currency: CurrencyCode, day: Day, deviation: Double) {
        self.provider = provider
        self.currency = currency
        self.day = day
        self.deviation = deviation
    }
}

/// The rank each source earns for each currency: how far its figures typically sit from the
/// same-day figures of the others.
///
/// A source's **typical deviation** for a currency on a day D is the median of its same-day
/// deviations (``SameDayDeviation``) over the ``windowDays`` days up to and including D, once it
/// has at least ``minimumSamples`` of them. Only publications up to D count, so a day's rank never
/// changes with later data. A source whose typical deviation passes ``MergePolicy/rankingBound``
/// ranks below every source that does not, for that currency (indicative, counter and dealer rates,
/// stale feeds); with too few samples a source keeps its place.
public struct SourceStanding: Sendable {
    /// How many days of publications up to a day its standing is measured over: 14, the days the
    /// merge of an ingest reads before the first day it recomputes (``RatesStore/QuoteReader/lookBackDays``).
    public static let windowDays = QuoteReader.lookBackDays
    /// How many same-day deviations a source needs in the window before it is judged: 3.
    public static let minimumSamples = 3

    /// A source's typical deviation for a currency on a day, with how many same-day deviations it is the median of.
    public struct Measure: Hashable, Sendable {
        public var deviation: Double
        public var samples: Int
    }

    private struct Key: Hashable {
        var provider: String
        var currency: CurrencyCode
    }

    private struct Sample {
        var dayNumber: Int
        var deviation: Double
    }

    /// Each source's same-day deviations for each currency, by day ascending.
    private let samples: [Key: [Sample]]

    /// No measures: every source keeps its place.
    public static let none = SourceStanding([])

    public init(_ deviations: some Sequence<SameDayDeviation>) {
        var samples: [Key: [Sample]] = [:]
        for deviation in deviations {
            samples[Key(provider: deviation.provider, currency: deviation.currency), default: []]
                .append(Sample(dayNumber: deviation.day.dayNumber, deviation: deviation.deviation))
        }
        self.samples = samples.mapValues { $0.sorted { $0.dayNumber < $1.dayNumber } }
    }

    /// The typical deviation of `provider`'s figures for `currency` on `day`, or `nil` while it has
    /// fewer than ``minimumSamples`` same-day deviations in the window.
    public func measure(of provider: String, for currency: CurrencyCode, on day: Day) -> Measure? {
        guard let all = samples[Key(provider: provider, currency: currency)] else { return nil }
        let last = all.partitionPoint(where: { $0.dayNumber <= day.dayNumber })
        let first = all[..<last].partitionPoint(where: { $0.dayNumber <= day.dayNumber - Self.windowDays })
        guard last - first >= Self.minimumSamples else { return nil }
        return Measure(deviation: RatesMerge.median(all[first..<last].map(\.deviation)), samples: last - first)
    }

    /// Every provider and currency with a measure on `day`.
    public func measures(on day: Day) -> [(provider: String, currency: CurrencyCode, measure: Measure)] {
        samples.keys.compactMap { key in measure(of: key.provider, for: key.currency, on: day).map { (key.provider, key.currency, $0) } }
            .sorted { ($0.provider, $0.currency) < ($1.provider, $1.currency) }
    }
}
