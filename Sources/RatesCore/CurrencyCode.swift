/// A three-letter alphabetic currency code in the style of ISO 4217 (`USD`, `EUR`).
///
/// Only the shape is checked (three ASCII capital letters): providers publish codes
/// before and after ISO lists them, and a withdrawn code stays valid for its history.
public struct CurrencyCode: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The code's three capital letters.
    public let rawValue: String

    /// Creates a code from exactly three ASCII capital letters; `nil` for anything else.
    @inlinable
    public init?(_ text: some StringProtocol) {
        let utf8 = text.utf8
        guard utf8.count == 3, utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return nil }
        self.rawValue = String(text)
    }

    /// The euro, base currency of the ECB's reference rates.
    public static let euro = CurrencyCode("EUR")!

    /// The English ISO 4217 name, or `nil` for a code ISO 4217 does not list.
    public var name: String? { Self.isoNames[rawValue] }

    public var description: String { rawValue }

    public static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
