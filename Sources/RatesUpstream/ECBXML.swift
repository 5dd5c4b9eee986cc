import RatesCore

/// The ECB's eurofxref XML files: `eurofxref-daily.xml`, `eurofxref-hist-90d.xml` and
/// `eurofxref-hist.xml`, all in one layout:
///
/// ```xml
/// <gesmes:Envelope xmlns:gesmes="…" xmlns="…">
///   <gesmes:subject>Reference rates</gesmes:subject>
///   <Cube>
///     <Cube time="2025-04-03">
///       <Cube currency="USD" rate="1.1097"/>
/// ```
///
/// The reader is hand-written over UTF-8 bytes (Foundation's `XMLParser` is not available in
/// the static Linux build) and strict: it checks the well-formedness of everything it reads
/// (the XML declaration, processing instructions, comments, CDATA sections, tags with single-
/// or double-quoted attributes, self-closing tags, balanced nesting, declared namespace
/// prefixes, entity and character references, UTF-8 and the characters XML allows), then
/// the layout. Simplifications, all on the strict side or outside ECB files: a document type
/// declaration (`<!DOCTYPE`, as HTML pages have) is reported as an unexpected document; any
/// non-ASCII byte counts as a name character; a tag may have at most 32 attributes and at most
/// 32 namespace declarations may be in scope, so that hostile input costs linear time.
public enum ECBXML {
    /// Parses an ECB eurofxref XML document (daily, 90-day or full history).
    ///
    /// Elements are recognised by local name: a root `Envelope` holding one or more `Cube`
    /// elements, each holding day cubes (`Cube` with `time`), each holding rate cubes (`Cube`
    /// with `currency` and `rate`). Other children of the root (`gesmes:subject`,
    /// `gesmes:Sender`) are checked for well-formedness and skipped; unknown attributes on
    /// cubes are ignored. Rates are kept as the exact published text.
    ///
    /// Day ranges are not checked here: run ``RatesValidation/validate(_:notAfter:)`` on the result.
    ///
    /// - Parameter data: The document's bytes (`Data`, `[UInt8]`, a NIO `ByteBufferView`…).
    /// - Returns: The days in ascending order, with EUR as base.
    /// - Throws: `UpstreamDataError`: `.empty` for an empty or blank payload, `.malformedXML`
    ///   for anything not well-formed (truncated, unbalanced, garbage), `.unexpectedDocument`
    ///   for well-formed XML in another layout (an HTML page, no day cube), `.invalidDay`,
    ///   `.duplicateDay`, `.emptyDay`, `.invalidCurrencyCode`, `.duplicateCurrency` and
    ///   `.invalidRate` for bad values. It never traps, whatever the input.
    public static func parse(_ data: some Collection<UInt8>) throws(UpstreamDataError) -> RatesBatch {
        let contiguous = data.withContiguousStorageIfAvailable { buffer in
            Result { () throws(UpstreamDataError) -> RatesBatch in try parse(buffer: buffer) }
        }
        if let contiguous { return try contiguous.get() }
        return try Array(data).withUnsafeBufferPointer { (buffer) throws(UpstreamDataError) -> RatesBatch in
            try parse(buffer: buffer)
        }
    }

    static func parse(buffer: UnsafeBufferPointer<UInt8>) throws(UpstreamDataError) -> RatesBatch {
        var reader = Reader(bytes: buffer)
        return try reader.read()
    }
}

// MARK: - Reader

extension ECBXML {
    /// Where an open element sits in the eurofxref layout.
    enum Context: Equatable {
        /// The root `Envelope`.
        case envelope
        /// A `Cube` directly in the envelope, holding day cubes.
        case outerCube
        /// A `Cube time="…"`.
        case dayCube
        /// A `Cube currency="…" rate="…"`.
        case rateCube
        /// Anything else in the envelope (`gesmes:subject`, `gesmes:Sender`): read, not used.
        case other
    }

