import Hummingbird
import NIOCore

extension Problem {
    /// The problem as Frankfurter v2 answers on its routes: `{"status": …, "message": …}`,
    /// `"not found"` for a 404, 422 for input it cannot use (where our routes say 400).
    var frankfurterV2Response: Response {
        let status: HTTPResponse.Status = kind.status == .badRequest ? .unprocessableContent : kind.status
        var json = JSONWriter()
        json.object { json in
            json.field("status", number: String(status.code))
            json.field("message", string: status == .notFound ? "not found" : detail)
        }
        var fields = headers
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: json.buffer))
    }
}
