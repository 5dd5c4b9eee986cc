import RatesCore

extension JSONValue {
    /// Whether this is `null` or the empty string: how several sources write a figure they do not have that day.
    var isNoFigure: Bool { self == .null || self == .string("") }
}
