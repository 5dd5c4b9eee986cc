import Hummingbird

/// The server's paths with the methods each takes, so that a known path called with any other
/// method — `PUT`, `TRACE`, `QUERY`, anything — answers 405 with `Allow` rather than 404, which
/// would tell a client the path is wrong when only the method is.
struct KnownPaths: Sendable {
    /// Each path pattern (`{name}` matches one segment) with the methods it takes.
    let methods: [String: [HTTPRequest.Method]]

    /// The methods `path` takes, `HEAD` added wherever `GET` is; `nil` when no pattern matches.
    func allowed(for path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for (pattern, methods) in methods {
            let parts = pattern.split(separator: "/", omittingEmptySubsequences: true)
            guard parts.count == segments.count, zip(parts, segments).allSatisfy({ $0.hasPrefix("{") || $0 == $1 }) else { continue }
            return methods.contains(.get) ? methods + [.head] : methods
        }
        return nil
    }
}
