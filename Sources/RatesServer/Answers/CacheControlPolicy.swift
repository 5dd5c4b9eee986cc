import Foundation
import RatesCore
import RatesIngest
import Synchronization

/// What the reference schedule (``RatesUpstream/ProviderRegistry/referenceSchedule``) says of a dataset version right now.
///
/// Prepared answers depend on it as well as on the dataset: while the newest publication is
/// overdue, answers say so (`"stale"`, the `Rates-Stale` header) and their tags change, so a
/// client holding an answer from before cannot get a 304 that hides it.
struct Freshness: Sendable {
    /// The newest publication the reference schedule says is out.
    let expected: Day
    /// Whether the dataset lacks it.
    let isBehind: Bool
    /// Whether the upstream has vouched for the data (`ServerState.FetchStatus.isConfirmed`).
    let isConfirmed: Bool
    /// The `ETag` of every data answer: the dataset's tag, plus the missing publication while
    /// behind and a mark while unconfirmed.
    let etag: String
    /// The `ETag` of the gzip-compressed form.
    let gzipEtag: String
    /// Prepared answers of one generation are interchangeable: it changes with the dataset
    /// version, its confirmation and, while behind, with the publication expected.
    let generation: Int64
    /// `Cache-Control` of answers kept until the next publication.
    let untilNextPublication: String

    /// The server's verdict for clients: a publication is missing, or the upstream never confirmed the data.
    var isStale: Bool { isBehind || !isConfirmed }
}

/// The `Cache-Control` of each kind of answer, and the ``Freshness`` of the dataset.
///
/// Data answers may be kept until a minute after the next expected publication (a minute while
/// one is overdue); the sync feed's tail page briefly; its complete pages forever. The
/// freshness changes at most once a second, so it is computed once per second and dataset
/// version rather than per request: the schedule work costs more than the rest of a prepared answer.
final class CacheControlPolicy: Sendable {
    /// How long clients may keep an answer.
    enum Caching: Sendable {
        /// Rates, conversions, currencies: until the next publication.
        case untilNextPublication
        /// The last page of the sync feed: it grows with the next publication.
        case syncTail
        /// A complete page of the change log: it never changes within its epoch.
        case immutable
    }

    let schedule: PublicationSchedule
    let now: @Sendable () -> Date
    private let last = Mutex<(version: Int64, epoch: String, confirmed: Bool, second: Int64, freshness: Freshness)?>(nil)

    init(schedule: PublicationSchedule, now: @escaping @Sendable () -> Date) {
        self.schedule = schedule
        self.now = now
    }

    /// The header value for an answer of kind `caching`.
    func value(for caching: Caching, freshness: Freshness) -> String {
        switch caching {
        case .immutable: "public, max-age=31536000, immutable"
        case .syncTail: "public, max-age=60, stale-while-revalidate=300, stale-if-error=86400"
        case .untilNextPublication: freshness.untilNextPublication
        }
    }

    /// What the reference schedule says of `snapshot` now; `confirmed` tells whether the upstream vouched for it.
    func freshness(of snapshot: RatesSnapshot, confirmed: Bool) -> Freshness {
        let now = now()
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        let memo = last.withLock { last in
            last.flatMap { $0.version == snapshot.version && $0.epoch == snapshot.epoch && $0.confirmed == confirmed && $0.second == second ? $0.freshness : nil }
        }
        if let memo { return memo }
        let expected = schedule.latestPublication(asOf: now)
        let isBehind = snapshot.latest.map { $0.day < expected } ?? true
        let cacheControl: String
        if isBehind {
            cacheControl = "public, max-age=60"
        } else {
            let next = schedule.expectedTime(of: schedule.nextPublication(after: now)).addingTimeInterval(60)
            cacheControl = "public, max-age=\(max(60, Int(next.timeIntervalSince(now))))"
        }
        let tag = isBehind || !confirmed ? "\(snapshot.epoch)-\(snapshot.version)" + (isBehind ? "-\(expected)" : "") + (confirmed ? "" : "-u") : nil
        let freshness = Freshness(
            expected: expected, isBehind: isBehind, isConfirmed: confirmed,
            etag: tag.map { "\"\($0)\"" } ?? snapshot.etag, gzipEtag: tag.map { "\"\($0)-gzip\"" } ?? snapshot.gzipEtag,
            generation: snapshot.version << 22 | (confirmed ? 0 : 1 << 21) | (isBehind ? Int64(expected.dayNumber & 0xF_FFFF) + 1 : 0),
            untilNextPublication: cacheControl)
        last.withLock { $0 = (snapshot.version, snapshot.epoch, confirmed, second, freshness) }
        return freshness
    }
}
