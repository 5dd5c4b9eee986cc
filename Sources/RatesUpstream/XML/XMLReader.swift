/// A strict XML 1.0 reader with namespaces, for the documents upstream providers publish.
///
/// Pull it one event at a time with ``next()``; between calls, ask about the element (its local
/// name, namespace URI, attributes) or the text the event reported:
///
/// ```swift
/// var reader = try XMLReader(data, root: "ValCurs")
/// while let event = try reader.next() {
///     guard event == .startElement, reader.isElement("Valute") else { continue }
///     let id = reader.attribute("ID")
///     // …
/// }
/// ```
///
/// The reader keeps one copy of the document and makes strings only when asked, so long
/// documents (the ECB's full history, 200,000 elements) read fast. For short ones,
/// ``Element/init(parsing:root:)`` reads the whole document into a tree instead.
///
/// The reader is hand-written over bytes (Foundation's `XMLParser` is not available in the
/// static Linux build) and strict: it reads a document only as far as it is well-formed,
/// checking the XML declaration, processing instructions, comments, CDATA sections, tags with
/// single- or double-quoted attributes, self-closing tags, balanced nesting, declared namespace
/// prefixes, the predefined entities and character references, the encoding (see
/// ``XMLEncoding``) and the characters XML allows. Line ends are normalized as XML requires
/// (CR LF and CR become LF; in attribute values, tabs and line ends become spaces).
///
/// Errors are `UpstreamDataError`:
/// - `.empty` for a document that is empty or only white space;
/// - `.malformedXML` for anything not well-formed, with its line, column and byte offset;
/// - `.unexpectedDocument` for what the reader declines to read: a document type declaration
///   (`<!DOCTYPE`, as HTML pages have), an encoding other than ``XMLEncoding``'s, a root
///   element other than the one asked for, more than ``maxAttributes`` attributes on a tag or
///   more than ``maxNamespaceDeclarations`` namespace declarations in scope (bounds that keep
///   hostile input at linear cost).
///
/// It never traps, whatever the input. Simplifications, all on the strict side or outside the
/// documents providers publish: without a document type declaration no entity other than the
/// five predefined ones exists; any non-ASCII character counts as a name character; a
/// document declaring version 1.1 is read as 1.0.
public struct XMLReader {
    /// What ``next()`` read.
    public enum Event: Equatable, Sendable {
        /// A start tag (`<a …>`), or an empty-element tag (`<a …/>`), which is then followed by
        /// its own ``endElement``. The element's name and attributes can be read until the next call.
        case startElement
        /// An end tag, or the end of an empty-element tag. The element's name can be read until the next call.
        case endElement
        /// Character data: a run of text between two pieces of markup, or one CDATA section.
        /// Read it with ``XMLReader/text``; a comment or processing instruction inside text splits it in two.
        case text
    }

    /// Most attributes one tag may have (namespace declarations included).
    public static let maxAttributes = 32
    /// Most namespace declarations in scope at once.
    public static let maxNamespaceDeclarations = 32

    /// The document's encoding, from its byte order mark or XML declaration; UTF-8 without either.
    public private(set) var encoding = XMLEncoding.utf8

    /// The last event ``next()`` returned; nil before the first call and at the end of the document.
    public private(set) var event: Event?

    /// Owns ``bytes``: a copy of the document, or its text in UTF-8 if it was in another encoding.
    var storage: Storage
    /// The document as UTF-8. Every index is checked against `count` before use.
    var bytes: UnsafeBufferPointer<UInt8>
    /// The document's size in bytes as given, for messages.
    let documentSize: Int
    /// The local name the root element must have, if any.
    let rootName: String?

    var position = 0
    var phase = Phase.prolog
    /// The open elements, innermost last. An element whose end was reported stays until the next call.
    var open: [OpenElement] = []
    var namespaces: [NamespaceDeclaration] = []
    /// The attributes of the last start tag read, reused from tag to tag.
    var tagAttributes: [Attribute] = []
    /// Where the markup or text of the current event starts.
    var eventStart = 0
    /// The current text event: its bytes (the content only, for a CDATA section)…
    var textRange = 0..<0
    /// … whether they are a CDATA section's…
    var textIsCDATA = false
    /// … whether they need more than a copy to become the text (a reference, a carriage return)…
    var textIsVerbatim = true
    /// … and whether they are only white space, none of it written as a reference.
    var textIsBlank = true
    /// An empty-element tag was reported as `.startElement`; its `.endElement` comes next.
    var endPending = false
    /// The innermost element's end was reported; it is closed at the next call.
    var closePending = false

