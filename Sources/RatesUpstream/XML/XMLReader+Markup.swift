// The syntax of tags, names, namespaces, text and the markup that carries no data.
extension XMLReader {
    // MARK: - Tags

    mutating func readStartTag() throws(UpstreamDataError) {
        let tagStart = position
        position += 1
        let (name, colon) = try readQualifiedName("element name")
        if open.isEmpty, let rootName { try checkRoot(name: name, colon: colon, expected: rootName, at: tagStart) }
        tagAttributes.removeAll(keepingCapacity: true)
        var namespaced = false  // an attribute declares a namespace or has a prefix
        var selfClosing = false
        while true {
            let spaced = skipWhitespace()
            guard position < count else { throw truncated("inside the tag <\(text(name))> at \(location(tagStart))") }
            let byte = bytes[position]
            if byte == ASCII.greaterThan {
                position += 1
                break
            }
            if byte == ASCII.slash {
                guard position + 1 < count else { throw truncated("inside the tag <\(text(name))> at \(location(tagStart))") }
                guard bytes[position + 1] == ASCII.greaterThan else { throw malformed("expected '>' after '/'", at: position + 1) }
                position += 2
                selfClosing = true
                break
            }
            guard spaced else { throw malformed("expected white space, '>' or '/>' in a tag", at: position) }
            let attributeStart = position
            let attribute = try readAttribute()
            for other in tagAttributes where equal(other.name, attribute.name) {
                throw malformed("attribute \(text(attribute.name)) appears twice", at: attributeStart)
            }
            guard tagAttributes.count < Self.maxAttributes else {
                throw .unexpectedDocument("a tag with more than \(Self.maxAttributes) attributes at \(location(tagStart))")
            }
            tagAttributes.append(attribute)
            namespaced = namespaced || attribute.colon != nil || attribute.isNamespaceDeclaration
        }

        let namespaceMark = namespaces.count
        if namespaced {
            try declareNamespaces()
            for attribute in tagAttributes where attribute.colon != nil && !attribute.isNamespaceDeclaration {
                try checkPrefix(attribute.prefix, at: tagStart)
            }
            try checkAttributesInNamespaces(at: tagStart)
        }
        if let colon { try checkPrefix(name.lowerBound..<colon, at: tagStart) }
        open.append(OpenElement(name: name, colon: colon, tagStart: tagStart, namespaceMark: namespaceMark))
        endPending = selfClosing
    }

    mutating func readEndTag() throws(UpstreamDataError) {
        let tagStart = position
        position += 2
        let (name, _) = try readQualifiedName("element name")
        skipWhitespace()
        guard position < count else { throw truncated("inside the end tag </\(text(name))>") }
        guard bytes[position] == ASCII.greaterThan else { throw malformed("expected '>' to close </\(text(name))", at: position) }
        position += 1
        guard let element = open.last, equal(element.name, name) else {
            let opened = open.last.map { " does not match <\(text($0.name))> opened at \(location($0.tagStart))" } ?? ""
            throw malformed("end tag </\(text(name))>\(opened)", at: tagStart)
        }
        closePending = true
    }

    /// The root must have the local name asked for; judged on its name alone, before its
    /// attributes, so that an HTML page is reported as such even when its attributes are not XML.
    func checkRoot(name: Range<Int>, colon: Int?, expected: String, at tagStart: Int) throws(UpstreamDataError) {
        guard position < count else { throw truncated("inside the root element's name") }
        let localName = colon.map { ($0 + 1)..<name.upperBound } ?? name
        guard equal(localName, expected) else {
            throw .unexpectedDocument("the root element is <\(text(name))> at \(location(tagStart)); expected <\(expected)>")
        }
    }

