import Logging
import ServiceLifecycle

/// Applies changes that another process logged in the store to the in-memory dataset.
///
/// The server's own ingests apply their changes at once; this picks up the rest —
/// `rates-relay prune` or `import` run against the file of a running server — within one
/// `interval`. Each check is one indexed read of the change log past the in-memory version.
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
        while !Task.isCancelledOrShuttingDown {
            do {
                let applied = try ingestor.catchUp()
                if applied > 0 { logger.info("applied changes logged by another process", metadata: ["rates.changes": "\(applied)"]) }
            } catch {
                logger.error("change log could not be read", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