    struct OpenElement {
        var name: Range<Int>
        var tagStart: Int
        var context: Context
    }

    struct Attribute {
        var name: Range<Int>
        /// The offset of the colon in `name`, if it has a prefix.
        var colon: Int?
        var value: Range<Int>
        var hasReference: Bool
    }

    struct NamespaceDeclaration {
        var depth: Int
        /// Empty for the default namespace.
        var prefix: Range<Int>
    }

    /// One pass over the document. Every index is checked against `bytes.count` before use,
    /// and no step costs more than a bounded amount per byte, whatever the input.
    struct Reader {
        /// Most attributes one tag may have (ECB tags have two); bounds the duplicate check.
        static let maxAttributes = 32
        /// Most namespace declarations in scope at once (ECB files have two); bounds prefix look-ups.
        static let maxNamespaceDeclarations = 32
        /// Most distinct currency codes remembered (the full history has 42); bounds the cache look-up.
        static let maxCachedCodes = 64

        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var open: [OpenElement] = []
        var namespaces: [NamespaceDeclaration] = []
        /// The attributes of the tag being read, reused from tag to tag.
        var attributes: [Attribute] = []

        var days: [DailyRates] = []
        var seenDays: Set<Day> = []
        var day: Day?
        var rates: [CurrencyCode: String] = [:]
        /// Codes seen so far, in the order of the first day: later days list them in the same order.
        var currencyCodes: [(key: UInt32, code: CurrencyCode)] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            attributes.reserveCapacity(8)
            open.reserveCapacity(8)
        }

        var count: Int { bytes.count }

        mutating func read() throws(UpstreamDataError) -> RatesBatch {
            try checkCharacters()
            if hasLiteral(ASCII.byteOrderMark) { position = 3 }
            let start = position
            skipWhitespace()
            if position == count { throw .empty }
            position = start

            // Prolog: the XML declaration (only at the very start), comments, processing instructions.
            if hasLiteral(ASCII.xmlDeclarationStart), position + 5 == count || isWhitespace(bytes[position + 5]) {
                try readXMLDeclaration()
            }
            while true {
                skipWhitespace()
                guard position < count else { throw truncated("before the root element") }
                guard bytes[position] == ASCII.lessThan else { throw malformed("text before the root element", at: position) }
                if hasLiteral(ASCII.commentStart) {
                    try skipComment()
                } else if hasLiteral(ASCII.processingInstructionStart) {
                    try skipProcessingInstruction()
                } else if hasLiteral(ASCII.doctypeStart, ignoringCase: true) {
                    throw .unexpectedDocument(
                        "document type declaration at \(location(position)); ECB files have none (an HTML page?)")
                } else {
                    break
                }
            }

            try readStartTag()
            try readContent()

            // Epilog: only comments, processing instructions and white space may follow the root.
            while true {
                skipWhitespace()
                guard position < count else { break }
                if hasLiteral(ASCII.commentStart) {
                    try skipComment()
                } else if hasLiteral(ASCII.processingInstructionStart) {
                    try skipProcessingInstruction()
                } else {
                    throw malformed("content after the end of the root element", at: position)
                }
            }
            guard !days.isEmpty else {
                throw .unexpectedDocument("no day cube (Envelope > Cube > Cube time=\"…\") in the document")
            }
            return RatesBatch(base: .euro, days: days)
        }

        // MARK: Content

        /// Reads the root element's content, up to and including its end tag.
        mutating func readContent() throws(UpstreamDataError) {
            while let element = open.last {
                guard position < count else {
                    throw truncated("<\(text(element.name))> opened at \(location(element.tagStart)) is not closed")
                }
                guard bytes[position] == ASCII.lessThan else {
                    try readText()
                    continue
                }
                guard position + 1 < count else { throw truncated("inside a tag") }
                switch bytes[position + 1] {
                case ASCII.slash:
                    try readEndTag()
                case ASCII.exclamationMark:
                    if hasLiteral(ASCII.commentStart) {
                        try skipComment()
                    } else if hasLiteral(ASCII.cdataStart) {
                        try readCDATA()
                    } else if position + ASCII.cdataStart.utf8CodeUnitCount > count {
                        throw truncated("inside markup")
                    } else {
                        throw malformed("unexpected markup (only comments and CDATA sections start with '<!' here)", at: position)
                    }
                case ASCII.questionMark:
                    try skipProcessingInstruction()
                default:
                    try readStartTag()
                }
            }
        }

