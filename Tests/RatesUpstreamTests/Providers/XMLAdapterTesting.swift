import Foundation
import RatesCore
import RatesUpstream
import Testing

/// What the XML adapters' tests share: recorded answers, altered copies of them, the error a parse throws.
enum XMLAdapterTesting {
    /// The bytes of the recorded answer `Tests/Fixtures/NAME`.
    static func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Fixtures.data(name))
    }

    /// The recorded answer `name` with the one occurrence of the ASCII text `old` replaced by `new`.
    static func bytes(_ name: String, replacing old: String, with new: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [UInt8]
    {
        let data = try bytes(name)
        let pattern = Array(old.utf8)
        let starts = (0...(data.count - pattern.count)).filter { data[$0..<$0 + pattern.count].elementsEqual(pattern) }
        try #require(starts.count == 1, "\(old) occurs \(starts.count) times in \(name)", sourceLocation: sourceLocation)
        return Array(data[..<starts[0]]) + Array(new.utf8) + Array(data[(starts[0] + pattern.count)...])
    }

    /// The first half of the recorded answer `name`.
    static func truncated(_ name: String) throws -> [UInt8] {
        let data = try bytes(name)
        return Array(data.prefix(data.count / 2))
    }

    /// What a web server answers instead of the file: an HTML error page.
    static let htmlErrorPage = Array(
        """
        <!DOCTYPE html>
        <html><head><title>503 Service Unavailable</title></head>
        <body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request.</p></body></html>
        """.utf8)

    /// The error `body` throws; `nil` if it returns. An error of another type fails the test.
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

    /// The quote of `currency` in `publication`.
    static func quote(_ currency: String, in publication: ProviderPublication?) -> PublishedQuote? {
        publication?.quotes.first { $0.currency.rawValue == currency }
    }

    /// Whether `error` is `.unexpectedLayout` (any provider, any text).
    static func isUnexpectedLayout(_ error: UpstreamDataError?) -> Bool {
        if case .unexpectedLayout = error { true } else { false }
    }

    /// Whether `error` says the body is not the document expected: malformed XML (a truncated
    /// file) or a document the reader declines (an HTML page).
    static func isNotTheDocument(_ error: UpstreamDataError?) -> Bool {
        switch error {
        case .malformedXML, .unexpectedDocument: true
        default: false
        }
    }
}

/// A currency code known to be valid.
func xmlAdapterCode(_ text: String) -> CurrencyCode { CurrencyCode(text)! }
