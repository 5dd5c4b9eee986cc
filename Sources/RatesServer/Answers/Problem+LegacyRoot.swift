import Hummingbird
import NIOCore

extension Problem {
    /// The error both legacy APIs' clients read on the root routes: Frankfurter's `{"message": …}`
    /// with its statuses (``frankfurterStatus``: `404` with `"not found"`, `422` for input it cannot
    /// use), and exchangerate.host's `"success": false` with the `error` object its later clients
    /// read (`code`: the status, `type`: the problem kind, `info`: what went wrong).
    var legacyRootResponse: Response {
        response(frankfurterStatus, body: JSONWriter.object { json in
            json.field("success", bool: false)
            json.field("message", string: frankfurterMessage)
            json.field("error") { json in
                json.field("code", number: String(frankfurterStatus.code))
                json.field("type", string: kind.rawValue)
                json.field("info", string: detail)
            }
        })
    }
}
