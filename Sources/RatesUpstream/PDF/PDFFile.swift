import Foundation

/// A PDF file's objects, found by scanning for `N G obj … endobj` rather than through the
/// cross-reference table (which may be missing, stale or broken), with the objects of object streams
/// (`/Type /ObjStm`), and the decoded bytes of its streams.
///
/// Bounded on any input: at most ``maxObjects`` objects, a stream inflates to at most
/// ``maxStreamBytes`` and all of them together to ``maxInflatedBytes``; a reference is followed at
/// most ``maxReferenceHops`` times. Anything malformed throws ``UpstreamDataError/layout(_:)``.
final class PDFFile {
    static let maxObjects = 100_000
    static let maxStreamBytes = 16 << 20
    static let maxInflatedBytes = 64 << 20
    static let maxReferenceHops = 32

    let bytes: [UInt8]
    /// The objects by number: where an incremental update redefines one, its last definition.
    private(set) var objects: [Int: PDFObject] = [:]
    /// The trailers' dictionaries and the cross-reference streams' dictionaries, in file order.
    private(set) var trailers: [[String: PDFObject]] = []
    /// Objects whose type is `/Catalog`, in file order (when no trailer names the root).
    private(set) var catalogs: [PDFReference] = []
    private var inflated = 0
    private var decoded: [PDFReference: [UInt8]] = [:]

    init(_ bytes: [UInt8]) throws(UpstreamDataError) {
        self.bytes = bytes
        guard Self.isPDF(bytes) else { throw .layout("not a PDF file: it does not start with %PDF-") }
        guard Self.endsWithEOF(bytes) else { throw .layout("the PDF file does not end with %%EOF: it was cut short") }
        try scan()
        try readObjectStreams()
    }

    /// Whether `bytes` start as a PDF file does (`%PDF-` within the first 1024 bytes).
    static func isPDF(_ bytes: [UInt8]) -> Bool {
        find("%PDF-", in: Array(bytes.prefix(1024)), from: 0) != nil
    }

    /// Whether `%%EOF` is among the last 2048 bytes: a file cut short has none there.
    static func endsWithEOF(_ bytes: [UInt8]) -> Bool {
        find("%%EOF", in: Array(bytes.suffix(2048)), from: 0) != nil
    }

    // MARK: - Objects

    /// `object`, or what it refers to (through at most ``maxReferenceHops`` references); `.null` for a
    /// reference to an object the file does not hold, as the format says.
    func resolve(_ object: PDFObject?) -> PDFObject {
        var current = object ?? .null
        var hops = 0
        while case .reference(let reference) = current {
            hops += 1
            guard hops <= Self.maxReferenceHops, let target = objects[reference.number] else { return .null }
            current = target
        }
        return current
    }

    /// The dictionary `object` is or refers to (a stream's too), or `nil`.
    func dictionary(_ object: PDFObject?) -> [String: PDFObject]? { resolve(object).dictionary }

    /// The number `object` is or refers to, or `nil`.
    func number(_ object: PDFObject?) -> Double? { resolve(object).number }

    /// The decoded bytes of the stream `object` is or refers to.
    func streamData(_ object: PDFObject?, what: String) throws(UpstreamDataError) -> [UInt8] {
        let reference = object?.reference
        if let reference, let known = decoded[reference] { return known }
        guard case .stream(let dictionary, let range) = resolve(object) else { throw .layout("PDF: \(what) is not a stream") }
        let data = try decode(Array(bytes[range]), dictionary: dictionary, what: what)
        if let reference { decoded[reference] = data }
        return data
    }

    /// `raw` through the stream's filters: none or `/FlateDecode` (without a predictor).
    private func decode(_ raw: [UInt8], dictionary: [String: PDFObject], what: String) throws(UpstreamDataError) -> [UInt8] {
        let filter = resolve(dictionary["Filter"])
        let filters: [String]
        switch filter {
        case .null: filters = []
        case .name(let name): filters = [name]
        case .array(let items): filters = items.compactMap { resolve($0).name }
        default: throw .layout("PDF: \(what) has a /Filter that is not a name")
        }
        var data = raw
        for (index, name) in filters.enumerated() {
            guard name == "FlateDecode" || name == "Fl" else { throw .layout("PDF: \(what) is encoded with /\(name), which this reader does not decode") }
            let parameters = resolve(dictionary["DecodeParms"])
            let parameter = parameters.array.map { index < $0.count ? resolve($0[index]) : .null } ?? parameters
            if let predictor = self.dictionary(parameter)?["Predictor"].flatMap({ resolve($0).integer }), predictor > 1 {
                throw .layout("PDF: \(what) uses a predictor (\(predictor)), which this reader does not undo")
            }
            data = try inflate(data, what: what)
        }
        return data
    }

