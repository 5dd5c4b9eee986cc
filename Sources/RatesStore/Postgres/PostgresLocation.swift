import Foundation
import PostgresNIO

/// Where a PostgreSQL database is: a `postgres://` or `postgresql://` URL, as libpq writes them.
///
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`; the port
/// defaults to 5432, the user to `postgres`, the database to the user's name. A password may
/// instead come from a file (`passwordFile`, e.g. a mounted Kubernetes Secret), so it need not
/// appear in the URL, the environment or a process listing.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// Whether TLS is required (`sslmode=require`, `verify-ca`, `verify-full`); otherwise the connection is plain.
    public var requiresTLS: Bool

    /// The location `text` names, or `nil` when it is not a `postgres://` or `postgresql://` URL.
    ///
    /// - Parameter passwordFile: A file whose content (trailing newline removed) is the password.
    /// - Throws: ``PostgresStoreError/invalidLocation(_:)`` for such a URL that cannot be read, or a password file that cannot.
    public init?(_ text: String, passwordFile: String? = nil) throws {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") else { return nil }
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            throw PostgresStoreError.invalidLocation("\(Self.redacted(text)) is not a postgres://USER@HOST[:PORT]/DATABASE URL")
        }
        self.host = host
        port = components.port ?? 5432
        username = components.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        password = components.password.flatMap { $0.removingPercentEncoding }
        let path = components.path.drop { $0 == "/" }
        database = path.isEmpty ? username : String(path)
        let sslmode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        requiresTLS = ["require", "verify-ca", "verify-full"].contains(sslmode)
        if let passwordFile {
            guard let contents = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                throw PostgresStoreError.invalidLocation("the password file \(passwordFile) cannot be read")
            }
            password = String(contents.trimmingCharacters(in: .newlines))
        }
    }

    /// postgres-nio's configuration of a connection to this location (plain: TLS is refused earlier, ``PostgresStoreError/tlsUnsupported``).
    var connectionConfiguration: PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: host, port: port, username: username, password: password, database: database, tls: .disable)
    }

    /// The URL without its password, for logs and status.
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }

    /// `text` with any password replaced, for error messages.
    public static func redacted(_ text: String) -> String {
        text.replacingOccurrences(of: #"://([^:/@]+):[^@]*@"#, with: "://$1:***@", options: .regularExpression)
    }
}

/// What goes wrong with a PostgreSQL database, beyond what the server itself reports.
public enum PostgresStoreError: Error, CustomStringConvertible {
    /// The database location cannot be used: what is wrong with it.
    case invalidLocation(String)
    /// The database cannot be reached or answered with an error: what and why.
    case unavailable(String)
    /// TLS was asked for; this build connects to PostgreSQL without it (on loopback or a private network).
    case tlsUnsupported

    public var description: String {
        switch self {
        case .invalidLocation(let detail): "Invalid PostgreSQL location: \(detail)."
        case .unavailable(let detail): "PostgreSQL: \(detail)"
        case .tlsUnsupported: "PostgreSQL: sslmode=require is not supported yet; connect over a private network or a local TLS proxy."
        }
    }
}
