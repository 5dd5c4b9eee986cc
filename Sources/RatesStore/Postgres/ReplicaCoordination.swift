import Logging
import NIOCore
import PostgresNIO

/// What replicas sharing one PostgreSQL database tell each other, each on a connection of its own:
/// which one fetches (an advisory lock, held for as long as the connection holding it lives) and
/// what happened (LISTEN/NOTIFY: an ingest committed, a refresh asked of the fetcher).
public struct ReplicaCoordination: Sendable {
    /// How to connect to the shared database (the store's own connection settings, TLS included).
    let configuration: PostgresConnection.Configuration
    let logger: Logger

    /// The advisory lock of the fetcher role (another key than the writers' lock).
    static let fetcherLock: Int64 = 0x5241_5445_5346  // "RATESF"

    /// The notification channels.
    public enum Channel: String, Sendable {
        /// An ingest committed; the payload is the new dataset version.
        case changes = "rates_changes"
        /// An operator asked for a refresh; the payload is the provider keys, comma-separated, or empty for all.
        case refresh = "rates_refresh"
    }

    /// Runs `work` whenever this process holds the fetcher role, until cancelled.
    ///
    /// It asks for the role every `interval`; once it holds it, it runs `work` and checks the
    /// connection holding the lock every `interval`. When that connection is lost (the database
    /// restarted, the network failed), PostgreSQL has released the lock for another replica to
    /// take: `work` is cancelled here, and this process asks again. A replica that dies loses
    /// its connection with it, so another takes over within one `interval`.
    ///
    /// - Parameter roleChanged: Called with `true` when the role is taken, and `false` when it is lost
    ///   or asked for and refused (another replica holds it; asked again every `interval`).
    public func runAsFetcher(checkEvery interval: Duration, roleChanged: @escaping @Sendable (Bool) -> Void, _ work: @escaping @Sendable () async -> Void) async {
        while !Task.isCancelled {
            let connection: PostgresConnection
            do {
                connection = try await connect()
            } catch {
                logger.warning("the fetcher role cannot be asked for", metadata: ["error": "\(String(reflecting: error))"])
                try? await Task.sleep(for: interval)
                continue
            }
            do {
                if try await acquire(on: connection, retryEvery: interval, refused: { roleChanged(false) }) {
                    logger.info("this replica holds the fetcher role")
                    roleChanged(true)
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { await work() }
                        group.addTask {
                            // While the connection answers, its lock is held; one that no longer
                            // answers (a partition) may have lost it already: it counts as lost.
                            while !Task.isCancelled {
                                try? await Task.sleep(for: interval)
                                guard await answers(connection, within: interval) else { return }
                            }
                        }
                        await group.next()
                        group.cancelAll()
                    }
                    roleChanged(false)
                    if !Task.isCancelled { logger.warning("the fetcher role was lost with its database connection; asking for it again") }
                }
            } catch {
                if !Task.isCancelled { logger.warning("the fetcher role cannot be asked for", metadata: ["error": "\(String(reflecting: error))"]) }
            }
            // Closing the connection releases the lock, if it still held it.
            try? await connection.close()
        }
    }

    /// Whether `connection` answers a query within `limit`; one that does not is closed.
    private func answers(_ connection: PostgresConnection, within limit: Duration) async -> Bool {
        guard !connection.isClosed else { return false }
        let deadline = connection.closing(after: TimeAmount(limit))
        defer { deadline.cancel() }
        return (try? await connection.query("SELECT 1", logger: logger)) != nil
    }

    /// Asks for the lock every `interval` until it is granted (`true`) or the task is cancelled
    /// (`false`), calling `refused` each time another holder keeps it.
    ///
    /// - Throws: When the connection is lost. A query sent on a connection the server closed while
    ///   it was idle never completed (postgres-nio 1.33), which kept this loop, and with it the
    ///   server's graceful shutdown, waiting forever after a database outage: it is checked first.
    ///   A query that gets no answer (a partition) fails at ``PostgresSession/statementDeadline``.
    private func acquire(on connection: PostgresConnection, retryEvery interval: Duration, refused: () -> Void) async throws -> Bool {
        while !Task.isCancelled {
            guard !connection.isClosed else { throw PostgresStoreError.unavailable("the connection asking for the fetcher role was closed") }
            let deadline = connection.closing(after: PostgresSession.statementDeadline)
            let granted = try await connection.query("SELECT pg_try_advisory_lock(\(Self.fetcherLock))", logger: logger).decode(Bool.self)
                .first { _ in true } ?? false
            deadline.cancel()
            if granted { return true }
            refused()
            try await Task.sleep(for: interval)
        }
        return false
    }

    /// Calls `received` with each notification's payload on `channel` until cancelled, listening
    /// again after `retryAfter` when the connection is lost (a notification sent meanwhile is
    /// missed: listeners also check periodically).
    public func listen(_ channel: Channel, retryAfter: Duration, _ received: @escaping @Sendable (String) async -> Void) async {
        while !Task.isCancelled {
            do {
                let connection = try await connect()
                do {
                    try await connection.listen(on: channel.rawValue) { notifications in
                        for try await notification in notifications { await received(notification.payload) }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            } catch {
                if Task.isCancelled { return }
                logger.warning("listening for notifications failed", metadata: ["rates.channel": "\(channel.rawValue)", "error": "\(String(reflecting: error))"])
            }
            try? await Task.sleep(for: retryAfter)
        }
    }

    /// Sends `payload` on `channel` to every replica listening (this one included).
    public func notify(_ channel: Channel, _ payload: String) async throws {
        let connection = try await connect()
        do {
            try await connection.query("SELECT pg_notify(\(channel.rawValue), \(payload))", logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    private func connect() async throws -> PostgresConnection {
        try await PostgresConnection.connect(configuration: configuration, id: 2, logger: logger)
    }
}

extension RatesStore {
    /// How this replica coordinates with the others on its database: `nil` for SQLite (one process, always the fetcher).
    public var coordination: ReplicaCoordination? {
        (database as? PostgresRatesDatabase).map { ReplicaCoordination(configuration: $0.session.configuration, logger: $0.session.logger) }
    }
}
