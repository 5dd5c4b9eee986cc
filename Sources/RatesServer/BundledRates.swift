import Foundation
import NIOCore
import RatesCore
import RatesIngest
import RatesStore

/// The snapshot an app ships so that its first launch converts offline: the newest merged
/// publication of a database, every currency with its source, as one `/v1/sync` page
/// (`rates-relay export --snapshot`).
///
/// `RatesClient` reads it into an empty cache (marked bundled and stale) and replaces it with the
/// first sync's snapshot. The page says `stale: true`; its cursor is the exporting database's, which
/// the SDK does not keep: a bundled snapshot is never a position in a server's feed.
public enum BundledRates {
    /// The page of `store`'s newest publication, or `nil` when the store holds none.
    public static func export(from store: RatesStore, now: Date = Date()) throws -> ByteBuffer? {
        let snapshot = try ServerState(loadingFrom: store).snapshot
        guard let latest = snapshot.latest?.day else { return nil }
        let page = try store.state(asOf: snapshot.version, after: nil, from: latest, limit: 1)
        var writer = SyncPageWriter(
            epoch: snapshot.epoch, reset: false, snapshot: snapshot, expectedLatestDate: latest, stale: true, nextUpdateAfter: now)
        let cursor = SyncCursor(epoch: snapshot.epoch, sequence: snapshot.version, from: latest, position: .changes)
        return writer.write(cursor: cursor, more: false, upserts: page.days.filter { $0.day == latest }, deletes: [:])
    }
}
