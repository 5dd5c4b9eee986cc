import Foundation
import RatesCore
import RatesIngest
import Synchronization

/// The `Cache-Control` of each kind of answer.
///
/// Data answers may be kept until a minute after the next expected publication (a minute while
/// one is overdue); the sync feed's tail page briefly; its complete pages forever. The data
/// value changes at most once a second, so it is computed once per second and dataset version
/// rather than per request: the calendar work costs more than the rest of a prepared answer.
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

    let calendar: PublicationCalendar
    let now: @Sendable () -> Date
    private let last = Mutex<(version: Int64, second: Int64, value: String)?>(nil)

    init(calendar: PublicationCalendar, now: @escaping @Sendable () -> Date) {
        self.calendar = calendar
        self.now = now
    }

    /// The header value for an answer of kind `caching` from `snapshot`.
    func value(for caching: Caching, snapshot: RatesSnapshot) -> String {
        switch caching {
        case .immutable: return "public, max-age=31536000, immutable"
        case .syncTail: return "public, max-age=60, stale-while-revalidate=300, stale-if-error=86400"
        case .untilNextPublication: return untilNextPublication(snapshot: snapshot)
        }
    }

    private func untilNextPublication(snapshot: RatesSnapshot) -> String {
        let now = now()
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        if let memo = last.withLock({ $0 }), memo.version == snapshot.version, memo.second == second { return memo.value }
        let value: String
        if let latest = snapshot.latest?.day, latest >= calendar.latestPublication(asOf: now) {
            let next = calendar.publicationTime(of: calendar.nextPublication(after: now)).addingTimeInterval(60)
            value = "public, max-age=\(max(60, Int(next.timeIntervalSince(now))))"
        } else {
            value = "public, max-age=60"
        }
        last.withLock { $0 = (snapshot.version, second, value) }
        return value
    }
}
