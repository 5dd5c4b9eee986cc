import Foundation

/// A JSON document (RFC 8259) read into values: what ``SyncPage`` reads a page from.
///
/// A page of a first sync holds tens of thousands of values; read by `JSONDecoder` (nested
/// dictionaries decoded through `Codable`) or `JSONSerialization` (values boxed as `Any`, then cast),
/// reading took longer than storing them. This reader makes each string once and nothing else.
/// Numbers keep their text; an object's later member of a name replaces an earlier one.
enum JSONValue: Equatable, Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// A number as written (`-1.5e3`).
    case number(String)
    case bool(Bool)
    case null

    /// Nesting deeper than this is refused: a hostile document cannot exhaust the stack.
    static let maxDepth = 64

    /// The document in `bytes`, or `nil` when it is not one JSON value (with white space around it),
    /// is not UTF-8 where it holds text, or nests deeper than ``maxDepth``.
    init?(parsing bytes: some Collection<UInt8>) {
        let parsed = Array(bytes).withUnsafeBufferPointer { buffer -> JSONValue? in
            var reader = Reader(bytes: buffer)
            guard let value = reader.value(depth: 0) else { return nil }
            reader.skipWhiteSpace()
            return reader.index == buffer.count ? value : nil
        }
        guard let parsed else { return nil }
        self = parsed
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func skipWhiteSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }

        /// Takes `literal` (`true`, `false`, `null`) if it comes next.
        mutating func take(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipWhiteSpace()
            guard index < bytes.count, depth < JSONValue.maxDepth else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [String: JSONValue] = [:]
                skipWhiteSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipWhiteSpace()
                    guard let name = string() else { return nil }
                    skipWhiteSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let member = value(depth: depth + 1) else { return nil }
                    members[name] = member
                    guard let end = separator(closing: UInt8(ascii: "}")) else { return nil }
                    if end { return .object(members) }
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONValue] = []
                skipWhiteSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                while true {
                    guard let element = value(depth: depth + 1) else { return nil }
                    elements.append(element)
                    guard let end = separator(closing: UInt8(ascii: "]")) else { return nil }
                    if end { return .array(elements) }
                }
            case UInt8(ascii: "\""):
                return string().map { .string($0) }
            case UInt8(ascii: "t"):
                return take("true") ? .bool(true) : nil
            case UInt8(ascii: "f"):
                return take("false") ? .bool(false) : nil
            case UInt8(ascii: "n"):
                return take("null") ? .null : nil
            default:
                return number().map { .number($0) }
            }
        }

        /// After a member or element: `true` at the closing bracket, `false` at a comma, `nil` otherwise.
        mutating func separator(closing: UInt8) -> Bool? {
            skipWhiteSpace()
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            switch bytes[index] {
            case closing: return true
            case UInt8(ascii: ","): return false
            default: return nil
            }
        }

        /// A string, its opening quote next.
        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            // Most strings have no escape: they are taken as they stand.
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                guard bytes[index] >= 0x20 else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return String(bytes: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), encoding: .utf8)
            }
            var text = Array(bytes[start..<index])
            while bytes[index] == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hexQuad() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low one.
                        guard take("\\u"), let low = hexQuad(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    text += Array(String(Character(unicode)).utf8)
                default:
                    return nil
                }
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                    guard bytes[index] >= 0x20 else { return nil }
                    text.append(bytes[index])
                    index += 1
                }
                guard index < bytes.count else { return nil }
            }
            index += 1
            return String(bytes: text, encoding: .utf8)
        }

        /// The value of four hexadecimal digits.
        mutating func hexQuad() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// A number's text: `-`, an integer part without leading zeros, a fraction, an exponent.
        mutating func number() -> String? {
            let start = index
            func digits() -> Int {
                let first = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
                return index - first
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integer = digits()
            guard integer > 0, integer == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return nil }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }
}
