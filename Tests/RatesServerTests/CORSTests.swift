import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RatesServer
import RatesTestSupport
import Testing

/// One answer's status and headers, whichever way it was read.
struct AnswerHeaders {
    var status: Int
    /// Header values by lower-cased name.
    var fields: [String: [String]]

    init(_ response: TestResponse) {
        status = Int(response.status.code)
        fields = Dictionary(grouping: response.headers, by: { $0.name.canonicalName.lowercased() }).mapValues { $0.map(\.value) }
    }

    /// Parses the head of a raw HTTP/1.1 answer.
    init(raw: String) throws {
        let lines = raw.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
        status = try #require(Int(lines[0].split(separator: " ")[1]), "\(raw.prefix(200))")
        fields = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased(), default: []].append(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    subscript(_ name: String) -> String? { fields[name.lowercased()]?.joined(separator: ", ") }

    var allowOrigin: String? { self["Access-Control-Allow-Origin"] }
    var variesByOrigin: Bool { self["Vary"]?.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "Origin" } == true }
    /// Whether the answer lets a page send cookies: never.
    var allowsCredentials: Bool { self["Access-Control-Allow-Credentials"] != nil }
}

@Suite("Browsers (CORS): any page by default, listed origins when configured, credentials never")
struct CORSTests {
    /// The answer to `GET target` sent alone on a new keep-alive HTTP/1.1 connection: for a target
    /// answered once before, the prepared answer that the fast path gives in front of the application.
    static func preparedAnswer(_ client: some TestClientProtocol, _ target: String, origin: String? = nil) async throws -> AnswerHeaders {
        let port = try #require(client.port)
        let request = "GET \(target) HTTP/1.1\r\nHost: test\r\n" + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n"
        let raw = try await onOwnThread { () throws -> String? in
            let connection = try RawConnection(port: port)
            try connection.send(request)
            return try connection.readResponse()
        }
        return try AnswerHeaders(raw: try #require(raw, "the connection closed without an answer"))
    }

    /// A preflight for `GET path` sending `If-None-Match` and `X-API-Key`, as a page's `fetch` with those headers makes.
    static func preflight(_ client: some TestClientProtocol, _ path: String, origin: String, method: String = "GET") async throws -> AnswerHeaders {
        AnswerHeaders(try await client.request(path, method: .options, headers: [
            .origin: origin, .accessControlRequestMethod: method, .accessControlRequestHeaders: "if-none-match, x-api-key",
        ]))
    }

    @Test("by default every data answer says Access-Control-Allow-Origin: * and exposes ETag, from the application and the fast path alike")
    func anyPageByDefault() async throws {
        try await withSeededServer { client in
            let fromApplication = AnswerHeaders(try await client.request("/v1/latest?symbols=USD", headers: [.origin: "https://any.example"]))
            let prepared = try await Self.preparedAnswer(client, "/v1/latest?symbols=USD", origin: "https://any.example")
            let withoutOrigin = try await Self.preparedAnswer(client, "/v1/latest?symbols=USD")
            let head = AnswerHeaders(try await client.request("/v1/currencies", method: .head, headers: [.origin: "https://any.example"]))
            let problem = AnswerHeaders(try await client.request("/v1/latest?base=XXX", headers: [.origin: "https://any.example"]))
            for (name, answer) in [("application", fromApplication), ("fast path", prepared), ("no Origin", withoutOrigin), ("HEAD", head)] {
                #expect(answer.status == 200, "\(name)")
                #expect(answer.allowOrigin == "*", "\(name): the same for every page, so caches keep one copy")
                #expect(answer["Access-Control-Expose-Headers"]?.contains("ETag") == true, "\(name)")
                #expect(answer["Access-Control-Expose-Headers"]?.contains("Rates-Stale") == true, "pages can read that the data is behind: \(name)")
                #expect(!answer.variesByOrigin && !answer.allowsCredentials, "\(name)")
            }
            #expect(prepared["ETag"] == fromApplication["ETag"])
            #expect(problem.status == 404 && problem.allowOrigin == "*", "a page can read why it was refused")

            let etag = try #require(fromApplication["ETag"])
            let notModified = AnswerHeaders(try await client.request("/v1/latest?symbols=USD", headers: [.origin: "https://any.example", .ifNoneMatch: etag]))
            #expect(notModified.status == 304 && notModified.allowOrigin == "*")

            for operatorPath in ["/healthz", "/readyz", "/metrics"] {
                let answer = AnswerHeaders(try await client.request(operatorPath, headers: [.origin: "https://any.example"]))
                #expect(answer.status == 200 && answer.allowOrigin == nil, "\(operatorPath) is for operators, not pages")
            }
        }
    }

    @Test("a preflight from any page is answered 204 with the methods and headers a page may use; operator endpoints refuse it")
    func preflightByDefault() async throws {
        try await withSeededServer { client in
            let preflight = try await Self.preflight(client, "/v1/sync", origin: "https://any.example")
            #expect(preflight.status == 204)
            #expect(preflight.allowOrigin == "*" && !preflight.variesByOrigin && !preflight.allowsCredentials)
            #expect(preflight["Access-Control-Allow-Methods"]?.contains("GET") == true)
            let allowedHeaders = preflight["Access-Control-Allow-Headers"]?.lowercased() ?? ""
            #expect(allowedHeaders.contains("if-none-match") && allowedHeaders.contains("x-api-key"))
            #expect(preflight["Access-Control-Max-Age"] == "600")

            let admin = try await Self.preflight(client, "/v1/admin/refresh", origin: "https://any.example", method: "POST")
            #expect(admin.status != 204 && admin.allowOrigin == nil)
            let notPreflight = try await client.request("/v1/latest", method: .options)
            #expect(notPreflight.status == .methodNotAllowed, "an OPTIONS without Origin is no preflight")
        }
    }

    @Test("configured origins restrict: a listed origin is named back with Vary: Origin on both paths, another gets no allow header")
    func listedOrigins() async throws {
        try await withSeededServer(configure: { $0.corsOrigins = ["https://app.example", "https://other.example"] }) { client in
            let allowed = AnswerHeaders(try await client.request("/v1/latest", headers: [.origin: "https://app.example"]))
            #expect(allowed.allowOrigin == "https://app.example" && allowed.variesByOrigin)
            #expect(allowed["Access-Control-Expose-Headers"]?.contains("ETag") == true)
            let problem = AnswerHeaders(try await client.request("/v1/latest?base=XXX", headers: [.origin: "https://other.example"]))
            #expect(problem.status == 404 && problem.allowOrigin == "https://other.example")
            let foreign = AnswerHeaders(try await client.request("/v1/latest", headers: [.origin: "https://evil.example"]))
            #expect(foreign.status == 200 && foreign.allowOrigin == nil && foreign.variesByOrigin)

            // Prepared answers get the same treatment, whether or not the request names an origin.
            let preparedAllowed = try await Self.preparedAnswer(client, "/v1/latest", origin: "https://app.example")
            #expect(preparedAllowed.status == 200 && preparedAllowed.allowOrigin == "https://app.example" && preparedAllowed.variesByOrigin)
            let preparedForeign = try await Self.preparedAnswer(client, "/v1/latest", origin: "https://evil.example")
            #expect(preparedForeign.status == 200 && preparedForeign.allowOrigin == nil && preparedForeign.variesByOrigin)
            let preparedPlain = try await Self.preparedAnswer(client, "/v1/latest")
            #expect(preparedPlain.status == 200 && preparedPlain.allowOrigin == nil && preparedPlain.variesByOrigin)

            let preflight = try await Self.preflight(client, "/v1/sync", origin: "https://app.example")
            #expect(preflight.status == 204 && preflight.allowOrigin == "https://app.example" && preflight.variesByOrigin)
            #expect(preflight["Access-Control-Allow-Headers"]?.lowercased().contains("x-api-key") == true)
            let foreignPreflight = try await Self.preflight(client, "/v1/sync", origin: "https://evil.example")
            #expect(foreignPreflight.status != 204 && foreignPreflight.allowOrigin == nil)

            for answer in [allowed, problem, foreign, preparedAllowed, preparedForeign, preparedPlain, preflight, foreignPreflight] {
                #expect(!answer.allowsCredentials)
            }
        }
    }

    @Test("with API keys and no origins no page may read answers; listed origins may, preflights needing no key")
    func apiKeys() async throws {
        let key = HTTPField.Name("X-API-Key")!
        try await withSeededServer(configure: { $0.apiKeys = ["key-one"] }) { client in
            let answer = AnswerHeaders(try await client.request("/v1/latest", headers: [.origin: "https://app.example", key: "key-one"]))
            #expect(answer.status == 200 && answer.allowOrigin == nil && !answer.allowsCredentials)
            let preflight = try await Self.preflight(client, "/v1/latest", origin: "https://app.example")
            #expect(preflight.status != 204 && preflight.allowOrigin == nil)
        }
        try await withSeededServer(configure: {
            $0.apiKeys = ["key-one"]
            $0.corsOrigins = ["https://app.example"]
        }) { client in
            let preflight = try await Self.preflight(client, "/v1/latest", origin: "https://app.example")
            #expect(preflight.status == 204 && preflight.allowOrigin == "https://app.example")
            let answer = AnswerHeaders(try await client.request("/v1/latest", headers: [.origin: "https://app.example", key: "key-one"]))
            #expect(answer.status == 200 && answer.allowOrigin == "https://app.example")
            let refused = AnswerHeaders(try await client.request("/v1/latest", headers: [.origin: "https://app.example"]))
            #expect(refused.status == 401 && refused.allowOrigin == "https://app.example", "a page can read why it was refused")
            for answer in [preflight, answer, refused] { #expect(!answer.allowsCredentials) }
        }
    }
}
