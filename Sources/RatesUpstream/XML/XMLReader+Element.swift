extension XMLReader {
    /// An element read whole: its name, attributes, text and child elements.
    ///
    /// For documents small enough to hold as a tree, such as one day's rates from one bank:
    ///
    /// ```swift
    /// let root = try XMLReader.Element(parsing: data, root: "ValCurs")
    /// for valute in root.children("Valute") {
    ///     let code = valute.child("CharCode")?.text
    ///     // …
    /// }
    /// ```
    ///
    /// Read long documents (the ECB's full history) event by event with ``XMLReader/next()``.
    public struct Element: Equatable, Sendable {
        /// Deepest nesting read into a tree (the root is at depth 1), so that a hostile document
        /// cannot exhaust the stack when a tree is compared or released. Providers' documents nest 3 to 5 deep.
        public static let maxDepth = 100

        /// The name without its prefix: `Cube` for `<ecb:Cube>`.
        public var localName: String
        /// The name as written: `ecb:Cube`.
        public var qualifiedName: String
        /// The namespace the element's prefix is bound to, or the default namespace for an
        /// unprefixed name; nil for none.
        public var namespaceURI: String?
        /// The attributes in document order, without namespace declarations.
        public var attributes: [XMLAttribute]
        /// The character data directly inside the element, not inside its children, joined:
        /// references replaced, CDATA sections included, white space as written.
        public var text: String
        /// The child elements in document order.
        public var children: [Element]

        /// The value of the unprefixed attribute `localName` (in no namespace); nil if there is none.
        public func attribute(_ localName: String) -> String? {
            attributes.first { $0.namespaceURI == nil && $0.localName == localName }?.value
        }

        /// The value of the attribute `localName` in the namespace `namespaceURI`; nil if there is none.
        public func attribute(_ localName: String, namespaceURI: String) -> String? {
            attributes.first { $0.namespaceURI == namespaceURI && $0.localName == localName }?.value
        }

        /// The first child element with the local name `localName`, in any namespace.
        public func child(_ localName: String) -> Element? {
            children.first { $0.localName == localName }
        }

        /// The child elements with the local name `localName`, in any namespace, in document order.
        public func children(_ localName: String) -> [Element] {
            children.filter { $0.localName == localName }
        }
    }
}

extension XMLReader.Element {
    /// Reads a whole document; returns its root element.
    ///
    /// - Parameters:
    ///   - data: The document's bytes, in any encoding ``XMLEncoding`` covers.
    ///   - root: The local name the root element must have, if any (see ``XMLReader/init(_:root:)``).
    /// - Throws: What ``XMLReader/init(_:root:)`` and ``XMLReader/next()`` throw, and
    ///   `UpstreamDataError.unexpectedDocument` for elements nested deeper than ``maxDepth``.
    public init(parsing data: some Collection<UInt8>, root: String? = nil) throws(UpstreamDataError) {
        var reader = try XMLReader(data, root: root)
        _ = try reader.next()
        try self.init(reading: &reader)
        // What follows the root element's end is checked too: the document ends here.
        _ = try reader.next()
    }

    /// Reads the element just started (the last event is `.startElement`) whole, up to and including
    /// its end tag; the reader's next event is what follows it.
    ///
    /// - Throws: What ``XMLReader/next()`` throws, and `UpstreamDataError.unexpectedDocument` for
    ///   elements nested deeper than ``maxDepth`` in the document.
    init(reading reader: inout XMLReader) throws(UpstreamDataError) {
        var open: [Self] = []
        // The element just started, then every event up to its end.
        while let event = try open.isEmpty ? reader.event : reader.next() {
            switch event {
            case .startElement:
                guard reader.depth <= Self.maxDepth else {
                    throw .unexpectedDocument("elements nested more than \(Self.maxDepth) deep at \(reader.location)")
                }
                open.append(
                    Self(
                        localName: reader.localName, qualifiedName: reader.qualifiedName, namespaceURI: reader.namespaceURI,
                        attributes: reader.attributes, text: "", children: []))
            case .text:
                open[open.count - 1].text += reader.text
            case .endElement:
                let element = open.removeLast()
                guard !open.isEmpty else {
                    self = element
                    return
                }
                open[open.count - 1].children.append(element)
            }
        }
        // `next()` returns nil only after the root element's end, so an element was started and has ended.
        throw .malformedXML("no root element")
    }
}
