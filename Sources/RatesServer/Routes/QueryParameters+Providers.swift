extension QueryParameters {
    /// The providers `providers=` names (``providers()``), each one of `available`; `nil` when absent or empty.
    ///
    /// - Parameter available: The keys the request may name (for a refresh: the providers the server fetches).
    /// - Returns: The keys named, in the order of `available`.
    /// - Throws: A `Problem` naming a key that is not a provider, or one that is not available.
    func providers(among available: [String]) throws(Problem) -> [String]? {
        guard let keys = try providers() else { return nil }
        if let other = keys.sorted().first(where: { !available.contains($0) }) {
            throw .invalid(
                "providers", "'providers' names \(other), which this server does not fetch; it fetches \(available.joined(separator: ", ")).")
        }
        return available.filter(keys.contains)
    }
}
