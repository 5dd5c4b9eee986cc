import Foundation

/// Where one provider's requests go instead of its own servers (`--upstream KEY=URL`): a local
/// server, a mirror or a recording proxy answers for it.
///
/// Every request the provider makes keeps its path and query; its scheme, host and port become
/// the override's, and its path is prefixed with the override's path. With `http://127.0.0.1:8081/nbp`,
/// `https://api.nbp.pl/api/exchangerates/tables/A/?format=json` is asked of
/// `http://127.0.0.1:8081/nbp/api/exchangerates/tables/A/?format=json`.
public struct UpstreamOverride: Hashable, Sendable, CustomStringConvertible {
    /// `scheme://host[:port]`, as written.
    public let origin: String
    /// The path every request's path is prefixed with: empty, or starting with `/` and not ending with one.
    public let pathPrefix: String

    /// Reads an override from `text`: an `http` or `https` URL with a host, an optional port and
    /// path, and nothing else.
    ///
    /// - Throws: ``Invalid`` saying what is wrong with it.
    public init(_ text: String) throws(Invalid) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = components.host, !host.isEmpty, let separator = text.range(of: "://")
        else {
            throw Invalid(text: text, reason: "expected an http or https URL with a host, such as http://127.0.0.1:8081/nbp")
        }
        guard components.user == nil, components.password == nil, components.query == nil, components.fragment == nil else {
            throw Invalid(text: text, reason: "it may hold a scheme, a host, a port and a path, but no user, query or fragment")
        }
        // Everything before the path, as written (an IPv6 host keeps its brackets).
        let authority = text[separator.upperBound...].prefix { $0 != "/" }
        origin = scheme + "://" + authority
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        pathPrefix = path
    }

    /// `url` as asked of the override: its scheme, host and port replaced, its path prefixed.
    ///
    /// A URL this does not recognize (no `://`) comes back unchanged: adapters only make absolute URLs.
    public func apply(to url: String) -> String {
        guard let separator = url.range(of: "://") else { return url }
        let rest = url[separator.upperBound...]
        let pathAndQuery = rest.drop { $0 != "/" && $0 != "?" && $0 != "#" }
        let path = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        return origin + pathPrefix + path
    }

    public var description: String { origin + pathPrefix }

    /// Text that is not a usable override URL.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        /// The text given.
        public var text: String
        /// What is wrong with it.
        public var reason: String

        public var description: String { "\(UpstreamDataError.quoted(text)) is not a usable upstream URL: \(reason)" }
    }
}
