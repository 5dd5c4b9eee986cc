import Foundation
import RatesCore
import RatesUpstream

/// What the provider adapter tests share: the recorded answers as bytes, edited copies of them,
/// the error a parse throws.
enum ProviderFixture {
    /// The bytes of `Tests/Fixtures/NAME`.
    static func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Fixtures.data(name))
    }

    /// `bytes` with the first occurrence of `old` replaced by `new`; `nil` when `old` does not occur.
    static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8]? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.range(of: old) else { return nil }
        return Array(text.replacingCharacters(in: range, with: new).utf8)
    }

    /// What a proxy or a failing server sends instead of the answer.
    static let htmlErrorPage = Array(
        "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>\n".utf8)

    /// Prefixes of `bytes` cut inside the document (every `stride` bytes and one byte short).
    static func truncations(of bytes: [UInt8], stride step: Int = 101) -> [[UInt8]] {
        var end = bytes.count
        while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
        return (Array(stride(from: 1, to: end, by: step)) + [end - 1]).map { Array(bytes[..<$0]) }
    }
}

/// The error `provider.parse` throws for `body`, or `nil` when it parses.
func parseError(_ provider: some RatesProvider, _ body: [UInt8], _ request: ProviderRequest) -> UpstreamDataError? {
    do {
        _ = try provider.parse(body, of: request)
        return nil
    } catch {
        return error
    }
}

extension UpstreamDataError {
    /// Whether this is a layout error (the reader's malformed-JSON errors included).
    var isUnexpectedLayout: Bool {
        if case .unexpectedLayout = self { return true }
        return false
    }
}

extension ProviderPublication {
    /// The quote of `code`, if the publication has one.
    subscript(code: String) -> PublishedQuote? {
        quotes.first { $0.currency.rawValue == code }
    }

    /// The quoted codes, in alphabetical order.
    var codes: [String] { quotes.map(\.currency.rawValue).sorted() }
}

/// Shorthand for the expected quote.
func quote(_ code: String, _ value: String, unit: Int = 1, _ direction: PublishedQuote.Direction = .pivotPerUnits) -> PublishedQuote {
    PublishedQuote(currency: CurrencyCode(code)!, value: value, unit: unit, direction: direction)
}