    enum Phase {
        /// Before the root element.
        case prolog
        /// Inside the root element.
        case content
        /// After the root element's end: the document was read to its end.
        case finished
    }

    struct OpenElement {
        var name: Range<Int>
        /// The offset of the colon in `name`, if it has a prefix.
        var colon: Int?
        var tagStart: Int
        /// The number of namespace declarations in scope outside this element.
        var namespaceMark: Int

        var localName: Range<Int> { colon.map { ($0 + 1)..<name.upperBound } ?? name }
        /// Empty for no prefix.
        var prefix: Range<Int> { name.lowerBound..<(colon ?? name.lowerBound) }
    }

    struct Attribute {
        var name: Range<Int>
        /// The offset of the colon in `name`, if it has a prefix.
        var colon: Int?
        var value: Range<Int>
        /// Whether the value's bytes are its text: no reference, no tab or line end to normalize.
        var isVerbatim: Bool
        /// `xmlns="…"` or `xmlns:prefix="…"`.
        var isNamespaceDeclaration: Bool

        var localName: Range<Int> { colon.map { ($0 + 1)..<name.upperBound } ?? name }
        /// Empty for no prefix.
        var prefix: Range<Int> { name.lowerBound..<(colon ?? name.lowerBound) }
    }

    struct NamespaceDeclaration {
        /// Empty for the default namespace.
        var prefix: Range<Int>
        /// References replaced; empty for `xmlns=""`, which puts unprefixed names in no namespace.
        var uri: String
        /// The index in `namespaces` of the first declaration in scope with the same URI, so
        /// that two prefixes' URIs compare in constant time.
        var uriIndex: Int
    }

    /// Reads the document's encoding and checks its characters; elements are read by ``next()``.
    ///
    /// - Parameters:
    ///   - data: The document's bytes (`Data`, `[UInt8]`, a NIO `ByteBufferView`…), copied.
    ///   - root: The local name the root element must have, if any. Another root element is
    ///     `.unexpectedDocument`, judged on its name before its attributes, so that an HTML
    ///     error page is reported as such even when its attributes are not XML.
    /// - Throws: `UpstreamDataError.empty` for an empty or blank document; `.malformedXML` for
    ///   a broken XML declaration, invalid UTF-8, a byte the declared encoding does not define or
    ///   a character XML does not allow, anywhere in the document; `.unexpectedDocument` for an
    ///   encoding the reader does not read (UTF-16 and UTF-32 among them).
    public init(_ data: some Collection<UInt8>, root: String? = nil) throws(UpstreamDataError) {
        storage = Storage(copying: data)
        bytes = UnsafeBufferPointer(storage.bytes)
        documentSize = bytes.count
        rootName = root
        open.reserveCapacity(8)
        tagAttributes.reserveCapacity(8)

        let byteOrderMark = hasLiteral(ASCII.byteOrderMark)
        if byteOrderMark {
            position = ASCII.byteOrderMark.utf8CodeUnitCount
        } else if count >= 2, bytes[0] == 0xFE && bytes[1] == 0xFF || bytes[0] == 0xFF && bytes[1] == 0xFE {
            throw .unexpectedDocument("the document starts with a UTF-16 or UTF-32 byte order mark; the reader reads \(XMLEncoding.readable)")
        }
        let start = position
        skipWhitespace()
        if position == count { throw .empty }
        position = start

        // The XML declaration is ASCII in every encoding read, so it is read before decoding.
        if hasLiteral(ASCII.xmlDeclarationStart), position + 5 == count || bytes[position + 5].isXMLWhitespace {
            let declared = try readXMLDeclaration()
            if byteOrderMark, declared != .utf8 {
                throw malformed("the document starts with a UTF-8 byte order mark but declares \(declared.rawValue)", at: start)
            }
            if let upperHalf = declared.upperHalf { try decode(upperHalf, from: declared) }
            encoding = declared
        }
        try checkCharacters()
    }

    var count: Int { bytes.count }

    // MARK: - Events

