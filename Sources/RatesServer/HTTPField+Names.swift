import HTTPTypes

extension HTTPField.Name {
    /// `X-API-Key`: a client's API key, when the server requires them.
    static let apiKey = HTTPField.Name("X-API-Key")!
    /// `X-Request-ID`: the request's ID, echoed on every answer.
    static let requestID = HTTPField.Name("X-Request-ID")!
    /// `Rates-Stale: expected=<day>`: the answer comes from the newest publication held, and the reference schedule says a newer one is out.
    static let ratesStale = HTTPField.Name("Rates-Stale")!
}
