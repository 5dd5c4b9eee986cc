import RatesCore

extension JSONValue {
    /// The member at `path` down from this answer (`"data", "payload"` for `{"data":{"payload":…}}`), each of
    /// which must be present (``field(_:of:)``): a layout error names the first missing one and the member it
    /// lacks it in, by its path (`"data" has no "payload"`).
    func field(at path: String...) throws(UpstreamDataError) -> ProviderJSON {
        var value = self
        var what = "the answer"
        for (depth, key) in path.enumerated() {
            value = try value.field(key, of: what)
            what = (depth == 0 ? "" : what + ".") + "\"\(key)\""
        }
        return value
    }
}