    /// Reads up to the next start tag, end tag or text; nil at the end of the document.
    ///
    /// White space, comments and processing instructions around the root element, and
    /// comments and processing instructions inside it, are checked and skipped. The end of the
    /// document comes only after the root element's end tag and everything after it were read.
    ///
    /// - Throws: `UpstreamDataError.malformedXML` where the document stops being well-formed,
    ///   `.unexpectedDocument` for what the reader declines (see ``XMLReader``). The reader
    ///   does not recover from an error: stop reading.
    public mutating func next() throws(UpstreamDataError) -> Event? {
        if endPending {
            endPending = false
            closePending = true
            return report(.endElement)
        }
        if closePending {
            closePending = false
            let element = open.removeLast()
            if namespaces.count > element.namespaceMark { namespaces.removeSubrange(element.namespaceMark...) }
        }
        switch phase {
        case .prolog:
            try skipMiscellany(beforeRoot: true)
            phase = .content
            eventStart = position
            try readStartTag()
            return report(.startElement)
        case .content:
            while let element = open.last {
                guard position < count else {
                    throw truncated("<\(text(element.name))> opened at \(location(element.tagStart)) is not closed")
                }
                eventStart = position
                guard bytes[position] == ASCII.lessThan else {
                    try readCharacterData()
                    return report(.text)
                }
                guard position + 1 < count else { throw truncated("inside a tag") }
                switch bytes[position + 1] {
                case ASCII.slash:
                    try readEndTag()
                    return report(.endElement)
                case ASCII.exclamationMark:
                    if hasLiteral(ASCII.commentStart) {
                        try skipComment()
                    } else if hasLiteral(ASCII.cdataStart) {
                        try readCDATA()
                        return report(.text)
                    } else if position + ASCII.cdataStart.utf8CodeUnitCount > count {
                        throw truncated("inside markup")
                    } else {
                        throw malformed("unexpected markup (only comments and CDATA sections start with '<!' here)", at: position)
                    }
                case ASCII.questionMark:
                    try skipProcessingInstruction()
                default:
                    try readStartTag()
                    return report(.startElement)
                }
            }
            try skipMiscellany(beforeRoot: false)
            phase = .finished
            return report(nil)
        case .finished:
            return nil
        }
    }

    private mutating func report(_ event: Event?) -> Event? {
        self.event = event
        return event
    }

    /// Reads the text inside the innermost open element (after `.startElement`, the element
    /// just started) up to and including its end tag; the next event is what follows it.
    ///
    /// Text events, CDATA sections included, are joined; comments and processing instructions
    /// are skipped. For `<Name>Australian &amp; <!-- x -->dollar</Name>`: `Australian & dollar`.
    ///
    /// - Throws: What ``next()`` throws, and `UpstreamDataError.unexpectedDocument` if the
    ///   element holds an element.
    public mutating func readText() throws(UpstreamDataError) -> String {
        let depth = open.count - (closePending ? 1 : 0)
        guard depth > 0 else { return "" }
        var result = ""
        while let event = try next() {
            switch event {
            case .text:
                result += text
            case .endElement:
                return result
            case .startElement:
                throw .unexpectedDocument("<\(qualifiedName)> at \(location) inside <\(text(open[depth - 1].name))>, which holds only text")
            }
        }
        return result
    }

    /// Skips the rest of the innermost open element (after `.startElement`, the element just
    /// started, whole), up to and including its end tag, checking it is well-formed.
    ///
    /// - Throws: What ``next()`` throws.
    public mutating func skipElement() throws(UpstreamDataError) {
        let depth = open.count - (closePending ? 1 : 0)
        guard depth > 0 else { return }
        while let event = try next() {
            if event == .endElement, open.count == depth { return }
        }
    }

    // MARK: - The current element

    /// How deep the current element is: 1 for the root. The current element is the one a
    /// `.startElement` or `.endElement` event reported, or the one holding a `.text` event's text.
    public var depth: Int { open.count }

    /// The current element's local name: `Cube` for `<Cube>` and for `<ecb:Cube>`.
    public var localName: String { open.last.map { text($0.localName) } ?? "" }

    /// The current element's name as written: `ecb:Cube` for `<ecb:Cube>`.
    public var qualifiedName: String { open.last.map { text($0.name) } ?? "" }

