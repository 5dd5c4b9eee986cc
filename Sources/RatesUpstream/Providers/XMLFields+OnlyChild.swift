import RatesCore

extension XMLFields {
    /// `element`'s one child element `name` (a result's one table, a series' one data block); a layout error says
    /// how many it has, `place` naming `element`.
    static func onlyChild(_ name: String, of element: XMLReader.Element, in place: String) throws(UpstreamDataError) -> XMLReader.Element {
        let matches = element.children(name)
        guard matches.count == 1, let child = matches.first else { throw .layout("\(place) has \(matches.count) <\(name)>, expected one") }
        return child
    }
}
