import RatesCore

/// A figure as a source writes it, with its decimal mark and perhaps a mark between groups of
/// three digits, read as a ``RatesCore/RateText``: the JSON, HTML and spreadsheet adapters' one reading of
/// `"1.953,0200"`, `"4 983,29"` or `"16,172,267.24"`.
enum GroupedDecimal {
    /// A figure written with a decimal mark and, optionally, a mark between groups of three digits
    /// (`"1.953,0200"` with `","` and `"."`; `"4 983,29"` with `","` and `" "`; `"1,234.5"` with `"."`
    /// and `","`) as plain decimal text (`"1953.0200"`): the same digits, trailing zeros kept.
    ///
    /// Strict: every group after the first has exactly three digits, the first one to three, the mark
    /// between groups is only `groupMark` (a space also stands for a no-break one), and the result is a
    /// ``RatesCore/RateText``; anything else is `nil`. A decimal comma where a point is expected
    /// (`3576,42` read with `"."` and `","`) is not a grouping and reads as `nil`.
    static func rateText(_ text: some StringProtocol, decimalMark: Character, groupMark: Character? = nil) -> String? {
        let parts = text.split(separator: decimalMark, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let whole = parts[0]
        var digits = ""
        if let groupMark {
            let isGroupMark: (Character) -> Bool = groupMark == " " ? { $0 == " " || $0 == "\u{00A0}" || $0 == "\u{202F}" } : { $0 == groupMark }
            let groups = whole.split(omittingEmptySubsequences: false, whereSeparator: isGroupMark)
            for (position, group) in groups.enumerated() {
                guard position == 0 ? (1...3).contains(group.count) || groups.count == 1 : group.count == 3 else { return nil }
                digits += group
            }
        } else {
            digits = String(whole)
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var result = digits
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            result += "." + parts[1]
        }
        return RateText.isValid(result) ? result : nil
    }
}
