import RatesCore

/// What the XML adapters (CBR, BNR, TCMB, NBK, SBI, MNB, DNB, …) share: the strict reading of
/// elements and attributes, SOAP answers, and the `ValCurs` table several banks publish (codes,
/// units and rates are read with ``PublishedText``). (Days are read
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
        var quotes: [PublishedQuote] = []
        for valute in root.children {
            let place = "<Valute ID=\"\(valute.attribute("ID") ?? "")\"> of \(day)"
            let code = try PublishedText.currency(text(valute, "CharCode", in: place), day: day)
            let unit = try PublishedText.unit(text(valute, "Nominal", in: place), of: code, day: day)
            let value = try PublishedText.rate(text(valute, "Value", in: place), currency: code, day: day)
            guard code != pivot else { continue }
            quotes.append(PublishedQuote(currency: code, value: value, unit: unit, direction: .pivotPerUnits))
        }
        return ProviderPublication(day: day, quotes: quotes)
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