    mutating func readAttribute() throws(UpstreamDataError) -> Attribute {
        let (name, colon) = try readQualifiedName("attribute name")
        skipWhitespace()
        guard position < count else { throw truncated("after the attribute name \(text(name))") }
        guard bytes[position] == ASCII.equals else { throw malformed("expected '=' after the attribute name \(text(name))", at: position) }
        position += 1
        skipWhitespace()
        guard position < count else { throw truncated("before the value of \(text(name))") }
        let quote = bytes[position]
        guard quote == ASCII.doubleQuote || quote == ASCII.singleQuote else {
            throw malformed("the value of \(text(name)) is not quoted", at: position)
        }
        position += 1
        let valueStart = position
        var isVerbatim = true
        while true {
            guard position < count else { throw truncated("inside the value of \(text(name))") }
            let byte = bytes[position]
            if byte == quote { break }
            if byte == ASCII.lessThan { throw malformed("'<' in the value of \(text(name))", at: position) }
            if byte == ASCII.ampersand {
                position = try reference(at: position).end
                isVerbatim = false
                continue
            }
            if byte == ASCII.tab || byte == ASCII.lineFeed || byte == ASCII.carriageReturn { isVerbatim = false }
            position += 1
        }
        let value = valueStart..<position
        position += 1
        let isNamespaceDeclaration = equal(colon.map { name.lowerBound..<$0 } ?? name, ASCII.xmlns)
        return Attribute(name: name, colon: colon, value: value, isVerbatim: isVerbatim, isNamespaceDeclaration: isNamespaceDeclaration)
    }

    /// A name, optionally `prefix:local`; returns its range and the colon's offset.
    mutating func readQualifiedName(_ what: String) throws(UpstreamDataError) -> (Range<Int>, colon: Int?) {
        let start = position
        guard position < count else { throw truncated("before the \(what)") }
        guard bytes[position].isXMLNameStart else { throw malformed("expected an \(what)", at: position) }
        position += 1
        var colon: Int?
        while position < count {
            let byte = bytes[position]
            if byte == ASCII.colon {
                guard colon == nil else { throw malformed("\(what) with two colons", at: start) }
                guard position + 1 < count else { throw truncated("inside the \(what)") }
                guard bytes[position + 1].isXMLNameStart else { throw malformed("\(what) with an empty or invalid local part", at: start) }
                colon = position
            } else if !byte.isXMLNameCharacter {
                break
            }
            position += 1
        }
        return (start..<position, colon)
    }

    // MARK: - Namespaces

    /// Puts the namespace declarations of the tag just read in scope.
    ///
    /// Each URI is decoded once here and compared with those already in scope (at most
    /// ``maxNamespaceDeclarations``), so that later look-ups and comparisons cost no more.
    mutating func declareNamespaces() throws(UpstreamDataError) {
        for attribute in tagAttributes where attribute.isNamespaceDeclaration {
            let name = attribute.name
            let prefix = attribute.colon == nil ? name.lowerBound..<name.lowerBound : attribute.localName
            let uri = value(of: attribute)
            if attribute.colon != nil {
                if equal(prefix, ASCII.xmlns) || equal(prefix, ASCII.xml) {
                    throw malformed("the prefix \(text(prefix)) cannot be declared", at: name.lowerBound)
                }
                if uri.isEmpty {
                    throw malformed("the namespace prefix \(text(prefix)) is declared with an empty name", at: name.lowerBound)
                }
            }
            if same(uri, Self.xmlNamespace) || same(uri, Self.xmlnsNamespace) {
                throw malformed("the namespace \(uri) is reserved for its own prefix", at: name.lowerBound)
            }
            let uriIndex = namespaces.firstIndex { same($0.uri, uri) }.map { namespaces[$0].uriIndex } ?? namespaces.count
            namespaces.append(NamespaceDeclaration(prefix: prefix, uri: uri, uriIndex: uriIndex))
            guard namespaces.count <= Self.maxNamespaceDeclarations else {
                throw .unexpectedDocument("more than \(Self.maxNamespaceDeclarations) namespace declarations in scope at \(location(position))")
            }
        }
    }

    func checkPrefix(_ prefix: Range<Int>, at offset: Int) throws(UpstreamDataError) {
        if equal(prefix, ASCII.xml) { return }
        guard !equal(prefix, ASCII.xmlns) else { throw malformed("the prefix xmlns is reserved", at: offset) }
        guard namespaceIndex(prefix: prefix) != nil else { throw malformed("undeclared namespace prefix \(text(prefix))", at: offset) }
    }

