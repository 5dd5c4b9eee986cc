import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an ID: the caller's `X-Request-ID` when it is a sane token, else the
/// one Hummingbird generated. Every log line of the request carries it (`hb.request.id`),
/// and the answer returns it in `X-Request-ID`, so a client's report finds the server's logs.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let incoming = request.headers[.requestID], Self.isAcceptable(incoming) {
            context.logger[metadataKey: "hb.request.id"] = .string(incoming)
        }
        var response = try await next(request, context)
        response.headers[.requestID] = context.id
        return response
    }

    /// 1 to 128 characters of letters, digits and `-_.:`: nothing that could forge log lines.
    static func isAcceptable(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || "-_.:".utf8.contains(byte)
            }
    }
}
