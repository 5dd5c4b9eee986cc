import Hummingbird
import NIOCore

extension Problem {
    /// The problem as Frankfurter v2 answers on its routes: `{"status": …, "message": …}`,
    /// `"not found"` for a 404, 422 for input it cannot use (where our routes say 400).
    var frankfurterV2Response: Response {
        response(frankfurterStatus, body: JSONWriter.object { json in
            json.field("status", number: String(frankfurterStatus.code))
            json.field("message", string: frankfurterMessage)
        })
    }
}