    /// Two attributes of one tag may not share a local name and a namespace (`a:x` and `b:x`
    /// with `a` and `b` bound to the same URI). Prefixes are known to be declared.
    func checkAttributesInNamespaces(at tagStart: Int) throws(UpstreamDataError) {
        // The namespace of each prefixed attribute, as the index of its URI's first declaration (-1 for `xml`).
        let prefixed = tagAttributes.filter { $0.colon != nil && !$0.isNamespaceDeclaration }.map { attribute in
            (attribute, namespaceIndex(prefix: attribute.prefix).map { namespaces[$0].uriIndex } ?? -1)
        }
        for (index, (attribute, namespace)) in prefixed.enumerated() {
            for (other, otherNamespace) in prefixed[(index + 1)...] where namespace == otherNamespace && equal(attribute.localName, other.localName) {
                throw malformed("attributes \(text(attribute.name)) and \(text(other.name)) have the same name and namespace", at: tagStart)
            }
        }
    }

    /// The namespace URI `prefix` is bound to (an empty prefix: the default namespace); nil for none.
    func namespaceURI(prefix: Range<Int>) -> String? {
        if equal(prefix, ASCII.xml) { return Self.xmlNamespace }
        guard let index = namespaceIndex(prefix: prefix), !namespaces[index].uri.isEmpty else { return nil }
        return namespaces[index].uri
    }

    /// Whether `prefix` (an empty prefix: the default namespace) is bound to `uri` (nil: to no namespace).
    func isNamespace(of prefix: Range<Int>, _ uri: String?) -> Bool {
        guard let bound = namespaceURI(prefix: prefix) else { return uri == nil }
        guard let uri else { return false }
        return same(bound, uri)
    }

    /// The index in `namespaces` of the declaration in scope for `prefix`, innermost first.
    func namespaceIndex(prefix: Range<Int>) -> Int? {
        namespaces.lastIndex { equal($0.prefix, prefix) }
    }

    /// Whether two namespace URIs are the same, character for character (as XML namespaces
    /// compare them, without Unicode normalization).
    func same(_ uri: String, _ other: String) -> Bool {
        uri.utf8.count == other.utf8.count && uri.utf8.elementsEqual(other.utf8)
    }

    // MARK: - Text

    /// Character data up to the next `<` or the end; references are checked.
    mutating func readCharacterData() throws(UpstreamDataError) {
        let start = position
        var isBlank = true
        var isVerbatim = true
        while position < count {
            let byte = bytes[position]
            if byte == ASCII.lessThan { break }
            if byte == ASCII.ampersand {
                position = try reference(at: position).end
                isBlank = false
                isVerbatim = false
                continue
            }
            if byte == ASCII.closingBracket, hasLiteral(ASCII.cdataEnd) {
                throw malformed("']]>' in text", at: position)
            }
            if byte == ASCII.carriageReturn { isVerbatim = false }
            if !byte.isXMLWhitespace { isBlank = false }
            position += 1
        }
        setText(start..<position, isCDATA: false, isVerbatim: isVerbatim, isBlank: isBlank)
    }

    mutating func readCDATA() throws(UpstreamDataError) {
        let start = position
        position += ASCII.cdataStart.utf8CodeUnitCount
        let contentStart = position
        var isBlank = true
        var isVerbatim = true
        while true {
            guard position < count else { throw truncated("inside the CDATA section opened at \(location(start))") }
            let byte = bytes[position]
            if byte == ASCII.closingBracket, hasLiteral(ASCII.cdataEnd) { break }
            if byte == ASCII.carriageReturn { isVerbatim = false }
            if !byte.isXMLWhitespace { isBlank = false }
            position += 1
        }
        setText(contentStart..<position, isCDATA: true, isVerbatim: isVerbatim, isBlank: isBlank)
        position += ASCII.cdataEnd.utf8CodeUnitCount
    }

    private mutating func setText(_ range: Range<Int>, isCDATA: Bool, isVerbatim: Bool, isBlank: Bool) {
        textRange = range
        textIsCDATA = isCDATA
        textIsVerbatim = isVerbatim
        textIsBlank = isBlank
    }

    // MARK: - Markup that carries no data

    /// Skips white space, comments and processing instructions before or after the root element.
    mutating func skipMiscellany(beforeRoot: Bool) throws(UpstreamDataError) {
        while true {
            skipWhitespace()
            guard position < count else {
                if beforeRoot { throw truncated("before the root element") }
                return
            }
            if hasLiteral(ASCII.commentStart) {
                try skipComment()
            } else if hasLiteral(ASCII.processingInstructionStart) {
                try skipProcessingInstruction()
            } else if !beforeRoot {
                throw malformed("content after the end of the root element", at: position)
            } else if bytes[position] != ASCII.lessThan {
                throw malformed("text before the root element", at: position)
            } else if hasLiteral(ASCII.doctypeStart, ignoringCase: true) {
                throw .unexpectedDocument("document type declaration at \(location(position)), which the reader does not read (an HTML page?)")
            } else {
                return
            }
        }
    }

