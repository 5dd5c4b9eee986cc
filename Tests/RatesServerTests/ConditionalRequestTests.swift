import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RatesServer
import RatesTestSupport
import Testing

/// `If-None-Match` on every kind of conditional answer (RFC 9110 §13.1.2): the prepared answers of
/// the data routes and the sync feed, with a gzip form or too small for one, written by the fast path
/// or by the application's routes, and the answers tagged by their own bytes, which have no gzip form
/// (`/v1/status`, `/v1/providers/{key}`, `/v2/providers`).
///
/// A client holding the current answer, whichever form of it, gets `304` with the tag and no body;
/// any other tag gets the answer.
@Suite("Conditional requests")
struct ConditionalRequestTests {
    /// One kind of conditional answer: a request target, and whether its answer has a gzip form.
    struct Target: Sendable, CustomStringConvertible {
        var uri: String
        var hasGzipForm: Bool
        var description: String { uri }
    }

    static let targets = [
        // Prepared answers of the data routes, the fast path's when it is on.
        Target(uri: "/v1/latest", hasGzipForm: false),   // too small to be worth compressing
        Target(uri: "/v1/currencies", hasGzipForm: true),
        Target(uri: "/v1/timeseries?start=2026-10-01&end=2026-10-30", hasGzipForm: true),
        Target(uri: "/v2/currencies", hasGzipForm: true),
        Target(uri: "/v2/rates", hasGzipForm: true),
        Target(uri: "/v2/rates?base=USD&quotes=JPY", hasGzipForm: false),
        // The sync feed's pages.
        Target(uri: "/v1/sync?from=2026-10-01", hasGzipForm: true),
        // Answers tagged by their own bytes, never compressed.
        Target(uri: "/v1/status", hasGzipForm: false),
        Target(uri: "/v1/providers/ECB", hasGzipForm: false),
        Target(uri: "/v2/providers", hasGzipForm: false),
    ]

