import RatesCore

extension JSONValue {
    /// The text of this object's member `key`, which must be a string; errors name it as `what`'s `"key"`
    /// (``field(_:of:)``, then ``string(_:)``).
    func string(_ key: String, of what: String) throws(UpstreamDataError) -> String {
        try field(key, of: what).string("\(what)'s \"\(key)\"")
    }

    /// The whole number in this object's member `key` (``integer(_:)``); errors name it as `what`'s `"key"`.
    func integer(_ key: String, of what: String) throws(UpstreamDataError) -> Int {
        try field(key, of: what).integer("\(what)'s \"\(key)\"")
    }
}
