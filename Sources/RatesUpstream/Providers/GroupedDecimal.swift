import RatesCore

/// Decimal text written with a point and thousands separated by commas (`3,576.42`, `16,172,267.24`,
/// `1,253.60`), as several sources write their figures, read as a ``RatesCore/RateText``.
enum GroupedDecimal {
    /// `text` without its thousands separators (`3576.42`), every digit kept; `nil` unless the
    /// separators stand between groups of three digits before the point (a first group of one to
    /// three) and the rest is a valid rate text. A decimal comma (`3576,42`) is not a grouping and reads as `nil`.
    static func rateText(_ text: some StringProtocol) -> String? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let groups = parts[0].split(separator: ",", omittingEmptySubsequences: false)
        guard groups.count == 1 || ((1...3).contains(groups[0].count) && groups.dropFirst().allSatisfy { $0.count == 3 }) else { return nil }
        let plain = groups.joined() + (parts.count > 1 ? "." + parts[1] : "")
        return RateText.isValid(plain) ? plain : nil
    }
}
