/// A three-letter alphabetic currency code in the style of ISO 4217 (`USD`, `EUR`).
///
/// Only the shape is checked (three ASCII capital letters): providers publish codes
/// before and after ISO lists them, and a withdrawn code stays valid for its history.
///
/// The letters are kept packed in one 32-bit integer rather than a `String`: every stored
/// rate is keyed by a code, so this halves the size of a day's rate table in memory and
/// makes hashing and comparing a code a single integer operation.
public struct CurrencyCode: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The letters' ASCII bytes, first letter in the high byte, so integer order is alphabetical order.
    @usableFromInline let packed: UInt32

    /// Creates a code from exactly three ASCII capital letters; `nil` for anything else.
    @inlinable
    public init?(_ text: some StringProtocol) { self.init(ascii: text.utf8) }

    /// Creates a code from exactly three ASCII capital letters given as bytes; `nil` for anything else.
    @inlinable
    public init?(ascii bytes: some Sequence<UInt8>) {
        var iterator = bytes.makeIterator()
        guard let first = iterator.next(), let second = iterator.next(), let third = iterator.next(), iterator.next() == nil else { return nil }
        self.init(letters: (first, second, third))
    }

    /// The code's three capital letters.
    public var rawValue: String {
        String(unsafeUninitializedCapacity: 3) { letters in
            letters[0] = UInt8(truncatingIfNeeded: packed >> 16)
            letters[1] = UInt8(truncatingIfNeeded: packed >> 8)
            letters[2] = UInt8(truncatingIfNeeded: packed)
            return 3
        }
    }

    /// Creates a code from the three ASCII bytes ``letters`` gives; `nil` unless all are capital letters.
    @inlinable
    public init?(letters: (UInt8, UInt8, UInt8)) {
        let capitals = UInt8(ascii: "A")...UInt8(ascii: "Z")
        guard capitals.contains(letters.0), capitals.contains(letters.1), capitals.contains(letters.2) else { return nil }
        packed = UInt32(letters.0) << 16 | UInt32(letters.1) << 8 | UInt32(letters.2)
    }

    /// The code's three letters as ASCII bytes, for writers that copy them without making a `String`.
    public var letters: (UInt8, UInt8, UInt8) {
        (UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 8), UInt8(truncatingIfNeeded: packed))
    }

    /// The code's place among all three-letter codes in alphabetical order (`AAA` 0, `ZZZ` 17,575):
    /// two bytes, where a day table keeps half a million of them.
    var ordinal: UInt16 {
        let (first, second, third) = letters
        return (UInt16(first) - 65) * 26 * 26 + (UInt16(second) - 65) * 26 + UInt16(third) - 65
    }

    /// The code at `ordinal` (``ordinal``), which must be below 26³.
    init(ordinal: UInt16) {
        packed = UInt32(ordinal / (26 * 26) + 65) << 16 | UInt32(ordinal / 26 % 26 + 65) << 8 | UInt32(ordinal % 26 + 65)
    }

    /// The euro, base currency of the ECB's reference rates.
    public static let euro = CurrencyCode("EUR")!
    /// The US dollar, the pivot of many sources and the merge's first bridge currency.
    public static let usDollar = CurrencyCode("USD")!

    /// The English ISO 4217 name (or, for the Crown Dependencies' pounds, which ISO 4217 does not
    /// list but pegs give, their usual name), or `nil` for a code neither knows.
    public var name: String? { Self.iso4217[rawValue]?.name ?? Self.otherNames[rawValue] }

    /// Codes in common use that ISO 4217 does not list (treated as GBP there).
    /// Names of codes outside ISO 4217 that sources publish: the Channel Islands' and the Isle of Man's
    /// pounds, and the offshore yuan (CNH), a market rate of its own that is never merged into CNY.
    static let otherNames: [String: String] = [
        "CNH": "Chinese Yuan (offshore)", "GGP": "Guernsey Pound", "IMP": "Manx Pound", "JEP": "Jersey Pound",
    ]

    /// The symbol apps write amounts with: CLDR's English one (`$`, `€`, `¥`, `CA$`), else the issuing
    /// country's (`zł`, `Ft`); `nil` where the code is its own symbol (CHF) or CLDR has none.
    public var symbol: String? { Self.symbols[rawValue] }

    /// How many digits follow the decimal point in amounts of the currency, as ISO 4217 gives them
    /// (2 for USD, 0 for JPY, 3 for KWD); `nil` where it gives none (the metals, XDR) or does not list the code.
    public var minorUnits: Int? { Self.isoMinorUnits[rawValue] }

    public var description: String { rawValue }

    public static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool { lhs.packed < rhs.packed }
}
