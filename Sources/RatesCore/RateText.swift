/// The one check of a rate's decimal text: every upstream parser, the ingest's validation and
/// the SDK's reading of sync pages apply it.
public enum RateText {
    /// Longest rate text accepted, in characters: bounds leading zeros after the point.
    public static let maxLength = 40

    /// Most significant digits a rate may carry.
    public static let maxSignificantDigits = 18

    /// Whether `text` is a plain positive decimal as providers publish them.
    ///
    /// Accepted: ASCII digits, optionally followed by `.` and at least one digit; no sign,
    /// exponent, spaces or thousands separators; no leading zero unless the integer part is
    /// exactly `0` (so the text is also a valid JSON number); a value above zero; at most
    /// ``maxSignificantDigits`` significant digits (counted from the first non-zero digit,
    /// trailing zeros included) and at most ``maxLength`` characters.
    /// `"1.1097"`, `"0.84163"`, `"136"`, `"20275.170"` pass; `"-1"`, `"0"`, `"0.000"`, `"NaN"`,
    /// `"1e5"`, `"01.5"`, `".5"`, `"1."`, `" 1.5"` do not.
    public static func isValid(_ text: some StringProtocol) -> Bool {
        // One concrete loop over contiguous bytes (every native string's): a generic one walks
        // the text through its witness table, byte by byte, from another module.
        let utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable(isValid(contiguous:)) ?? Array(utf8).withUnsafeBufferPointer(isValid(contiguous:))
    }

    private static func isValid(contiguous bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let zero = UInt8(ascii: "0")
        let nine = UInt8(ascii: "9")
        let point = UInt8(ascii: ".")
        var length = 0
        var integerDigits = 0
        var fractionDigits = 0
        var sawPoint = false
        var firstByte: UInt8 = 0
        var significant = 0  // digits from the first non-zero digit on
        for byte in bytes {
            length += 1
            if length == 1 { firstByte = byte }
            if byte >= zero && byte <= nine {
                if sawPoint { fractionDigits += 1 } else { integerDigits += 1 }
                if significant > 0 || byte != zero { significant += 1 }
            } else if byte == point && !sawPoint {
                sawPoint = true
            } else {
                return false
            }
        }
        guard integerDigits > 0, !sawPoint || fractionDigits > 0 else { return false }
        guard integerDigits == 1 || firstByte != zero else { return false }
        return significant > 0 && significant <= maxSignificantDigits && length <= maxLength
    }
}