    /// Reads the XML declaration at `position`; returns the encoding it names (UTF-8 if none).
    mutating func readXMLDeclaration() throws(UpstreamDataError) -> XMLEncoding {
        let start = position
        position += ASCII.xmlDeclarationStart.utf8CodeUnitCount
        var found: [Attribute] = []
        while true {
            let spaced = skipWhitespace()
            guard position < count else { throw truncated("inside the XML declaration") }
            if hasLiteral(ASCII.processingInstructionEnd) {
                position += 2
                break
            }
            guard spaced else { throw malformed("expected white space or '?>' in the XML declaration", at: position) }
            found.append(try readAttribute())
        }
        // version, then optionally encoding, then optionally standalone.
        let expected = [ASCII.version, ASCII.encoding, ASCII.standalone]
        var next = 0
        var encoding = XMLEncoding.utf8
        for attribute in found {
            guard let index = expected[next...].firstIndex(where: { equal(attribute.name, $0) }), next > 0 || index == 0 else {
                throw malformed("invalid XML declaration (version, encoding, standalone in that order)", at: start)
            }
            next = index + 1
            let value = text(attribute.value)
            switch index {
            case 0:
                guard value.hasPrefix("1."), value.count > 2, value.utf8.dropFirst(2).allSatisfy(\.isASCIIDigit) else {
                    throw malformed("unsupported XML version \(UpstreamDataError.quoted(value))", at: start)
                }
            case 1:
                // EncName: a letter, then letters, digits, '.', '_' and '-'.
                let isEncodingNameCharacter = { (byte: UInt8) in
                    byte.isASCIILetter || byte.isASCIIDigit || byte == ASCII.period || byte == ASCII.underscore || byte == ASCII.hyphen
                }
                guard let first = value.utf8.first, first.isASCIILetter, value.utf8.allSatisfy(isEncodingNameCharacter) else {
                    throw malformed("invalid encoding name \(UpstreamDataError.quoted(value))", at: start)
                }
                guard let named = XMLEncoding(name: value) else {
                    throw .unexpectedDocument(
                        "the document is encoded in \(UpstreamDataError.quoted(value)); the reader reads \(XMLEncoding.readable)")
                }
                encoding = named
            default:
                guard value == "yes" || value == "no" else { throw malformed("standalone must be yes or no", at: start) }
            }
        }
        guard next > 0 else { throw malformed("the XML declaration has no version", at: start) }
        return encoding
    }

    mutating func skipProcessingInstruction() throws(UpstreamDataError) {
        let start = position
        position += 2
        guard position < count else { throw truncated("inside a processing instruction") }
        guard bytes[position].isXMLNameStart else { throw malformed("expected a processing instruction target", at: position) }
        let targetStart = position
        while position < count, bytes[position].isXMLNameCharacter || bytes[position] == ASCII.colon { position += 1 }
        if text(targetStart..<position).lowercased() == "xml" {
            throw malformed("an XML declaration is only allowed at the very start", at: start)
        }
        if !hasLiteral(ASCII.processingInstructionEnd) {
            guard position < count else { throw truncated("inside a processing instruction") }
            guard skipWhitespace() else { throw malformed("invalid processing instruction target", at: targetStart) }
        }
        while position < count {
            if hasLiteral(ASCII.processingInstructionEnd) {
                position += 2
                return
            }
            position += 1
        }
        throw truncated("inside the processing instruction opened at \(location(start))")
    }

    mutating func skipComment() throws(UpstreamDataError) {
        let start = position
        position += ASCII.commentStart.utf8CodeUnitCount
        while position + 1 < count {
            if bytes[position] == ASCII.hyphen, bytes[position + 1] == ASCII.hyphen {
                guard position + 2 < count else { break }
                guard bytes[position + 2] == ASCII.greaterThan else { throw malformed("'--' inside a comment", at: position) }
                position += 3
                return
            }
            position += 1
        }
        throw truncated("inside the comment opened at \(location(start))")
    }
}