    /// The current element's namespace URI: the one its prefix is bound to, or the default
    /// namespace in scope for an unprefixed name; nil for none.
    public var namespaceURI: String? {
        guard let element = open.last else { return nil }
        return namespaceURI(prefix: element.prefix)
    }

    /// Whether the current element has the local name `localName`, in any namespace.
    public func isElement(_ localName: String) -> Bool {
        guard let element = open.last else { return false }
        return equal(element.localName, localName)
    }

    /// Whether the current element has the local name `localName` in the namespace
    /// `namespaceURI` (nil: in no namespace).
    public func isElement(_ localName: String, namespaceURI: String?) -> Bool {
        guard let element = open.last, equal(element.localName, localName) else { return false }
        return isNamespace(of: element.prefix, namespaceURI)
    }

    /// The current element's attributes in document order, without namespace declarations;
    /// empty unless the last event is `.startElement`.
    public var attributes: [XMLAttribute] {
        guard event == .startElement else { return [] }
        return tagAttributes.filter { !$0.isNamespaceDeclaration }.map { attribute in
            XMLAttribute(
                qualifiedName: text(attribute.name),
                localName: text(attribute.localName),
                namespaceURI: attribute.colon == nil ? nil : namespaceURI(prefix: attribute.prefix),
                value: value(of: attribute))
        }
    }

    /// The value of the current element's unprefixed attribute `localName` (which, as XML
    /// namespaces have it, is in no namespace), with references replaced; nil if it has none,
    /// or if the last event is not `.startElement`.
    public func attribute(_ localName: String) -> String? {
        unprefixedAttribute(localName).map(value(of:))
    }

    /// The value of the current element's attribute `localName` in the namespace
    /// `namespaceURI`, with references replaced; nil if it has none, or if the last event is
    /// not `.startElement`.
    public func attribute(_ localName: String, namespaceURI: String) -> String? {
        guard event == .startElement else { return nil }
        return tagAttributes.first {
            $0.colon != nil && !$0.isNamespaceDeclaration && equal($0.localName, localName) && isNamespace(of: $0.prefix, namespaceURI)
        }.map(value(of:))
    }

    /// The unprefixed attribute `localName` of the start tag just read, as ranges of ``bytes``.
    func unprefixedAttribute(_ localName: String) -> Attribute? {
        guard event == .startElement else { return nil }
        return tagAttributes.first { $0.colon == nil && !$0.isNamespaceDeclaration && equal($0.name, localName) }
    }

    // MARK: - The current text

    /// The text of the current `.text` event: with references replaced and line ends
    /// normalized, or a CDATA section's content as written (line ends normalized). Empty for
    /// other events.
    public var text: String {
        guard event == .text else { return "" }
        return decode(textRange, as: textIsCDATA ? .cdata : .characterData, verbatim: textIsVerbatim)
    }

    /// Whether the current `.text` event is only white space, as between the elements of most
    /// documents. A reference counts as content, even `&#32;`.
    public var isWhitespace: Bool { event == .text && textIsBlank }

    /// Where the current event starts, for messages: `line 3, column 7 (byte 120)`, counted
    /// from 1 (the byte offset from 0) in the document as given.
    public var location: String { location(eventStart) }
}

/// An attribute of an element, as ``XMLReader/attributes`` and ``XMLReader/Element`` give it.
public struct XMLAttribute: Equatable, Sendable {
    /// The name as written: `xml:lang`.
    public var qualifiedName: String
    /// The name without its prefix: `lang`.
    public var localName: String
    /// The namespace its prefix is bound to; nil for an unprefixed attribute, which is in no namespace.
    public var namespaceURI: String?
    /// The value, with references replaced and white space normalized.
    public var value: String

    public init(qualifiedName: String, localName: String, namespaceURI: String?, value: String) {
        self.qualifiedName = qualifiedName
        self.localName = localName
        self.namespaceURI = namespaceURI
        self.value = value
    }
}

extension XMLReader {
    /// A buffer the reader owns, so that ``XMLReader/bytes`` stays valid as long as any copy of the reader.
    final class Storage {
        let bytes: UnsafeMutableBufferPointer<UInt8>

        init(copying data: some Collection<UInt8>) {
            bytes = .allocate(capacity: data.count)
            _ = bytes.initialize(fromContentsOf: data)
        }

        deinit { bytes.deallocate() }
    }
}