        /// Character data up to the next `<` or the end; references are checked.
        mutating func readText() throws(UpstreamDataError) {
            let start = position
            var significant = false
            while position < count {
                let byte = bytes[position]
                if byte == ASCII.lessThan { break }
                if byte == ASCII.ampersand {
                    position = try reference(at: position).end
                    significant = true
                    continue
                }
                if byte == ASCII.closingBracket, hasLiteral(ASCII.cdataEnd) {
                    throw malformed("']]>' in text", at: position)
                }
                if !isWhitespace(byte) { significant = true }
                position += 1
            }
            if significant { try textAllowed(from: start) }
        }

        mutating func readCDATA() throws(UpstreamDataError) {
            let start = position
            position += ASCII.cdataStart.utf8CodeUnitCount
            var significant = false
            while true {
                guard position < count else { throw truncated("inside the CDATA section opened at \(location(start))") }
                if bytes[position] == ASCII.closingBracket, hasLiteral(ASCII.cdataEnd) {
                    position += ASCII.cdataEnd.utf8CodeUnitCount
                    break
                }
                if !isWhitespace(bytes[position]) { significant = true }
                position += 1
            }
            if significant { try textAllowed(from: start) }
        }

        /// Text is part of `gesmes:subject` and the like, never of the envelope or a cube.
        func textAllowed(from start: Int) throws(UpstreamDataError) {
            guard let element = open.last, element.context != .other else { return }
            var end = start
            while end < min(count, start + 40), bytes[end] != ASCII.lessThan || end == start { end += 1 }
            let sample = text(start..<end).trimmingWhitespace()
            throw .unexpectedDocument("text \(UpstreamDataError.quoted(sample)) inside <\(text(element.name))> at \(location(start))")
        }

        // MARK: Tags

        mutating func readStartTag() throws(UpstreamDataError) {
            let tagStart = position
            position += 1
            let (name, colon) = try readQualifiedName("element name")
            if open.isEmpty { try checkRoot(name: name, colon: colon, at: tagStart) }
            attributes.removeAll(keepingCapacity: true)
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
                for other in attributes where equal(other.name, attribute.name) {
                    throw malformed("attribute \(text(attribute.name)) appears twice", at: attributeStart)
                }
                guard attributes.count < Self.maxAttributes else {
                    throw .unexpectedDocument("a tag with more than \(Self.maxAttributes) attributes at \(location(tagStart))")
                }
                attributes.append(attribute)
                namespaced = namespaced || attribute.colon != nil || equal(attribute.name, ASCII.xmlns)
            }

            let depth = open.count
            if namespaced {
                try declareNamespaces(depth: depth)
                for attribute in attributes {
                    if let colon = attribute.colon, !equal(attribute.name.lowerBound..<colon, ASCII.xmlns) {
                        try checkPrefix(attribute.name.lowerBound..<colon, at: tagStart)
                    }
                }
            }
            if let colon { try checkPrefix(name.lowerBound..<colon, at: tagStart) }

