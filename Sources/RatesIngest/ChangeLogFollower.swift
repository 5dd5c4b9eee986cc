import Foundation
import Logging
import RatesStore
import ServiceLifecycle

/// Applies changes that another process logged in the store to the in-memory dataset.
///
/// The server's own ingests apply their changes at once; this picks up the rest: what the
/// fetcher replica stores when several share a PostgreSQL database (told at once by a
/// notification on each commit), and `rates-relay prune` or `import` run against the database
/// of a running server. It also checks every `interval`, so a change whose notification was
/// missed (the connection was down) is applied within one interval. Each check is one indexed
/// read of the change log past the in-memory version; with a shared database, also a read of the
/// fetcher's last runs, so every replica reports the same fetch and answers with the same `ETag`.
/// Whether the check reached the database is recorded in the state (``ServerState/databaseUnreachableSince``):
/// readiness depends on it.
public struct ChangeLogFollower: Service {
    let ingestor: Ingestor
    let interval: Duration
    let logger: Logger

    public init(ingestor: Ingestor, interval: Duration = .seconds(5), logger: Logger) {
        self.ingestor = ingestor
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        let (coordination, interval) = (ingestor.store.coordination, interval)
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                if let coordination {
                    group.addTask { await coordination.listen(.changes, retryAfter: interval) { _ in await catchUp() } }
                }
                group.addTask {
                    while !Task.isCancelled {
                        await catchUp()
                        try? await Task.sleep(for: interval)
                    }
                }
                await group.waitForAll()
            }
        }
    }

    private func catchUp() async {
        do {
            let ingestor = ingestor
            let applied = try await ingestor.store.offloaded {
                let applied = try ingestor.catchUp()
                // Replicas on one database: the fetcher's runs vouch for the data here too (status, ETags).
                if ingestor.store.isShared { try ingestor.state.loadFetchRecord(from: ingestor.store) }
                return applied
            }
            if applied > 0 { logger.info("applied changes logged by another process", metadata: ["rates.changes": "\(applied)"]) }
            ingestor.state.recordDatabaseRead(succeeded: true, at: Date())
        } catch {
            if ingestor.state.databaseUnreachableSince == nil { logger.error("change log could not be read", metadata: ["error": "\(error)"]) }
            ingestor.state.recordDatabaseRead(succeeded: false, at: Date())
        }
    }
}
