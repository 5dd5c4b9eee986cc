extension Duration {
    /// The duration in seconds, as a `Double` (for `TimeInterval` APIs and arithmetic).
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
