extension Route {
    /// Whether exchangerate.host's clients call this route: its own (`/convert`, `/timeseries`,
    /// `/fluctuation`, `/symbols`) and the root routes it shared with Frankfurter's old host
    /// (`/latest`, `/{date}`). Their errors carry both APIs' members (``Problem/response(for:)``).
    var answersExchangerateHost: Bool {
        switch self {
        case .legacyLatest, .legacyDates, .exchangerateConvert, .exchangerateTimeseries, .exchangerateFluctuation, .exchangerateSymbols: true
        default: false
        }
    }
}
