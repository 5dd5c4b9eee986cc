import Foundation
import RatesCore

extension JSONValue {
    /// Whether this is `null`, a blank string or a zero (`"0.0000"`, `0`), spaces around it dropped: how some sources write a figure
    /// they do not have that day (no deals on one side, no rate set).
    var isBlankOrZero: Bool {
        guard let text = (stringValue ?? numberText)?.trimmingCharacters(in: .whitespaces) else { return isNull }
        return text.isEmpty || ProviderValidation.isZero(text)
    }
}
