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
/// ``XMLReader`` checks the document is well-formed as it reads it, event by event; this
/// layout checks each event fits the eurofxref layout and collects the rates.
public enum ECBXML {
    /// Parses an ECB eurofxref XML document (daily, 90-day or full history).
    ///
    /// Elements are recognised by local name: a root `Envelope` holding one or more `Cube`
    /// elements, each holding day cubes (`Cube` with `time`), each holding rate cubes (`Cube`
    /// with `currency` and `rate`). Other children of the root (`gesmes:subject`,
    /// `gesmes:Sender`) are checked for well-formedness and skipped; unknown attributes on
    /// cubes are ignored. Rates are kept as the exact published text.
    ///
    /// Day ranges are not checked here: run ``ProviderValidation/validate(_:notAfter:notBefore:)`` on the result.
    ///
    /// - Parameter data: The document's bytes (`Data`, `[UInt8]`, a NIO `ByteBufferView`…).
    /// - Returns: The days in ascending order, with EUR as base.
    /// - Throws: `UpstreamDataError`: `.empty` for an empty or blank payload, `.malformedXML`
    ///   for anything not well-formed (truncated, unbalanced, garbage), `.unexpectedDocument`
    ///   for well-formed XML in another layout (an HTML page, no day cube, an encoding other
    ///   than UTF-8), `.invalidDay`, `.duplicateDay`, `.emptyDay`, `.invalidCurrencyCode`,
    ///   `.duplicateCurrency` and `.invalidRate` for bad values. It never traps, whatever the input.
    public static func parse(_ data: some Collection<UInt8>) throws(UpstreamDataError) -> RatesBatch {
        var reader = try XMLReader(data, root: "Envelope")
        guard reader.encoding == .utf8 else {
            throw .unexpectedDocument("the document is encoded in \(reader.encoding.rawValue); ECB files are UTF-8")
        }
        var layout = Layout()
        while let event = try reader.next() {
            switch event {
            case .startElement: try layout.enter(reader)
            case .endElement: try layout.leave()
            case .text: if !reader.isWhitespace { try layout.checkText(reader) }
            }
        }
        guard !layout.days.isEmpty else {
            throw .unexpectedDocument("no day cube (Envelope > Cube > Cube time=\"…\") in the document")
        }
        return RatesBatch(base: .euro, days: layout.days)
    }
}

// MARK: - Layout

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

    /// The days read so far, and where the reader is in the layout.
    struct Layout {
        /// Most distinct currency codes remembered (the full history has 42); bounds the cache look-up.
        static let maxCachedCodes = 64

        /// The context of each open element, innermost last.
        var contexts: [Context] = []
        var days: [DailyRates] = []
        var seenDays: Set<Day> = []
        var day: Day?
        var rates: [CurrencyCode: String] = [:]
        /// Codes seen so far, in the order of the first day: later days list them in the same order.
        var currencyCodes: [(key: UInt32, code: CurrencyCode)] = []

        init() {
            contexts.reserveCapacity(8)
        }

        /// Checks the element `reader` just started fits the layout, and reads its day or rate.
        mutating func enter(_ reader: XMLReader) throws(UpstreamDataError) {
            guard let parent = contexts.last else {
                contexts.append(.envelope)  // the reader checked the root's name
                return
            }
            let isCube = reader.isElement("Cube")
            let context: Context
            switch parent {
            case .other:
                context = .other
            case .envelope:
                context = isCube ? .outerCube : .other
            case .outerCube:
                guard isCube, let time = reader.attribute("time") else {
                    throw .unexpectedDocument("<\(reader.qualifiedName)> at \(reader.location) where a <Cube time=\"…\"> was expected")
                }
                try beginDay(time)
                context = .dayCube
            case .dayCube:
                guard isCube, let currency = reader.unprefixedAttribute("currency"), let rate = reader.unprefixedAttribute("rate") else {
                    throw .unexpectedDocument(
                        "<\(reader.qualifiedName)> at \(reader.location) where a <Cube currency=\"…\" rate=\"…\"> was expected")
                }
                try addRate(currency: currency, rate: rate, in: reader)
                context = .rateCube
            case .rateCube:
                throw .unexpectedDocument("<\(reader.qualifiedName)> at \(reader.location) inside a rate cube, which holds nothing")
            }
            contexts.append(context)
        }

        /// Closes the innermost element; a day cube must have rates.
        mutating func leave() throws(UpstreamDataError) {
            guard contexts.popLast() == .dayCube, let day else { return }
            guard !rates.isEmpty else { throw .emptyDay(day) }
            days.append(DailyRates(day: day, rates: rates))
            self.day = nil
            rates = [:]
        }

        /// Text is part of `gesmes:subject` and the like, never of the envelope or a cube.
        func checkText(_ reader: XMLReader) throws(UpstreamDataError) {
            guard let context = contexts.last, context != .other else { return }
            let sample = reader.text.trimmingWhitespace()
            throw .unexpectedDocument("text \(UpstreamDataError.quoted(sample)) inside <\(reader.qualifiedName)> at \(reader.location)")
        }

        mutating func beginDay(_ text: String) throws(UpstreamDataError) {
            guard let day = Day(text) else { throw .invalidDay(text) }
            guard seenDays.insert(day).inserted else { throw .duplicateDay(day) }
            self.day = day
            rates = Dictionary(minimumCapacity: 48)
        }

        mutating func addRate(currency: XMLReader.Attribute, rate: XMLReader.Attribute, in reader: XMLReader) throws(UpstreamDataError) {
            guard let day else { return }
            let code = try currencyCode(currency, in: reader, day: day)
            let text = reader.value(of: rate)
            guard RateText.isValid(text) else { throw .invalidRate(currency: code, day: day, text: text) }
            guard rates.updateValue(text, forKey: code) == nil else { throw .duplicateCurrency(code, day: day) }
        }

        /// The code in a `currency` attribute. `CurrencyCode` decides; its answers are cached by
        /// the code's three bytes, since a history repeats the same few dozen codes in the same order.
        mutating func currencyCode(_ attribute: XMLReader.Attribute, in reader: XMLReader, day: Day) throws(UpstreamDataError) -> CurrencyCode {
            let range = attribute.value
            guard attribute.isVerbatim, range.count == 3 else {
                let text = reader.value(of: attribute)
                guard let code = CurrencyCode(text) else { throw .invalidCurrencyCode(text, day: day) }
                return code
            }
            let bytes = reader.bytes
            let key = UInt32(bytes[range.lowerBound]) << 16 | UInt32(bytes[range.lowerBound + 1]) << 8 | UInt32(bytes[range.lowerBound + 2])
            let guess = rates.count
            if guess < currencyCodes.count, currencyCodes[guess].key == key { return currencyCodes[guess].code }
            if let known = currencyCodes.first(where: { $0.key == key }) { return known.code }
            let text = reader.text(range)
            guard let code = CurrencyCode(text) else { throw .invalidCurrencyCode(text, day: day) }
            if currencyCodes.count < Self.maxCachedCodes { currencyCodes.append((key, code)) }
            return code
        }
    }
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
