/// Provider keys the code names: Frankfurter's keys (`ECB`, `NBP`, …), so its clients' `providers=` values work.
public enum ProviderKey {
    /// The European Central Bank: the first in precedence for its currencies, and the default source of a stored value.
    public static let ecb = "ECB"

    /// Whether `text` has the form of a provider key: a capital letter, then 1 to 15 capital letters
    /// or digits (`ECB`, `BANXICO`); what a client accepts as one from a server.
    public static func isWellFormed(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (2...16).contains(bytes.count), (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[0]) else { return false }
        return bytes.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