            let localName = colon.map { ($0 + 1)..<name.upperBound } ?? name
            let context = try enter(name: name, localName: localName, at: tagStart)
            if selfClosing {
                try leave(context)
                undeclareNamespaces(depth: depth)
            } else {
                open.append(OpenElement(name: name, tagStart: tagStart, context: context))
            }
        }

        mutating func readEndTag() throws(UpstreamDataError) {
            let tagStart = position
            position += 2
            let (name, _) = try readQualifiedName("element name")
            skipWhitespace()
            guard position < count else { throw truncated("inside the end tag </\(text(name))>") }
            guard bytes[position] == ASCII.greaterThan else { throw malformed("expected '>' to close </\(text(name))", at: position) }
            position += 1
            let element = open.removeLast()
            guard equal(element.name, name) else {
                throw malformed(
                    "end tag </\(text(name))> does not match <\(text(element.name))> opened at \(location(element.tagStart))", at: tagStart)
            }
            try leave(element.context)
            undeclareNamespaces(depth: open.count)
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
            var hasReference = false
            while true {
                guard position < count else { throw truncated("inside the value of \(text(name))") }
                let byte = bytes[position]
                if byte == quote { break }
                if byte == ASCII.lessThan { throw malformed("'<' in the value of \(text(name))", at: position) }
                if byte == ASCII.ampersand {
                    position = try reference(at: position).end
                    hasReference = true
                    continue
                }
                position += 1
            }
            let value = valueStart..<position
            position += 1
            return Attribute(name: name, colon: colon, value: value, hasReference: hasReference)
        }

        /// A name, optionally `prefix:local`; returns its range and the colon's offset.
        mutating func readQualifiedName(_ what: String) throws(UpstreamDataError) -> (Range<Int>, colon: Int?) {
            let start = position
            guard position < count else { throw truncated("before the \(what)") }
            guard isNameStart(bytes[position]) else { throw malformed("expected an \(what)", at: position) }
            position += 1
            var colon: Int?
            while position < count {
                let byte = bytes[position]
                if byte == ASCII.colon {
                    guard colon == nil else { throw malformed("\(what) with two colons", at: start) }
                    guard position + 1 < count else { throw truncated("inside the \(what)") }
                    guard isNameStart(bytes[position + 1]) else { throw malformed("\(what) with an empty or invalid local part", at: start) }
                    colon = position
                } else if !isNameCharacter(byte) {
                    break
                }
                position += 1
            }
            return (start..<position, colon)
        }

        // MARK: Namespaces

        mutating func declareNamespaces(depth: Int) throws(UpstreamDataError) {
            for attribute in attributes {
                let name = attribute.name
                if equal(name, ASCII.xmlns) {
                    namespaces.append(NamespaceDeclaration(depth: depth, prefix: name.lowerBound..<name.lowerBound))
                } else if let colon = attribute.colon, equal(name.lowerBound..<colon, ASCII.xmlns) {
                    let prefix = (colon + 1)..<name.upperBound
                    if equal(prefix, ASCII.xmlns) || equal(prefix, ASCII.xml) {
                        throw malformed("the prefix \(text(prefix)) cannot be declared", at: name.lowerBound)
                    }
                    if attribute.value.isEmpty {
                        throw malformed("the namespace prefix \(text(prefix)) is declared with an empty name", at: name.lowerBound)
                    }
                    namespaces.append(NamespaceDeclaration(depth: depth, prefix: prefix))
                }
            }
            guard namespaces.count <= Self.maxNamespaceDeclarations else {
                throw .unexpectedDocument("more than \(Self.maxNamespaceDeclarations) namespace declarations in scope at \(location(position))")
            }
        }

        mutating func undeclareNamespaces(depth: Int) {
            while let last = namespaces.last, last.depth >= depth { namespaces.removeLast() }
        }

        func checkPrefix(_ prefix: Range<Int>, at offset: Int) throws(UpstreamDataError) {
            if equal(prefix, ASCII.xml) { return }
            guard !equal(prefix, ASCII.xmlns) else { throw malformed("the prefix xmlns is reserved", at: offset) }
            for declaration in namespaces.reversed() where equal(declaration.prefix, prefix) { return }
            throw malformed("undeclared namespace prefix \(text(prefix))", at: offset)
        }

        // MARK: Layout

        /// The root must be an `Envelope`; checked on its name alone, before its attributes, so
        /// that an HTML page is reported as such even when its attributes are not XML.
        func checkRoot(name: Range<Int>, colon: Int?, at tagStart: Int) throws(UpstreamDataError) {
            guard position < count else { throw truncated("inside the root element's name") }
            let localName = colon.map { ($0 + 1)..<name.upperBound } ?? name
            guard equal(localName, ASCII.envelope) else {
                throw .unexpectedDocument("the root element is <\(text(name))> at \(location(tagStart)); expected gesmes:Envelope")
            }
        }

        /// The context of a new element, after checking it fits the eurofxref layout.
        mutating func enter(name: Range<Int>, localName: Range<Int>, at tagStart: Int) throws(UpstreamDataError) -> Context {
            guard let parent = open.last?.context else { return .envelope }  // checked by `checkRoot`
            let isCube = equal(localName, ASCII.cube)
            switch parent {
            case .other:
                return .other
            case .envelope:
                return isCube ? .outerCube : .other
            case .outerCube:
                guard isCube, let time = attribute(ASCII.time) else {
                    throw .unexpectedDocument("<\(text(name))> at \(location(tagStart)) where a <Cube time=\"…\"> was expected")
                }
                try beginDay(value(of: time))
                return .dayCube
            case .dayCube:
                guard isCube, let currency = attribute(ASCII.currency), let rate = attribute(ASCII.rate) else {
                    throw .unexpectedDocument(
                        "<\(text(name))> at \(location(tagStart)) where a <Cube currency=\"…\" rate=\"…\"> was expected")
                }
                try addRate(currency: currency, rate: rate)
                return .rateCube
            case .rateCube:
                throw .unexpectedDocument("<\(text(name))> at \(location(tagStart)) inside a rate cube, which holds nothing")
            }
        }

        mutating func leave(_ context: Context) throws(UpstreamDataError) {
            guard context == .dayCube, let day else { return }
            guard !rates.isEmpty else { throw .emptyDay(day) }
            days.append(DailyRates(day: day, rates: rates))
            self.day = nil
            rates = [:]
        }

        mutating func beginDay(_ text: String) throws(UpstreamDataError) {
            guard let day = Day(text) else { throw .invalidDay(text) }
            guard seenDays.insert(day).inserted else { throw .duplicateDay(day) }
            self.day = day
            rates = Dictionary(minimumCapacity: 48)
        }

        mutating func addRate(currency: Attribute, rate: Attribute) throws(UpstreamDataError) {
            guard let day else { return }
            let code = try currencyCode(currency, day: day)
            let text: String
            let valid: Bool
            if rate.hasReference {
                text = value(of: rate)
                valid = RatesValidation.isValidRateText(text)
            } else {
                valid = RatesValidation.isValidRateBytes(UnsafeBufferPointer(rebasing: bytes[rate.value]))
                text = self.text(rate.value)
            }
            guard valid else { throw .invalidRate(currency: code, day: day, text: text) }
            guard rates.updateValue(text, forKey: code) == nil else { throw .duplicateCurrency(code, day: day) }
        }

        /// The code in a `currency` attribute. `CurrencyCode` decides; its answers are cached by
        /// the code's three bytes, since a history repeats the same few dozen codes in the same order.
        mutating func currencyCode(_ attribute: Attribute, day: Day) throws(UpstreamDataError) -> CurrencyCode {
            let range = attribute.value
            guard !attribute.hasReference, range.count == 3 else {
                let text = value(of: attribute)
                guard let code = CurrencyCode(text) else { throw .invalidCurrencyCode(text, day: day) }
                return code
            }
            let key = UInt32(bytes[range.lowerBound]) << 16 | UInt32(bytes[range.lowerBound + 1]) << 8 | UInt32(bytes[range.lowerBound + 2])
            let guess = rates.count
            if guess < currencyCodes.count, currencyCodes[guess].key == key { return currencyCodes[guess].code }
            if let known = currencyCodes.first(where: { $0.key == key }) { return known.code }
            let text = self.text(range)
            guard let code = CurrencyCode(text) else { throw .invalidCurrencyCode(text, day: day) }
            if currencyCodes.count < Self.maxCachedCodes { currencyCodes.append((key, code)) }
            return code
        }

        /// The unprefixed attribute `name` of the tag being read.
        func attribute(_ name: StaticString) -> Attribute? {
            for attribute in attributes where equal(attribute.name, name) { return attribute }
            return nil
        }

        /// An attribute's value with its references replaced.
        func value(of attribute: Attribute) -> String {
            guard attribute.hasReference else { return text(attribute.value) }
            var decoded: [UInt8] = []
            var index = attribute.value.lowerBound
            while index < attribute.value.upperBound {
                if bytes[index] == ASCII.ampersand, let (scalar, end) = try? reference(at: index) {
                    decoded.append(contentsOf: scalar.utf8)
                    index = end
                } else {
                    decoded.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: decoded, as: UTF8.self)
        }

        // MARK: Markup that carries no data

        mutating func readXMLDeclaration() throws(UpstreamDataError) {
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
            var encoding: Range<Int>?
            for attribute in found {
                guard let index = expected[next...].firstIndex(where: { equal(attribute.name, $0) }), next > 0 || index == 0 else {
                    throw malformed("invalid XML declaration (version, encoding, standalone in that order)", at: start)
                }
                next = index + 1
                let value = text(attribute.value)
                switch index {
                case 0:
                    guard value.hasPrefix("1."), value.count > 2, value.utf8.dropFirst(2).allSatisfy(isDigit) else {
                        throw malformed("unsupported XML version \(UpstreamDataError.quoted(value))", at: start)
                    }
                case 1:
                    encoding = attribute.value
                default:
                    guard value == "yes" || value == "no" else { throw malformed("standalone must be yes or no", at: start) }
                }
            }
            guard next > 0 else { throw malformed("the XML declaration has no version", at: start) }
            if let encoding, text(encoding).uppercased() != "UTF-8" {
                throw .unexpectedDocument("the document is encoded in \(UpstreamDataError.quoted(text(encoding))); ECB files are UTF-8")
            }
        }

        mutating func skipProcessingInstruction() throws(UpstreamDataError) {
            let start = position
            position += 2
            guard position < count else { throw truncated("inside a processing instruction") }
            guard isNameStart(bytes[position]) else { throw malformed("expected a processing instruction target", at: position) }
            let targetStart = position
            while position < count, isNameCharacter(bytes[position]) || bytes[position] == ASCII.colon { position += 1 }
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

        // MARK: References and characters

        /// The character a reference at `start` (`&amp;`, `&#65;`, `&#x41;`) stands for, and where it ends.
        func reference(at start: Int) throws(UpstreamDataError) -> (Unicode.Scalar, end: Int) {
            var index = start + 1
            guard index < count else { throw truncated("inside a reference") }
            if bytes[index] == ASCII.hash {
                index += 1
                var radix: UInt32 = 10
                if index < count, bytes[index] == ASCII.lowercaseX {
                    radix = 16
                    index += 1
                }
                var value: UInt32 = 0
                var digits = 0
                while index < count, let digit = digitValue(bytes[index], radix: radix) {
                    value = value * radix + digit
                    guard value <= 0x10FFFF else { throw malformed("character reference beyond U+10FFFF", at: start) }
                    digits += 1
                    index += 1
                }
                guard index < count else { throw truncated("inside a character reference") }
                guard digits > 0, bytes[index] == ASCII.semicolon else { throw malformed("invalid character reference", at: start) }
                guard isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
                    throw malformed("character reference to a character XML does not allow", at: start)
                }
                return (scalar, index + 1)
            }
            let nameStart = index
            while index < count, isNameCharacter(bytes[index]) { index += 1 }
            guard index < count else { throw truncated("inside an entity reference") }
            guard bytes[index] == ASCII.semicolon else { throw malformed("'&' that starts no reference (write &amp;)", at: start) }
            let name = nameStart..<index
            let scalar: Unicode.Scalar
            if equal(name, ASCII.lt) {
                scalar = "<"
            } else if equal(name, ASCII.gt) {
                scalar = ">"
            } else if equal(name, ASCII.amp) {
                scalar = "&"
            } else if equal(name, ASCII.apos) {
                scalar = "'"
            } else if equal(name, ASCII.quot) {
                scalar = "\""
            } else {
                throw malformed("undefined entity &\(text(name));", at: start)
            }
            return (scalar, index + 1)
        }

        /// Checks the whole document is UTF-8 made of characters XML 1.0 allows.
        func checkCharacters() throws(UpstreamDataError) {
            var index = 0
            while index < count {
                // Eight plain ASCII bytes (no control character, no high bit) at a time.
                if index + 8 <= count, let base = bytes.baseAddress {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    let high: UInt64 = 0x8080_8080_8080_8080
                    if word & high == 0, (word &- 0x2020_2020_2020_2020) & ~word & high == 0 {
                        index += 8
                        continue
                    }
                }
                let lead = bytes[index]
                if lead < 0x80 {
                    if lead < 0x20, lead != ASCII.tab, lead != ASCII.lineFeed, lead != ASCII.carriageReturn {
                        throw malformed("control character U+\(hex(lead)), which XML does not allow", at: index)
                    }
                    index += 1
                    continue
                }
                let length: Int
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; high = 0x9F  // no surrogates
                case 0xF0: length = 4; low = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; high = 0x8F
                default: throw malformed("invalid UTF-8 byte 0x\(hex(lead))", at: index)
                }
                guard index + length <= count else { throw malformed("truncated UTF-8 sequence", at: index) }
                guard (low...high).contains(bytes[index + 1]) else { throw malformed("invalid UTF-8 sequence", at: index) }
                for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
                    throw malformed("invalid UTF-8 sequence", at: index)
                }
                // U+FFFE and U+FFFF are not XML characters.
                if lead == 0xEF, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
                    throw malformed("character U+FFF\(bytes[index + 2] == 0xBE ? "E" : "F"), which XML does not allow", at: index)
                }
                index += length
            }
        }

        // MARK: Helpers

        /// Skips XML white space; whether there was any.
        @discardableResult
        mutating func skipWhitespace() -> Bool {
            let start = position
            while position < count, isWhitespace(bytes[position]) { position += 1 }
            return position > start
        }

        func hasLiteral(_ literal: StaticString) -> Bool {
            position + literal.utf8CodeUnitCount <= count && equal(position..<(position + literal.utf8CodeUnitCount), literal)
        }

        /// Whether the bytes at `position` are `literal`, ASCII letters compared without case.
        func hasLiteral(_ literal: StaticString, ignoringCase: Bool) -> Bool {
            let length = literal.utf8CodeUnitCount
            guard position + length <= count else { return false }
            let characters = literal.utf8Start
            for offset in 0..<length {
                let byte = bytes[position + offset]
                let expected = characters[offset]
                guard byte == expected || (ignoringCase && isLetter(expected) && byte | 0x20 == expected | 0x20) else { return false }
            }
            return true
        }

        func equal(_ range: Range<Int>, _ literal: StaticString) -> Bool {
            guard range.count == literal.utf8CodeUnitCount else { return false }
            let characters = literal.utf8Start
            for offset in 0..<range.count where bytes[range.lowerBound + offset] != characters[offset] { return false }
            return true
        }

        func equal(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
            guard lhs.count == rhs.count else { return false }
            for offset in 0..<lhs.count where bytes[lhs.lowerBound + offset] != bytes[rhs.lowerBound + offset] { return false }
            return true
        }

        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        /// "line 3, column 7 (byte 120)": lines and columns from 1, columns and offsets in bytes.
        func location(_ offset: Int) -> String {
            var line = 1
            var lineStart = 0
            for index in 0..<min(offset, count) where bytes[index] == ASCII.lineFeed {
                line += 1
                lineStart = index + 1
            }
            return "line \(line), column \(offset - lineStart + 1) (byte \(offset))"
        }

        func malformed(_ reason: String, at offset: Int) -> UpstreamDataError {
            .malformedXML("\(reason) at \(location(offset))")
        }

        func truncated(_ detail: String) -> UpstreamDataError {
            .malformedXML("unexpected end of document (\(count) bytes) \(detail)")
        }

        func hex(_ byte: UInt8) -> String {
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "000" + text : "00" + text
        }
    }
}

