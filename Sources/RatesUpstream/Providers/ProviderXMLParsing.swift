import RatesCore

/// What the XML adapters (CBR, BNR, TCMB, NBK, SBI, MNB, DNB, …) share: the strict reading of
/// elements, codes, units and rates, and the `ValCurs` table several banks publish. (Days are read
/// with ``RatesCore/Day/init(parsing:_:)``.)
///
/// Every reader throws on the first thing that is not as published, naming it, so an adapter
/// rejects a whole answer rather than skipping a row.
struct ProviderXMLParsing {
    /// The provider's key, for `UpstreamDataError.unexpectedLayout`.
    let provider: String

    init(_ provider: String) {
        self.provider = provider
    }

    // MARK: - Tables

    /// One day's table in the layout the Bank of Russia set and other central banks of the region
    /// share (the CBR, the NBM, the NBT): `<ValCurs Date="…">` holding one `<Valute>` per currency with
    /// `<CharCode>`, `<Nominal>` and `<Value>`, `Value` units of `pivot` for `Nominal` units of the
    /// currency (``PublishedQuote/Direction/pivotPerUnits``). A row of the pivot itself is skipped.
    ///
    /// - Parameter days: How the `Date` attribute writes the day.
    func valCursTable(_ body: [UInt8], pivot: CurrencyCode, days: Day.ProviderFormat) throws(UpstreamDataError) -> ProviderPublication {
        let root = try XMLReader.Element(parsing: body, root: "ValCurs")
        try expectOnly(["Valute"], in: root)
        let day = try Day(parsing: attribute(root, "Date", in: "<ValCurs>"), days)
        var quotes: [PublishedQuote] = []
        for valute in root.children {
            let place = "<Valute ID=\"\(valute.attribute("ID") ?? "")\"> of \(day)"
            let code = try Self.currency(text(valute, "CharCode", in: place), day: day)
            let unit = try unit(text(valute, "Nominal", in: place), of: code, day: day)
            let value = try Self.rate(text(valute, "Value", in: place), currency: code, day: day)
            guard code != pivot else { continue }
            quotes.append(PublishedQuote(currency: code, value: value, unit: unit, direction: .pivotPerUnits))
        }
        return ProviderPublication(day: day, quotes: quotes)
    }

    // MARK: - Elements

    /// The text of `element`'s child `name`, which must be there exactly once and hold no elements.
    func text(_ element: XMLReader.Element, _ name: String, in place: @autoclosure () -> String) throws(UpstreamDataError) -> String {
        let matches = element.children(name)
        guard matches.count == 1, let child = matches.first, child.children.isEmpty else {
            throw .unexpectedLayout(provider: provider, "\(place()) has \(matches.count) <\(name)> elements, expected one holding text")
        }
        return child.text
    }

    /// `element`'s attribute `name`, which must be there.
    func attribute(_ element: XMLReader.Element, _ name: String, in place: @autoclosure () -> String) throws(UpstreamDataError) -> String {
        guard let value = element.attribute(name) else { throw .unexpectedLayout(provider: provider, "\(place()) has no \(name) attribute") }
        return value
    }

    /// Checks that `element` holds only child elements named in `names`, and no text but white space.
    func expectOnly(_ names: Set<String>, in element: XMLReader.Element) throws(UpstreamDataError) {
        if let other = element.children.first(where: { !names.contains($0.localName) }) {
            throw .unexpectedLayout(provider: provider, "<\(other.qualifiedName)> inside <\(element.qualifiedName)>")
        }
        guard element.text.allSatisfy(\.isWhitespace) else {
            throw .unexpectedLayout(provider: provider, "text \(UpstreamDataError.quoted(element.text)) inside <\(element.qualifiedName)>")
        }
    }

    // MARK: - SOAP 1.1

    /// The envelope namespace of SOAP 1.1.
    static let soapNamespace = "http://schemas.xmlsoap.org/soap/envelope/"

    /// The answer in a SOAP 1.1 envelope: the one element of its body, which must not be a fault.
    func soapAnswer(_ body: [UInt8]) throws(UpstreamDataError) -> XMLReader.Element {
        let envelope = try XMLReader.Element(parsing: body, root: "Envelope")
        guard envelope.namespaceURI == Self.soapNamespace, let soapBody = envelope.child("Body"), soapBody.children.count == 1,
            let answer = soapBody.children.first
        else { throw .unexpectedLayout(provider: provider, "not a SOAP 1.1 envelope with one element in its body") }
        if answer.localName == "Fault" {
            throw .unexpectedLayout(provider: provider, "SOAP fault \(UpstreamDataError.quoted(answer.child("faultstring")?.text ?? ""))")
        }
        return answer
    }

    /// The `<operationResult>` of an `<operationResponse>`, its only child, as .NET services answer `operation`.
    func soapResult(of answer: XMLReader.Element, operation: String) throws(UpstreamDataError) -> XMLReader.Element {
        guard answer.localName == operation + "Response", answer.children.count == 1, let result = answer.child(operation + "Result")
        else { throw .unexpectedLayout(provider: provider, "<\(answer.qualifiedName)> is not the answer to \(operation)") }
        return result
    }

    // MARK: - Figures

    /// A published unit (`1`, `100`, …): ASCII digits without a sign or a leading zero, at most ten.
    /// Whether it is a power of ten is ``ProviderValidation/validate(_:notAfter:notBefore:)``'s check.
    func unit(_ text: String, of currency: CurrencyCode, day: Day) throws(UpstreamDataError) -> Int {
        guard (1...10).contains(text.utf8.count), text.utf8.first != UInt8(ascii: "0"), Self.isDigits(text), let unit = Int(text) else {
            throw .unexpectedLayout(provider: provider, "unit \(UpstreamDataError.quoted(text)) of \(currency) on \(day) is not a whole number")
        }
        return unit
    }

    /// A currency code as published: exactly three capital letters.
    static func currency(_ text: String, day: Day) throws(UpstreamDataError) -> CurrencyCode {
        guard let code = CurrencyCode(text) else { throw .invalidCurrencyCode(text, day: day) }
        return code
    }

    /// A published rate as ``RatesCore/RateText`` (decimal comma to point, grouping spaces dropped).
    static func rate(_ text: String, currency: CurrencyCode, day: Day) throws(UpstreamDataError) -> String {
        guard let rate = ProviderValidation.rateText(text) else { throw .invalidRate(currency: currency, day: day, text: text) }
        return rate
    }

    static func isDigits(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