    /// Who writes the answers: the fast path (on when no middleware has a say), or the
    /// application's routes (an API key configured turns the fast path off).
    enum Writer: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case fastPath = "fast path"
        case routes = "application routes"
        var testDescription: String { rawValue }
    }

    /// Runs `body` with a seeded server whose answers `writer` writes, and a GET that sends the key it needs.
    static func withServer(
        _ writer: Writer, _ body: @Sendable (_ get: @Sendable (String, HTTPFields) async throws -> TestResponse) async throws -> Void
    ) async throws {
        try await withSeededServer(configure: { if writer == .routes { $0.apiKeys = ["conditional-test-key"] } }) { client in
            try await body { uri, headers in
                var headers = headers
                if writer == .routes { headers[HTTPField.Name("X-API-Key")!] = "conditional-test-key" }
                return try await client.request(uri, headers: headers)
            }
        }
    }

    /// Expects `answer` to be a 304 for a client holding `fresh`: its tag, the headers of the 200 (`Cache-Control`, `Vary`), no body.
    static func expectNotModified(_ answer: TestResponse, fresh: TestResponse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == .notModified, "\(what): \(answer.status)", sourceLocation: sourceLocation)
        #expect(answer.headers[.eTag] == fresh.headers[.eTag], "\(what): the tag of the form held", sourceLocation: sourceLocation)
        #expect(answer.headers[.cacheControl] == fresh.headers[.cacheControl], "\(what)", sourceLocation: sourceLocation)
        #expect(answer.headers[.vary] == fresh.headers[.vary], "\(what)", sourceLocation: sourceLocation)
        #expect(answer.body.readableBytes == 0, "\(what): no body", sourceLocation: sourceLocation)
    }

    @Test("a client holding the current answer gets 304 with its tag and no body: the tag as sent, in a list, weak, or *", arguments: Writer.allCases)
    func currentTagIsNotModified(writer: Writer) async throws {
        try await Self.withServer(writer) { get in
            for target in Self.targets {
                let fresh = try await get(target.uri, [:])
                #expect(fresh.status == .ok, "\(target)")
                let tag = try #require(fresh.headers[.eTag], "\(target)")
                #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"), "\(target): a strong tag, \(tag)")

                Self.expectNotModified(try await get(target.uri, [.ifNoneMatch: tag]), fresh: fresh, "\(target) with its tag")
                Self.expectNotModified(try await get(target.uri, [.ifNoneMatch: "\"a\", \(tag)"]), fresh: fresh, "\(target) with a list holding its tag")
                Self.expectNotModified(try await get(target.uri, [.ifNoneMatch: "\"a\",\(tag) , \"b\""]), fresh: fresh, "\(target) with its tag amid others")
                var twoFields = HTTPFields()
                twoFields.append(HTTPField(name: .ifNoneMatch, value: "\"a\""))
                twoFields.append(HTTPField(name: .ifNoneMatch, value: tag))
                Self.expectNotModified(try await get(target.uri, twoFields), fresh: fresh, "\(target) with its tag in a second If-None-Match field")
                // If-None-Match compares weakly: W/"x" matches "x".
                Self.expectNotModified(try await get(target.uri, [.ifNoneMatch: "W/" + tag]), fresh: fresh, "\(target) with its tag, weak")
                Self.expectNotModified(try await get(target.uri, [.ifNoneMatch: "\"a\", W/" + tag]), fresh: fresh, "\(target) with a list holding its weak tag")
                // * matches any current representation.
                Self.expectNotModified(try await get(target.uri, [.ifNoneMatch: "*"]), fresh: fresh, "\(target) with *")
            }
        }
    }

    @Test("a client holding another answer, or none of these tags, gets 200 with the body", arguments: Writer.allCases)
    func staleTagGetsTheAnswer(writer: Writer) async throws {
        try await Self.withServer(writer) { get in
            for target in Self.targets {
                let fresh = try await get(target.uri, [:])
                let tag = try #require(fresh.headers[.eTag], "\(target)")
                let stale = [
                    "\"stale\"", "W/\"stale\"", "\"a\", \"b\"", "\"\"",
                    // The current tag as part of another: a longer tag, and one missing its closing quote.
                    String(tag.dropLast()) + "-old\"", String(tag.dropLast()),
                ]
                for condition in stale {
                    for encoding in ["identity", "gzip"] {
                        let answer = try await get(target.uri, [.ifNoneMatch: condition, .acceptEncoding: encoding])
                        #expect(answer.status == .ok, "\(target), If-None-Match: \(condition), Accept-Encoding: \(encoding)")
                        #expect(answer.body.readableBytes > 0, "\(target), If-None-Match: \(condition), Accept-Encoding: \(encoding)")
                    }
                }
            }
        }
    }

    @Test("a client that accepts gzip holding the form it got revalidates with its tag; either form's tag proves the answer current", arguments: Writer.allCases)
    func gzipFormTag(writer: Writer) async throws {
        try await Self.withServer(writer) { get in
            for target in Self.targets {
                let plain = try await get(target.uri, [:])
                let compressed = try await get(target.uri, [.acceptEncoding: "gzip"])
                let plainTag = try #require(plain.headers[.eTag], "\(target)")
                let gzipTag = try #require(compressed.headers[.eTag], "\(target)")
                if target.hasGzipForm {
                    #expect(compressed.headers[.contentEncoding] == "gzip" && gzipTag != plainTag, "\(target): the gzip form, under its own tag")
                } else {
                    #expect(compressed.headers[.contentEncoding] == nil && gzipTag == plainTag, "\(target): no gzip form, one tag")
                }
                Self.expectNotModified(
                    try await get(target.uri, [.acceptEncoding: "gzip", .ifNoneMatch: gzipTag]), fresh: compressed, "\(target), gzip, with the gzip form's tag")
                Self.expectNotModified(
                    try await get(target.uri, [.acceptEncoding: "gzip", .ifNoneMatch: "W/" + gzipTag]), fresh: compressed, "\(target), gzip, weak")
                Self.expectNotModified(try await get(target.uri, [.acceptEncoding: "gzip", .ifNoneMatch: "*"]), fresh: compressed, "\(target), gzip, *")
                // Either tag says the client holds this version of the answer (PreparedAnswer).
                Self.expectNotModified(
                    try await get(target.uri, [.acceptEncoding: "gzip", .ifNoneMatch: plainTag]), fresh: compressed, "\(target), gzip, with the plain tag")
                Self.expectNotModified(try await get(target.uri, [.ifNoneMatch: gzipTag]), fresh: plain, "\(target), plain, with the gzip form's tag")
            }
        }
    }

    @Test("a negotiated answer's tag validates only its own format: JSON, NDJSON and CSV of one range carry three tags, and one format's tag gets another format in full", arguments: Writer.allCases)
    func negotiatedFormatsHaveTheirOwnTags(writer: Writer) async throws {
        try await Self.withServer(writer) { get in
            let uri = "/v2/rates?from=2026-10-01&to=2026-10-30"
            let formats = ["application/json", "application/x-ndjson", "text/csv"]
            var answers: [String: TestResponse] = [:]
            for format in formats {
                let answer = try await get(uri, [.accept: format])
                #expect(answer.status == .ok && answer.headers[.contentType]?.hasPrefix(format) == true, "\(format): \(answer.headers[.contentType] ?? "none")")
                answers[format] = answer
            }
            let tags = formats.compactMap { answers[$0]?.headers[.eTag] }
            #expect(Set(tags).count == formats.count, "one tag per format: \(tags)")
            for held in formats {
                let tag = try #require(answers[held]?.headers[.eTag])
                for asked in formats where asked != held {
                    for encoding in ["identity", "gzip"] {
                        let answer = try await get(uri, [.accept: asked, .ifNoneMatch: tag, .acceptEncoding: encoding])
                        #expect(answer.status == .ok && answer.body.readableBytes > 0, "\(asked) with the tag of \(held), \(encoding): \(answer.status)")
                    }
                }
                Self.expectNotModified(try await get(uri, [.accept: held, .ifNoneMatch: tag]), fresh: try #require(answers[held]), "\(held) with its own tag")
            }
        }
    }
}