// MARK: - Bytes

private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == ASCII.space || byte == ASCII.lineFeed || byte == ASCII.tab || byte == ASCII.carriageReturn
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= ASCII.zero && byte <= ASCII.nine }

private func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= ASCII.lowercaseA && byte | 0x20 <= ASCII.lowercaseZ }

/// Letters, `_` and any non-ASCII byte (the document is known to be valid UTF-8). The colon is handled apart.
private func isNameStart(_ byte: UInt8) -> Bool {
    byte >= 0x80 || (byte >= 0x40 && (0x07FF_FFFE_87FF_FFFE as UInt64) >> (byte & 0x3F) & 1 == 1)
}

/// A name start byte, a digit, `-` or `.`.
private func isNameCharacter(_ byte: UInt8) -> Bool {
    byte >= 0x40 ? isNameStart(byte) : (0x03FF_6000_0000_0000 as UInt64) >> byte & 1 == 1
}

private func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
    if isDigit(byte) { return UInt32(byte - ASCII.zero) }
    guard radix == 16 else { return nil }
    let lower = byte | 0x20
    guard lower >= ASCII.lowercaseA, lower <= UInt8(ascii: "f") else { return nil }
    return UInt32(lower - ASCII.lowercaseA) + 10
}

private func isXMLCharacter(_ value: UInt32) -> Bool {
    switch value {
    case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
    default: return false
    }
}