    /// A zlib stream (RFC 1950) inflated: its two-byte header checked and stripped, the deflate data
    /// inflated by ``ZIPArchive/inflate(_:expectedSize:member:named:)``, bounded by what is left of
    /// ``maxInflatedBytes`` and by ``maxStreamBytes``.
    private func inflate(_ data: [UInt8], what: String) throws(UpstreamDataError) -> [UInt8] {
        guard data.count >= 2, data[0] & 0x0F == 8, data[0] >> 4 <= 7, (Int(data[0]) << 8 | Int(data[1])) % 31 == 0, data[1] & 0x20 == 0 else {
            throw .layout("PDF: \(what) is not a zlib stream (its header is wrong)")
        }
        let budget = min(Self.maxStreamBytes, Self.maxInflatedBytes - inflated)
        guard budget > 0 else { throw .layout("PDF: the streams inflate to more than \(Self.maxInflatedBytes) bytes") }
        let output: Data
        do {
            output = try ZIPArchive.inflate(Data(data[2...]), expectedSize: budget, member: what, named: "the PDF")
        } catch {
            throw .layout("PDF: \(what) does not inflate (\(error))")
        }
        inflated += output.count
        return [UInt8](output)
    }

    // MARK: - Scanning

    /// Reads every `N G obj … endobj` in file order, and the trailers' dictionaries.
    private func scan() throws(UpstreamDataError) {
        var position = 0
        var streams: [(reference: PDFReference, dictionary: [String: PDFObject], start: Int)] = []
        var marks: [(offset: Int, trailer: [String: PDFObject])] = []
        while let (reference, bodyStart) = nextObjectHeader(from: position) {
            var syntax = PDFSyntax(bytes, from: bodyStart)
            guard let object = try syntax.object() else { throw PDFSyntax.malformed("object \(reference) without a value", at: bodyStart) }
            let afterObject = syntax.position
            var stored = object
            if case .dictionary(let dictionary) = object, case .keyword("stream")? = try? syntax.nextToken(references: false) {
                let start = dataStart(after: syntax.position)
                let (range, end) = try streamRange(of: dictionary, reference: reference, start: start)
                stored = .stream(dictionary, range)
                if dictionary["Length"]?.reference != nil { streams.append((reference, dictionary, start)) }
                position = end
                if dictionary["Type"]?.name == "XRef" { marks.append((start, dictionary)) }
            } else {
                position = afterObject
            }
            objects[reference.number] = stored
            if case .name("Catalog")? = stored.dictionary?["Type"] { catalogs.append(reference) }
            guard objects.count <= Self.maxObjects else { throw .layout("PDF: more than \(Self.maxObjects) objects") }
        }
        // An indirect /Length is known once every object is: the stream is its length when `endstream` follows it.
        for stream in streams {
            guard let length = resolve(stream.dictionary["Length"]).integer,
                let (range, _) = try streamRange(length: length, start: stream.start, reference: stream.reference)
            else { continue }
            objects[stream.reference.number] = .stream(stream.dictionary, range)
        }
        // The classic trailers (`trailer << … >>`), with the cross-reference streams', in file order.
        var search = 0
        while let found = Self.find("trailer", in: bytes, from: search) {
            search = found + 7
            var syntax = PDFSyntax(bytes, from: search)
            if case .dictionary(let trailer)? = try? syntax.object() { marks.append((found, trailer)) }
        }
        trailers = marks.sorted { $0.offset < $1.offset }.map(\.trailer)
    }

    /// Where a stream's data starts after its `stream` keyword: past one end of line.
    private func dataStart(after keyword: Int) -> Int {
        var start = keyword
        if start < bytes.count, bytes[start] == 0x0D { start += 1 }
        if start < bytes.count, bytes[start] == 0x0A { start += 1 }
        return start
    }

    /// A stream's data and where scanning goes on: its direct `/Length` when `endstream` follows it,
    /// otherwise up to the next `endstream` (one end of line before it dropped).
    private func streamRange(of dictionary: [String: PDFObject], reference: PDFReference, start: Int) throws(UpstreamDataError)
        -> (Range<Int>, Int)
    {
        if case .integer(let length)? = dictionary["Length"], let found = try streamRange(length: length, start: start, reference: reference) {
            return found
        }
        guard let endstream = Self.find("endstream", in: bytes, from: start) else {
            throw .layout("PDF: object \(reference)'s stream has no endstream")
        }
        var end = endstream
        if end > start, bytes[end - 1] == 0x0A { end -= 1 }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return (start..<end, endstream + 9)
    }

