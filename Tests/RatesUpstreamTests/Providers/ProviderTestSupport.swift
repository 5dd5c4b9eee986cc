import Foundation
import RatesCore
import RatesUpstream
import RatesTestFixtures
import Testing

/// What the provider adapter tests share: the recorded answers as bytes, edited and cut copies of
/// them, the error a parse throws, and lookups in what a parse returns.
enum ProviderFixture {
    // MARK: - Recorded answers

    /// The bytes of `Tests/Fixtures/NAME`.
    static func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Fixtures.data(name))
    }

    /// `bytes` with the first occurrence of the text `old` replaced by `new`, byte for byte (so a
    /// body in another encoding than UTF-8 stays as it is); `nil` when `old` does not occur.
    static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8]? {
        let pattern = Array(old.utf8)
        guard !pattern.isEmpty, pattern.count <= bytes.count,
            let start = (0...(bytes.count - pattern.count)).first(where: { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) })
        else { return nil }
        return Array(bytes[..<start]) + Array(new.utf8) + Array(bytes[(start + pattern.count)...])
    }

    /// The recorded answer `name` with the first occurrence of `old` replaced by `new`; the test
    /// fails when `old` does not occur.
    static func edited(_ name: String, replacing old: String, with new: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [UInt8]
    {
        try #require(replacing(old, with: new, in: try bytes(name)), "\(old) does not occur in \(name)", sourceLocation: sourceLocation)
    }

    /// The first `fraction` of the recorded answer `name`, cut inside a line.
    static func truncated(_ name: String, fraction: Double = 0.5) throws -> [UInt8] {
        let all = try bytes(name)
        var end = Int(Double(all.count) * fraction)
        while end < all.count, all[end - 1] == UInt8(ascii: "\n") || all[end] == UInt8(ascii: "\n") { end += 1 }
        return Array(all[..<end])
    }

    /// Prefixes of `bytes` cut inside the document (every `stride` bytes and one byte short).
    static func truncations(of bytes: [UInt8], stride step: Int = 101) -> [[UInt8]] {
        var end = bytes.count
        while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
        return (Array(stride(from: 1, to: end, by: step)) + [end - 1]).map { Array(bytes[..<$0]) }
    }

    /// What a proxy or a failing server sends instead of the answer: an HTML error page.
    static let htmlErrorPage = Array(
        """
        <!DOCTYPE html>
        <html><head><title>503 Service Unavailable</title></head>
        <body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request.</p></body></html>
        """.utf8)

    // MARK: - Errors

    /// The error `body` throws; `nil` if it returns. An error that is not an ``UpstreamDataError`` fails the test.
    static func error(_ body: () throws -> [ProviderPublication]) -> UpstreamDataError? {
        do {
            _ = try body()
            return nil
        } catch let error as UpstreamDataError {
            return error
        } catch {
            Issue.record("not an UpstreamDataError: \(error)")
            return nil
        }
    }

    /// The error `provider` throws parsing `body` as the answer to `request` (by default the first
    /// request of `.latest`); `nil` when it parses.
    static func error(_ body: [UInt8], _ provider: some RatesProvider, request: ProviderRequest? = nil) -> UpstreamDataError? {
        error { try provider.parse(body, of: request ?? provider.requests(for: .latest)[0]) }
    }

    /// Whether `error` is `.unexpectedLayout` (any provider, any text).
    static func isUnexpectedLayout(_ error: UpstreamDataError?) -> Bool {
        error?.isUnexpectedLayout == true
    }

    /// Whether `error` says the body is not the document expected: malformed XML (a truncated
    /// file) or a document the reader declines (an HTML page).
    static func isNotTheDocument(_ error: UpstreamDataError?) -> Bool {
        switch error {
        case .malformedXML, .unexpectedDocument: true
        default: false
        }
    }

    // MARK: - Quotes

    /// The quote of `code` in `publication`.
    static func quote(_ code: String, in publication: ProviderPublication?) -> PublishedQuote? {
        publication?[code]
    }

    /// The quote of `code` on the publication of `day` (`YYYY-MM-DD`).
    static func quote(_ code: String, on day: String, in publications: [ProviderPublication]) -> PublishedQuote? {
        quote(code, in: publications.first { $0.day == Day(day)! })
    }
}

extension UpstreamDataError {
    /// Whether this is a layout error (the readers' malformed-JSON errors included).
    var isUnexpectedLayout: Bool {
        if case .unexpectedLayout = self { return true }
        return false
    }

    /// Whether this is ``unexpectedLayout(provider:_:)`` for `key`.
    func isLayout(of key: String) -> Bool {
        if case .unexpectedLayout(let provider, _) = self { return provider == key }
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