private enum ASCII {
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let doubleQuote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let ampersand = UInt8(ascii: "&")
    static let singleQuote = UInt8(ascii: "'")
    static let hyphen = UInt8(ascii: "-")
    static let slash = UInt8(ascii: "/")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let colon = UInt8(ascii: ":")
    static let semicolon = UInt8(ascii: ";")
    static let lessThan = UInt8(ascii: "<")
    static let equals = UInt8(ascii: "=")
    static let greaterThan = UInt8(ascii: ">")
    static let questionMark = UInt8(ascii: "?")
    static let exclamationMark = UInt8(ascii: "!")
    static let closingBracket = UInt8(ascii: "]")
    static let lowercaseA = UInt8(ascii: "a")
    static let lowercaseX = UInt8(ascii: "x")
    static let lowercaseZ = UInt8(ascii: "z")

    static let byteOrderMark: StaticString = "\u{FEFF}"
    static let xmlDeclarationStart: StaticString = "<?xml"
    static let processingInstructionStart: StaticString = "<?"
    static let processingInstructionEnd: StaticString = "?>"
    static let commentStart: StaticString = "<!--"
    static let cdataStart: StaticString = "<![CDATA["
    static let cdataEnd: StaticString = "]]>"
    static let doctypeStart: StaticString = "<!DOCTYPE"
    static let xml: StaticString = "xml"
    static let xmlns: StaticString = "xmlns"
    static let version: StaticString = "version"
    static let encoding: StaticString = "encoding"
    static let standalone: StaticString = "standalone"
    static let envelope: StaticString = "Envelope"
    static let cube: StaticString = "Cube"
    static let time: StaticString = "time"
    static let currency: StaticString = "currency"
    static let rate: StaticString = "rate"
    static let lt: StaticString = "lt"
    static let gt: StaticString = "gt"
    static let amp: StaticString = "amp"
    static let apos: StaticString = "apos"
    static let quot: StaticString = "quot"
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
