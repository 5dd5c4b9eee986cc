/// An HTML form's fields as a request body (`application/x-www-form-urlencoded`), for the sources
/// whose data is the answer to a form post (an ASP.NET page's postback, a search form).
enum FormBody {
    /// The header a form post sends with its body.
    static let contentType = ["Content-Type": "application/x-www-form-urlencoded"]

    /// `fields` in order as `name=value&…`, each name and value percent-encoded as browsers do
    /// (a space as `+`; letters, digits and `*-._` kept; every other byte of the UTF-8 as `%XX`).
    static func encode(_ fields: [(name: String, value: String)]) -> String {
        fields.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// One name or value percent-encoded.
    static func encode(_ text: String) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                encoded.append(byte)
            case UInt8(ascii: " "):
                encoded.append(UInt8(ascii: "+"))
            default:
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// `0`–`9`, `A`–`F` as bytes.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}

extension ProviderRequest {
    /// A form post: `fields` in order, encoded as a ``FormBody``, posted to `url` with ``FormBody/contentType`` and
    /// the `Cookie` header `cookie` (the form page's session) when there is one.
    static func formPost(url: String, cookie: String? = nil, fields: [(name: String, value: String)]) -> ProviderRequest {
        var headers = FormBody.contentType
        if let cookie { headers["Cookie"] = cookie }
        return ProviderRequest(url: url, method: .post, headers: headers, body: FormBody.encode(fields))
    }
}
