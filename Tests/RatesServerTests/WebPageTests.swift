import CompressNIO
import Foundation
import Hummingbird
import HummingbirdTesting
import RatesServer
import RatesTestSupport
import Testing
import Yams

@Suite("Web page")
struct WebPageTests {
    /// The repository this file is in.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The page's files as the repository holds them.
    static let webDirectory = repository.appending(path: "Sources/RatesServer/Resources/web")

    @Test("/ is the page: 200 text/html, with a policy that allows this server only and no inline script")
    func page() async throws {
        try await withSeededServer { client in
            let page = try await client.request("/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.cacheControl] == "no-cache")
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            for directive in ["default-src 'self'", "script-src 'self'", "connect-src 'self'", "object-src 'none'", "frame-ancestors 'none'"] {
                #expect(policy.contains(directive), "\(directive) in \(policy)")
            }
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval") && !policy.contains("http"))
            #expect(page.text.contains("<script src=\"/web/app.js\" defer></script>"))
            #expect(page.text.contains("<link rel=\"stylesheet\" href=\"/web/style.css\">"))
            let head = try await client.request("/", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0 && head.headers[.contentType] == page.headers[.contentType])
        }
    }

    @Test("the script, style sheet and icon are served with their media types; another file is a 404 problem")
    func files() async throws {
        try await withSeededServer { client in
            for (file, type) in [("app.js", "text/javascript; charset=utf-8"), ("style.css", "text/css; charset=utf-8"), ("icon.svg", "image/svg+xml")] {
                let answer = try await client.request("/web/" + file)
                #expect(answer.status == .ok, "\(file)")
                #expect(answer.headers[.contentType] == type, "\(file)")
                #expect(answer.headers[.contentSecurityPolicy] != nil, "\(file)")
                let bytes = try Data(contentsOf: Self.webDirectory.appending(path: file))
                #expect(Data(answer.body.readableBytesView) == bytes, "\(file) is served as written")
            }
            for missing in ["/web/nothing.js", "/web/..%2Fopenapi.yaml", "/web/"] {
                let answer = try await client.request(missing)
                #expect(answer.status == .notFound, "\(missing)")
                #expect(answer.headers[.contentType] == "application/problem+json", "\(missing)")
            }
            let post = try await client.request("/", method: .post)
            #expect(post.status == .methodNotAllowed)
        }
    }

    @Test("a client holding a file's tag gets 304; one that accepts gzip gets it compressed, under its own tag")
    func conditionalAndCompressed() async throws {
        try await withSeededServer { client in
            for uri in ["/", "/web/app.js", "/web/style.css"] {
                let plain = try await client.request(uri)
                let etag = try #require(plain.headers[.eTag])
                #expect(plain.headers[.contentEncoding] == nil, "\(uri)")
                #expect(plain.headers[.vary] == "Accept-Encoding", "\(uri)")
                let again = try await client.request(uri, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified && again.body.readableBytes == 0, "\(uri)")

                let compressed = try await client.request(uri, headers: [.acceptEncoding: "gzip, deflate"])
                #expect(compressed.headers[.contentEncoding] == "gzip", "\(uri)")
                #expect(compressed.headers[.contentType] == plain.headers[.contentType], "\(uri)")
                let gzipTag = try #require(compressed.headers[.eTag])
                #expect(gzipTag != etag, "\(uri)")
                var body = compressed.body
                #expect(try body.decompress(with: .gzip()) == plain.body, "\(uri)")
                let gzipAgain = try await client.request(uri, headers: [.acceptEncoding: "gzip", .ifNoneMatch: gzipTag])
                #expect(gzipAgain.status == .notModified, "\(uri)")
            }
        }
    }

    @Test("openapi.yaml lists exactly the page's files under /web/{file}")
    func contractListsFiles() throws {
        let text = try String(contentsOf: Self.repository.appending(path: "openapi.yaml"), encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        let get = try #require((paths["/web/{file}"] as? [String: Any])?["get"] as? [String: Any])
        let parameter = try #require((get["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "file" })
        let listed = try #require((parameter["schema"] as? [String: Any])?["enum"] as? [String])
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.webDirectory.path(percentEncoded: false)).filter { $0 != "index.html" }
        #expect(Set(listed) == Set(files))
    }

    @Test("the whole page weighs under 100 KB compressed")
    func weight() async throws {
        try await withSeededServer { client in
            var total = 0
            for uri in ["/", "/web/app.js", "/web/style.css", "/web/icon.svg"] {
                total += try await client.request(uri, headers: [.acceptEncoding: "gzip"]).body.readableBytes
            }
            #expect(total < 100_000, "\(total) bytes")
        }
    }

    @Test("the page names nothing on another server and holds no inline script or style")
    func selfContained() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.webDirectory.path(percentEncoded: false))
        #expect(files.contains("index.html") && files.contains("app.js"), "\(files)")
        for file in files {
            let text = try String(contentsOf: Self.webDirectory.appending(path: file), encoding: .utf8)
            // The SVG namespace is a name, not something loaded.
            let loaded = text.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
            #expect(!loaded.contains("http://") && !loaded.contains("https://") && !loaded.contains("//fonts."), "\(file)")
            guard file.hasSuffix(".html") else { continue }
            #expect(!text.contains(" style="), "\(file): inline style attributes break the policy")
            #expect(!text.contains("<style"), "\(file)")
            #expect(text.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "\(file): inline event handlers break the policy")
            for script in text.components(separatedBy: "<script").dropFirst() {
                #expect(script.hasPrefix(" src=\"/web/"), "\(file): every script is a file of this server")
            }
        }
    }
}
