import RatesCore

/// How an answer for exchangerate.host's clients differs from ours: `"success": true` first (and
/// `"historical": true` for a date), and values rounded to `places` decimal places when asked.
///
/// Used by exchangerate.host's own routes (`/convert`, `/timeseries`, `/fluctuation`, `/symbols`)
/// and by the root routes it shares with Frankfurter's old host (`/latest`, `/{date}`), whose
/// answers carry both APIs' members.
struct ExchangerateHostStyle: Sendable {
    /// Whether the answer names one date asked for (`"historical": true`).
    let historical: Bool
    /// `places=N`: the decimal places values are rounded to; `nil` keeps them exact.
    let places: Int?

    /// Reads `places` and checks `source` (``QueryParameters/exchangerateHostPlaces()``,
    /// ``QueryParameters/checkExchangerateHostSource()``).
    init(_ query: QueryParameters, historical: Bool) throws(Problem) {
        self.historical = historical
        places = try query.exchangerateHostPlaces()
        try query.checkExchangerateHostSource()
    }

    /// Writes `"success": true` and, for a date, `"historical": true`.
    func writeMembers(into json: inout JSONWriter) {
        json.field("success", bool: true)
        if historical { json.field("historical", bool: true) }
    }

    /// `value` rounded half away from zero to `places`, or unchanged without it.
    func rounded(_ value: ExactDecimal) -> ExactDecimal {
        places.map { value.rounded(fractionDigits: $0) } ?? value
    }

    /// `value` with its magnitude rounded as ``rounded(_:)``.
    func rounded(_ value: SignedExactDecimal) -> SignedExactDecimal {
        SignedExactDecimal(magnitude: rounded(value.magnitude), isNegative: value.isNegative)
    }
}