    /// A stream's data of `length` bytes from `start` and where scanning goes on, when `endstream` follows
    /// it (after white space); `nil` otherwise.
    private func streamRange(length: Int, start: Int, reference: PDFReference) throws(UpstreamDataError) -> (Range<Int>, Int)? {
        guard length >= 0, length <= bytes.count - start else {
            throw .layout("PDF: the /Length of object \(reference)'s stream runs past the end of the file")
        }
        var after = start + length
        while after < bytes.count, PDFSyntax.isWhitespace(bytes[after]) { after += 1 }
        return Self.matches("endstream", in: bytes, at: after) ? (start..<(start + length), after + 9) : nil
    }

    /// The next `N G obj` at or after `position`: its reference and where its body starts.
    private func nextObjectHeader(from position: Int) -> (PDFReference, Int)? {
        var index = position
        while let found = Self.find("obj", in: bytes, from: index) {
            index = found + 3
            guard index >= bytes.count || !PDFSyntax.isRegular(bytes[index]) else { continue }
            // Back over white space, the generation, white space and the number.
            var cursor = found
            func back(_ test: (UInt8) -> Bool) -> Int {
                var count = 0
                while cursor > position, test(bytes[cursor - 1]) {
                    cursor -= 1
                    count += 1
                }
                return count
            }
            let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            guard back(PDFSyntax.isWhitespace) > 0 else { continue }
            let generationEnd = cursor
            guard (1...5).contains(back(isDigit)) else { continue }
            let generationStart = cursor
            guard back(PDFSyntax.isWhitespace) > 0 else { continue }
            let numberEnd = cursor
            guard (1...10).contains(back(isDigit)) else { continue }
            guard cursor == 0 || !PDFSyntax.isRegular(bytes[cursor - 1]) else { continue }
            guard let number = Int(String(decoding: bytes[cursor..<numberEnd], as: UTF8.self)),
                let generation = Int(String(decoding: bytes[generationStart..<generationEnd], as: UTF8.self))
            else { continue }
            return (PDFReference(number: number, generation: generation), index)
        }
        return nil
    }

    /// The objects of every object stream (`/Type /ObjStm`), where no `N G obj` defines them.
    private func readObjectStreams() throws(UpstreamDataError) {
        let streams = objects.filter { $0.value.dictionary?["Type"]?.name == "ObjStm" }.sorted { $0.key < $1.key }
        for (number, stream) in streams {
            let what = "object stream \(number)"
            guard let dictionary = stream.dictionary, let count = resolve(dictionary["N"]).integer, let first = resolve(dictionary["First"]).integer,
                count >= 0, count <= Self.maxObjects, first >= 0
            else { throw .layout("PDF: \(what) lacks /N or /First") }
            let data = try streamData(.reference(PDFReference(number: number, generation: 0)), what: what)
            var header = PDFSyntax(data, to: min(first, data.count))
            var entries: [(number: Int, offset: Int)] = []
            for _ in 0..<count {
                guard case .object(.integer(let object))? = try header.nextToken(references: false),
                    case .object(.integer(let offset))? = try header.nextToken(references: false), object >= 0, offset >= 0
                else { throw .layout("PDF: \(what)'s header is not pairs of numbers") }
                entries.append((object, offset))
            }
            for entry in entries where objects[entry.number] == nil {
                guard first + entry.offset < data.count else { throw .layout("PDF: \(what) places object \(entry.number) past its end") }
                var syntax = PDFSyntax(data, from: first + entry.offset)
                guard let object = try syntax.object() else { throw .layout("PDF: \(what) holds no object \(entry.number)") }
                objects[entry.number] = object
                if case .name("Catalog")? = object.dictionary?["Type"] { catalogs.append(PDFReference(number: entry.number, generation: 0)) }
                guard objects.count <= Self.maxObjects else { throw .layout("PDF: more than \(Self.maxObjects) objects") }
            }
        }
    }

    // MARK: - Bytes

    static func matches(_ word: String, in bytes: [UInt8], at index: Int) -> Bool {
        let pattern = Array(word.utf8)
        return index >= 0 && index + pattern.count <= bytes.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
    }

    /// The offset of the first `word` at or after `start`.
    static func find(_ word: String, in bytes: [UInt8], from start: Int) -> Int? {
        let pattern = Array(word.utf8)
        guard let first = pattern.first, start >= 0, bytes.count >= pattern.count else { return nil }
        var index = start
        let last = bytes.count - pattern.count
        while index <= last {
            if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
