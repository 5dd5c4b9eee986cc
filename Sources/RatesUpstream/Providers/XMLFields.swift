import RatesCore

/// What the XML adapters (CBR, BNR, TCMB, NBK, SBI, MNB, DNB, …) share: the strict reading of
/// elements and attributes, SOAP answers, the `ValCurs` table several banks publish, and any table of
/// one element per currency writing its code, unit and rate (``quotes(_:code:unit:rate:day:pivot:aliases:skipped:)``)
/// (codes, units and rates are read with ``PublishedText``). (Days are read
/// with ``RatesCore/Day/init(parsing:_:)``.)
///
/// Every reader throws on the first thing that is not as published, naming it, so an adapter
/// rejects a whole answer rather than skipping a row.
enum XMLFields {
    // MARK: - Tables

    /// One day's table in the layout the Bank of Russia set and other central banks of the region
    /// share (the CBR, the NBM, the NBT): `<ValCurs Date="…">` holding one `<Valute>` per currency with
    /// `<CharCode>`, `<Nominal>` and `<Value>`, `Value` units of `pivot` for `Nominal` units of the
    /// currency (``PublishedQuote/Direction/pivotPerUnits``). A row of the pivot itself is skipped.
    ///
    /// - Parameter days: How the `Date` attribute writes the day.
    static func valCursTable(_ body: [UInt8], pivot: CurrencyCode, days: Day.ProviderFormat) throws(UpstreamDataError) -> ProviderPublication {
        let root = try XMLReader.Element(parsing: body, root: "ValCurs")
        try expectOnly(["Valute"], in: root)
        let day = try Day(parsing: attribute(root, "Date", in: "<ValCurs>"), days)
        let valutes = try quotes(root.children, code: .child("CharCode"), unit: .child("Nominal"), rate: .child("Value"), day: day, pivot: pivot)
        return ProviderPublication(day: day, quotes: valutes)
    }

    // MARK: - One element per currency

    /// Where a currency's element writes one of its fields (``quote(_:code:unit:rate:day:aliases:)``).
    enum Field {
        /// The attribute of that name, which must be there (`<rate code="USD">`).
        case attribute(String)
        /// The attribute of that name, or `absent` where the element has none (a unit of 1 left unsaid).
        case optionalAttribute(String, absent: String)
        /// The text of the element's one child of that name (`<Nominal>1</Nominal>`).
        case child(String)
        /// The element's own text (`<Rate currency="USD">3.6</Rate>`); it must hold no elements.
        case text
        /// Not written: the same for every currency (a table of rates per 100 units).
        case fixed(String)
    }

    /// The quote one currency's element writes: its code, its unit and its rate where ``Field`` says, read
    /// with ``PublishedText``; `rate` units of the pivot for `unit` units of the currency
    /// (``PublishedQuote/Direction/pivotPerUnits``). Errors name the element, then its currency, and the day.
    ///
    /// - Parameter aliases: Codes the source writes for a currency other than its ISO code (`SDR` for XDR).
    static func quote(
        _ element: XMLReader.Element, code: Field, unit: Field, rate: Field, day: Day, aliases: [String: String] = [:]
    ) throws(UpstreamDataError) -> PublishedQuote {
        let written = try text(of: code, in: element, place: "<\(element.localName)> of \(day)")
        let currency = try PublishedText.currency(aliases[written] ?? written, day: day)
        let place = "<\(element.localName)> \(currency) of \(day)"
        let units = try PublishedText.unit(text(of: unit, in: element, place: place), of: currency, day: day)
        let value = try PublishedText.rate(text(of: rate, in: element, place: place), currency: currency, day: day)
        return PublishedQuote(currency: currency, value: value, unit: units, direction: .pivotPerUnits)
    }

    /// The quotes of a table of one element per currency (``quote(_:code:unit:rate:day:aliases:)``), in
    /// document order. The elements of `pivot` itself and of `skipped` (metals) are read, then left out.
    static func quotes(
        _ elements: [XMLReader.Element], code: Field, unit: Field, rate: Field, day: Day, pivot: CurrencyCode,
        aliases: [String: String] = [:], skipped: Set<CurrencyCode> = []
    ) throws(UpstreamDataError) -> [PublishedQuote] {
        try elements.map { element throws(UpstreamDataError) in try quote(element, code: code, unit: unit, rate: rate, day: day, aliases: aliases) }
            .filter { $0.currency != pivot && !skipped.contains($0.currency) }
    }

    /// What `element` writes where `field` says.
    static func text(of field: Field, in element: XMLReader.Element, place: @autoclosure () -> String) throws(UpstreamDataError) -> String {
        switch field {
        case .attribute(let name):
            return try attribute(element, name, in: place())
        case .optionalAttribute(let name, let absent):
            return element.attribute(name) ?? absent
        case .child(let name):
            return try text(element, name, in: place())
        case .text:
            guard element.children.isEmpty else { throw .layout("\(place()) holds elements") }
            return element.text
        case .fixed(let text):
            return text
        }
    }

    // MARK: - Elements

    /// The text of `element`'s child `name`, which must be there exactly once and hold no elements.
    static func text(_ element: XMLReader.Element, _ name: String, in place: @autoclosure () -> String) throws(UpstreamDataError) -> String {
        let matches = element.children(name)
        guard matches.count == 1, let child = matches.first, child.children.isEmpty else {
            throw .layout("\(place()) has \(matches.count) <\(name)> elements, expected one holding text")
        }
        return child.text
    }

    /// `element`'s attribute `name`, which must be there.
    static func attribute(_ element: XMLReader.Element, _ name: String, in place: @autoclosure () -> String) throws(UpstreamDataError) -> String {
        guard let value = element.attribute(name) else { throw .layout("\(place()) has no \(name) attribute") }
        return value
    }

    /// Checks that `element` holds only child elements named in `names`, and no text but white space.
    static func expectOnly(_ names: Set<String>, in element: XMLReader.Element) throws(UpstreamDataError) {
        if let other = element.children.first(where: { !names.contains($0.localName) }) {
            throw .layout("<\(other.qualifiedName)> inside <\(element.qualifiedName)>")
        }
        guard element.text.allSatisfy(\.isWhitespace) else {
            throw .layout("text \(UpstreamDataError.quoted(element.text)) inside <\(element.qualifiedName)>")
        }
    }

    // MARK: - SOAP 1.1

    /// The envelope namespace of SOAP 1.1.
    static let soapNamespace = "http://schemas.xmlsoap.org/soap/envelope/"

    /// The answer in a SOAP 1.1 envelope: the one element of its body, which must not be a fault.
    static func soapAnswer(_ body: [UInt8]) throws(UpstreamDataError) -> XMLReader.Element {
        let envelope = try XMLReader.Element(parsing: body, root: "Envelope")
        guard envelope.namespaceURI == Self.soapNamespace, let soapBody = envelope.child("Body"), soapBody.children.count == 1,
            let answer = soapBody.children.first
        else { throw .layout("not a SOAP 1.1 envelope with one element in its body") }
        if answer.localName == "Fault" {
            throw .layout("SOAP fault \(UpstreamDataError.quoted(answer.child("faultstring")?.text ?? ""))")
        }
        return answer
    }

    /// The `<operationResult>` of an `<operationResponse>`, its only child, as .NET services answer `operation`.
    static func soapResult(of answer: XMLReader.Element, operation: String) throws(UpstreamDataError) -> XMLReader.Element {
        guard answer.localName == operation + "Response", answer.children.count == 1, let result = answer.child(operation + "Result")
        else { throw .layout("<\(answer.qualifiedName)> is not the answer to \(operation)") }
        return result
    }
}
