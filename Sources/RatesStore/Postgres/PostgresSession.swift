import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// One connection to PostgreSQL, used by one caller at a time, reconnected when lost.
///
/// ``RatesStore``'s calls are synchronous, as GRDB's are: here the calling thread waits for the
/// answer while postgres-nio runs the connection on an event loop of its own (never one of the
/// HTTP server's, so a waiting caller cannot block the answer it waits for). Every call holds the
/// connection for its statements, so a transaction's statements are never interleaved with
/// another caller's. A connection that broke (the server restarted, the network failed) is
/// replaced on the next call: the call that saw it break fails, the server keeps answering from
/// memory meanwhile, and nothing needs a restart.
final class PostgresSession: Sendable {
    let location: PostgresLocation
    /// postgres-nio's settings for `location`, TLS context included, made once.
    let configuration: PostgresConnection.Configuration
    private let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let connection = Mutex<PostgresConnection?>(nil)
    let logger: Logger
    /// Where async callers wait for the PostgreSQL connection (``RatesStore/offloaded(_:)``): a database that
    /// no longer answers holds these threads, not Swift's cooperative pool, which every request and
    /// service of the process shares. Callers queue on the one connection anyway; four is enough.
    let waitingThreads = NIOThreadPool(numberOfThreads: 4)

    init(_ location: PostgresLocation, logger: Logger) throws {
        self.location = location
        configuration = try location.connectionConfiguration()
        self.logger = logger
        waitingThreads.start()
    }

    deinit {
        if let open = connection.withLock({ $0 }) { _ = try? open.close().wait() }
        try? eventLoops.syncShutdownGracefully()
        // Not waited for: the last reference may go on one of its own threads.
        waitingThreads.shutdownGracefully { _ in }
    }

    /// Runs `body` with the connection, connecting first when there is none or it was lost.
    func withConnection<Result: Sendable>(_ body: (Statements) throws -> Result) throws -> Result {
        try connection.withLock { current in
            let open = try current.flatMap { $0.isClosed ? nil : $0 } ?? connect()
            current = open
            return try body(Statements(connection: open, logger: logger))
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    ///
    /// - Parameter readOnly: A read-only snapshot (`REPEATABLE READ`): every statement sees the same committed state.
    func transaction<Result: Sendable>(readOnly: Bool = false, _ body: (Statements) throws -> Result) throws -> Result {
        try withConnection { statements in
            try statements.run(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
            do {
                let result = try body(statements)
                try statements.run("COMMIT")
                return result
            } catch {
                try? statements.run("ROLLBACK")
                throw error
            }
        }
    }

    private func connect() throws -> PostgresConnection {
        do {
            return try PostgresConnection.connect(on: eventLoops.next(), configuration: configuration, id: 1, logger: logger).wait()
        } catch {
            throw PostgresStoreError.unavailable("cannot connect to \(location): \(String(reflecting: error))")
        }
    }

    /// How long one statement may go unanswered before its connection is closed (failing it):
    /// far longer than any statement takes (the whole ECB history is stored in a few seconds),
    /// far shorter than TCP takes to give up on a server that vanished without a reset.
    static let statementDeadline = TimeAmount.seconds(30)

    /// Statements on the session's connection, each waited for.
    struct Statements {
        let connection: PostgresConnection
        let logger: Logger

        /// Runs `query` and returns its rows.
        ///
        /// - Throws: ``PostgresStoreError/unavailable(_:)`` with the server's message, or when no
        ///   answer came within ``PostgresSession/statementDeadline`` (the connection is closed
        ///   then, and the next call opens another).
        @discardableResult
        func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
            let deadline = connection.closing(after: PostgresSession.statementDeadline)
            defer { deadline.cancel() }
            do {
                return try connection.query(query, logger: logger).wait().rows
            } catch let error as PSQLError {
                throw PostgresStoreError.unavailable(error.serverInfo?[.message] ?? String(reflecting: error))
            }
        }

        /// Runs `query`, ignoring any rows.
        func run(_ query: PostgresQuery) throws {
            try rows(query)
        }

        /// Runs statements without parameters, each ending with `;` at the end of a line (a migration), one after another.
        func script(_ sql: String) throws {
            for statement in sql.components(separatedBy: ";\n") where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                try run(PostgresQuery(unsafeSQL: statement))
            }
        }

        /// The first column of the first row, or `nil` when there is no row or it is NULL.
        func value<Value: PostgresDecodable>(_ query: PostgresQuery, as type: Value.Type = Value.self) throws -> Value? {
            guard let cell = try rows(query).first?.first, cell.bytes != nil else { return nil }
            return try cell.decode(Value.self)
        }
    }
}

extension PostgresConnection {
    /// Closes the connection after `limit` unless the returned task is cancelled first. A server
    /// cut off by a network partition sends no reset, so a statement sent to it would wait until
    /// TCP gives up, minutes later, and every caller queued behind it with it; closing the
    /// connection fails the statement at once.
    func closing(after limit: TimeAmount) -> Scheduled<Void> {
        eventLoop.scheduleTask(in: limit) { let _: EventLoopFuture<Void> = self.close() }
    }
}
