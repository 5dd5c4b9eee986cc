import Foundation
import RatesCore
import RatesUpstream

/// What the CSV provider tests share: recorded bodies as bytes, edited copies of them and the
/// error a parse throws.
enum CSVProviderFixture {
    /// The bytes of `Tests/Fixtures/NAME`.
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Fixtures.data(name))
    }

    /// The recorded body as text with the first occurrence of `target` replaced (the target must occur).
    static func edited(_ name: String, replacing target: String, with replacement: String) throws -> [UInt8] {
        let text = String(decoding: try bytes(name), as: UTF8.self)
        guard let range = text.range(of: target) else { throw FixtureEditError.notFound(target) }
        return Array(text.replacingCharacters(in: range, with: replacement).utf8)
    }

    /// The first `fraction` of the recorded body, cut inside a line.
    static func truncated(_ name: String, fraction: Double = 0.5) throws -> [UInt8] {
        let all = try bytes(name)
        var end = Int(Double(all.count) * fraction)
        while end < all.count, all[end - 1] == UInt8(ascii: "\n") || all[end] == UInt8(ascii: "\n") { end += 1 }
        return Array(all[..<end])
    }

    /// An HTML error page as a web server sends it instead of the data.
    static let htmlErrorPage = Array("""
        <!DOCTYPE html>
        <html><head><title>503 Service Unavailable</title></head>
        <body><h1>Service Unavailable</h1><p>Please try again later.</p></body></html>

        """.utf8)

    /// The error `parse` throws, or `nil` when it succeeds.
    static func error(_ body: [UInt8], _ provider: some RatesProvider, request: ProviderRequest? = nil) -> UpstreamDataError? {
        do {
            _ = try provider.parse(body, of: request ?? provider.requests(for: .latest)[0])
            return nil
        } catch {
            return error
        }
    }

    /// The quote for `code` on the publication of `day`.
    static func quote(_ code: String, on day: String, in publications: [ProviderPublication]) -> PublishedQuote? {
        publications.first { $0.day == Day(day)! }?.quotes.first { $0.currency.rawValue == code }
    }

    enum FixtureEditError: Error { case notFound(String) }
}

extension UpstreamDataError {
    /// Whether this is ``unexpectedLayout(provider:_:)`` for `key`.
    func isLayout(of key: String) -> Bool {
        if case .unexpectedLayout(let provider, _) = self { return provider == key }
        return false
    }
}
