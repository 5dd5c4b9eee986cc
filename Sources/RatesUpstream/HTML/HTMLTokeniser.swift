/// Splits an HTML page into tags and text (``HTMLDocument/Token``), as ``HTMLDocument`` describes.
struct HTMLTokeniser {
    let scalars: [Unicode.Scalar]
    private var index = 0

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    /// Elements whose content is raw text up to their end tag, skipped.
    static let rawTextElements: Set<String> = ["script", "style"]

    mutating func tokens() throws(UpstreamDataError) -> [HTMLDocument.Token] {
        var tokens: [HTMLDocument.Token] = []
        var text = String.UnicodeScalarView()
        func flush() {
            if !text.isEmpty {
                tokens.append(.text(HTMLText.decodingReferences(String(text))))
                text = String.UnicodeScalarView()
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "<", index + 1 < scalars.count else {
                text.append(scalar)
                index += 1
                continue
            }
            let next = scalars[index + 1]
            if next == "!" {
                flush()
                if scalars[index...].starts(with: "<!--".unicodeScalars) {
                    try skip(past: "-->", from: index + 4, what: "a comment")
                } else {
                    try skip(past: ">", from: index + 2, what: "a <! declaration")
                }
            } else if next == "?" {
                flush()
                try skip(past: ">", from: index + 2, what: "a <? instruction")
            } else if next == "/", index + 2 < scalars.count, Self.isLetter(scalars[index + 2]) {
                flush()
                index += 2
                let name = readName()
                try skip(past: ">", from: index, what: "the end tag </\(name)>")
                tokens.append(.end(name))
            } else if Self.isLetter(next) {
                flush()
                index += 1
                let tag = try readTag()
                tokens.append(.start(tag))
                if Self.rawTextElements.contains(tag.name) && !tag.selfClosing {
                    try skipRawText(of: tag.name)
                    tokens.append(.end(tag.name))
                }
            } else {
                // A "<" that opens no tag ("a < b", "<3") is text, as in a browser.
                text.append(scalar)
                index += 1
            }
        }
        flush()
        return tokens
    }

    // MARK: - Tags

    /// A start tag's name, attributes and end, from just after its `<`.
    private mutating func readTag() throws(UpstreamDataError) -> HTMLTag {
        let name = readName()
        var attributes: [String: String] = [:]
        while true {
            skipWhitespace()
            guard index < scalars.count else { throw notClosed("the tag <\(name)>") }
            let scalar = scalars[index]
            if scalar == ">" {
                index += 1
                return HTMLTag(name: name, attributes: attributes)
            }
            if scalar == "/" {
                index += 1
                skipWhitespace()
                if index < scalars.count, scalars[index] == ">" {
                    index += 1
                    return HTMLTag(name: name, attributes: attributes, selfClosing: true)
                }
                continue
            }
            let attribute = readAttributeName()
            skipWhitespace()
            var value = ""
            if index < scalars.count, scalars[index] == "=" {
                index += 1
                skipWhitespace()
                value = try readAttributeValue(in: name)
            }
            // The first of an attribute given twice counts, as in a browser.
            if attributes[attribute] == nil { attributes[attribute] = value }
        }
    }

    /// A tag name from `index`: letters, digits, `-`, `:`, `_`, in lower case.
    private mutating func readName() -> String {
        var name = String.UnicodeScalarView()
        while index < scalars.count, Self.isNameCharacter(scalars[index]) {
            name.append(Self.lowercased(scalars[index]))
            index += 1
        }
        return String(name)
    }

    /// An attribute name: everything up to white space, `=`, `>` or `/`, in lower case (at least one character).
    private mutating func readAttributeName() -> String {
        var name = String.UnicodeScalarView()
        repeat {
            name.append(Self.lowercased(scalars[index]))
            index += 1
        } while index < scalars.count && !Self.isWhitespace(scalars[index]) && !["=", ">", "/"].contains(scalars[index])
        return String(name)
    }

    /// A quoted or bare attribute value, character references decoded.
    private mutating func readAttributeValue(in tag: String) throws(UpstreamDataError) -> String {
        guard index < scalars.count else { throw notClosed("the tag <\(tag)>") }
        var value = String.UnicodeScalarView()
        let quote = scalars[index]
        if quote == "\"" || quote == "'" {
            index += 1
            while index < scalars.count, scalars[index] != quote {
                value.append(scalars[index])
                index += 1
            }
            guard index < scalars.count else { throw notClosed("an attribute value of <\(tag)>") }
            index += 1
        } else {
            while index < scalars.count, !Self.isWhitespace(scalars[index]), scalars[index] != ">" {
                value.append(scalars[index])
                index += 1
            }
        }
        return HTMLText.decodingReferences(String(value))
    }

    // MARK: - Skipping

    /// Moves past the first `end` at or after `start`.
    private mutating func skip(past end: String, from start: Int, what: String) throws(UpstreamDataError) {
        guard start <= scalars.count, let found = scalars[start...].firstRange(of: Array(end.unicodeScalars)) else { throw notClosed(what) }
        index = found.upperBound
    }

    /// Moves past the content of a `<script>` or `<style>` and its end tag.
    private mutating func skipRawText(of name: String) throws(UpstreamDataError) {
        let pattern = Array(("</" + name).unicodeScalars)
        var position = index
        while position + pattern.count <= scalars.count {
            if zip(scalars[position..<position + pattern.count], pattern).allSatisfy({ Self.lowercased($0) == $1 }) {
                let after = position + pattern.count
                if after == scalars.count || !Self.isNameCharacter(scalars[after]) {
                    try skip(past: ">", from: after, what: "the end tag </\(name)>")
                    return
                }
            }
            position += 1
        }
        throw notClosed("a <\(name)>")
    }

    private mutating func skipWhitespace() {
        while index < scalars.count, Self.isWhitespace(scalars[index]) { index += 1 }
    }

    private func notClosed(_ what: String) -> UpstreamDataError {
        .layout("\(what) is not closed before the end of the page")
    }

    // MARK: - Characters

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == ":" || scalar == "_"
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
    }

    static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }
}
