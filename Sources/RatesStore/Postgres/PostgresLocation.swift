import Foundation
import NIOSSL
import PostgresNIO

/// Where a PostgreSQL database is: a `postgres://` or `postgresql://` URL, as libpq writes them.
///
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE[&sslrootcert=FILE]]`; the port
/// defaults to 5432, the user to `postgres`, the database to the user's name. A password may
/// instead come from a file (`passwordFile`, e.g. a mounted Kubernetes Secret), so it need not
/// appear in the URL, the environment or a process listing.
///
/// `sslmode` means what it means to libpq, and defaults to `prefer` as there: ``TLSMode``.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// How the connection is protected (`sslmode`).
    public var tls: TLSMode
    /// The certificate authorities a server's certificate must chain to (`sslrootcert`, a PEM
    /// file); `nil`: the system's. Read for `verify-ca` and `verify-full`, and, as libpq does, for
    /// `require` when given.
    public var rootCertificateFile: String?

    /// libpq's `sslmode`s.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain only.
        case disable
        /// TLS when the server offers it, else plain; the certificate is not checked (`allow` reads as this).
        case prefer
        /// TLS or no connection; the certificate is not checked (unless `sslrootcert` is given: then as `verify-ca`).
        case require
        /// TLS with a certificate that chains to a trusted authority, for any host name.
        case verifyCA = "verify-ca"
        /// TLS with a trusted certificate issued for the host connected to.
        case verifyFull = "verify-full"
    }

    /// The location `text` names, or `nil` when it is not a `postgres://` or `postgresql://` URL.
    ///
    /// - Parameter passwordFile: A file whose content (trailing newline removed) is the password.
    /// - Throws: ``PostgresStoreError/invalidLocation(_:)`` for such a URL that cannot be read, an
    ///   unknown `sslmode`, or a password file that cannot be read.
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
        let query = components.queryItems ?? []
        let sslmode = query.last { $0.name == "sslmode" }?.value ?? TLSMode.prefer.rawValue
        guard let mode = TLSMode(rawValue: sslmode == "allow" ? TLSMode.prefer.rawValue : sslmode) else {
            let modes = (["allow"] + TLSMode.allCases.map(\.rawValue)).joined(separator: ", ")
            throw PostgresStoreError.invalidLocation("sslmode=\(sslmode) is not one of \(modes)")
        }
        tls = mode
        rootCertificateFile = query.last { $0.name == "sslrootcert" }?.value.flatMap { $0.isEmpty ? nil : $0 }
        if let passwordFile {
            guard let contents = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                throw PostgresStoreError.invalidLocation("the password file \(passwordFile) cannot be read")
            }
            password = String(contents.trimmingCharacters(in: .newlines))
        }
    }

    /// postgres-nio's configuration of a connection to this location, with its TLS context.
    ///
    /// - Throws: ``PostgresStoreError/invalidLocation(_:)`` when the `sslrootcert` file cannot be
    ///   read as PEM certificates or TLS cannot be set up.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: host, port: port, username: username, password: password, database: database, tls: try tlsConfiguration())
    }

    private func tlsConfiguration() throws -> PostgresConnection.Configuration.TLS {
        guard tls != .disable else { return .disable }
        var configuration = TLSConfiguration.makeClientConfiguration()
        let verifies = tls == .verifyCA || tls == .verifyFull || (tls == .require && rootCertificateFile != nil)
        configuration.certificateVerification = !verifies ? .none : tls == .verifyFull ? .fullVerification : .noHostnameVerification
        if verifies, let rootCertificateFile {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootCertificateFile))
            } catch {
                throw PostgresStoreError.invalidLocation("sslrootcert=\(rootCertificateFile) cannot be read as PEM certificates (\(error))")
            }
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw PostgresStoreError.invalidLocation("TLS cannot be set up for sslmode=\(tls.rawValue): \(error)")
        }
        return tls == .prefer ? .prefer(context) : .require(context)
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

    public var description: String {
        switch self {
        case .invalidLocation(let detail): "Invalid PostgreSQL location: \(detail)."
        case .unavailable(let detail): "PostgreSQL: \(detail)"
        }
    }
}
