import RatesCore

/// A JSON answer of a provider: ``RatesCore/JSONValue``, read strictly, every number kept as its text.
/// A document that is not JSON is an ``UpstreamDataError/unexpectedLayout(provider:_:)`` naming the
/// byte offset; an empty body is ``UpstreamDataError/empty``.
typealias ProviderJSON = JSONValue

extension JSONValue {
    /// Reads `bytes`, a provider's answer, as one JSON document.
    init(answer bytes: [UInt8]) throws(UpstreamDataError) {
        do {
            try self.init(parsing: bytes)
        } catch {
            switch error {
            case .empty: throw .empty
            case .markup: throw .layout("not JSON: the answer starts with '<' (an HTML or XML page)")
            case .invalidUTF8: throw .layout("not JSON: invalid UTF-8")
            case .malformed(let reason, let offset): throw .layout("malformed JSON: \(reason) at byte \(offset)")
            }
        }
    }

    /// The elements of an array, or a layout error naming `what`.
    func array(_ what: String) throws(UpstreamDataError) -> [ProviderJSON] {
        guard case .array(let elements) = self else { throw .layout("\(what) is \(kind), not an array") }
        return elements
    }

    /// The members of an object, or a layout error naming `what`.
    func members(_ what: String) throws(UpstreamDataError) -> [Member] {
        guard case .object(let members) = self else { throw .layout("\(what) is \(kind), not an object") }
        return members
    }

    /// The member `key` of this object (`what`), which must be present (it may be `null`).
    func field(_ key: String, of what: String) throws(UpstreamDataError) -> ProviderJSON {
        guard case .object = self else { throw .layout("\(what) is \(kind), not an object") }
        guard let value = self[key] else { throw .layout("\(what) has no \"\(key)\"") }
        return value
    }

    /// The text of a string value, or a layout error naming `what`.
    func string(_ what: String) throws(UpstreamDataError) -> String {
        guard case .string(let text) = self else { throw .layout("\(what) is \(kind), not a string") }
        return text
    }

    /// A whole number (`100`, or the string `"100"` where a source quotes its numbers), or a layout error.
    func integer(_ what: String) throws(UpstreamDataError) -> Int {
        let text: String
        switch self {
        case .number(let literal), .string(let literal): text = literal
        default: throw .layout("\(what) is \(kind), not a whole number")
        }
        guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(text)
        else { throw .layout("\(what) is \(UpstreamDataError.quoted(text)), not a whole number") }
        return value
    }

    /// The published decimal text of a rate written as a JSON number or a string, or `nil` when it
    /// is neither or not a valid ``RatesCore/RateText`` (negative, zero, an exponent, garbage).
    ///
    /// A string goes through ``ProviderValidation/rateText(_:)``. A number is its literal text,
    /// except one written with 16 or more significant digits: that is a binary double printed in
    /// full (Bank Negara Malaysia's `4.2199999999999998` for 4.22, the HKMA's `7.8245000000000005`
    /// for 7.8245), a precision no bank publishes. Its text is rounded half up to 15 significant
    /// digits, the precision a double holds for any decimal, and trailing fraction zeros are
    /// dropped: the figure the publisher stored (`4.22`, `7.8245`). The rounding is done on the
    /// digits, never through a `Double`.
    var publishedDecimal: String? {
        switch self {
        case .string(let text):
            return ProviderValidation.rateText(text)
        case .number(let literal):
            guard RateText.isValid(literal) else { return nil }
            return Self.roundedToDoublePrecision(literal)
        default:
            return nil
        }
    }

    /// Significant digits a double holds for every decimal.
    static let doubleDigits = 15

    /// `text` (a valid ``RatesCore/RateText``) unchanged when it has at most 15 significant digits;
    /// otherwise rounded half up to 15 (``RatesCore/ExactDecimal/rounded(significantDigits:)``), trailing
    /// fraction zeros and a bare point dropped.
    static func roundedToDoublePrecision(_ text: String) -> String {
        guard let value = ExactDecimal(text), value.significandDigits > doubleDigits else { return text }
        return value.rounded(significantDigits: doubleDigits).description
    }
}

// MARK: - Quotes from JSON answers

extension PublishedQuote {
    /// A quote from a JSON answer: `code` must be three capital letters and `value` a published
    /// decimal (``ProviderJSON/publishedDecimal``); otherwise the error names the code or the text.
    static func reading(code: String, value: ProviderJSON, unit: Int = 1, direction: Direction, day: Day) throws(UpstreamDataError) -> PublishedQuote {
        guard let currency = CurrencyCode(code) else { throw .invalidCurrencyCode(code, day: day) }
        guard let text = value.publishedDecimal else { throw .invalidRate(currency: currency, day: day, text: value.shown) }
        return PublishedQuote(currency: currency, value: text, unit: unit, direction: direction)
    }
}
