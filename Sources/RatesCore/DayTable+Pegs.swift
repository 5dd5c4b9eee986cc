/// The declared pegs derived when a merged day is read, not stored (docs/MERGE.md#pegs).
extension DayTable {
    /// This table with the values `pegs` give it: for each peg holding on ``day`` whose currency has no
    /// value from a source, its value from the anchor's (``FixedParity/perEuro(anchorPerEuro:)``, as the
    /// merge values it), named with ``FixedParity/pegProvider`` and the anchor's own day. What the merge stored is what the ECB or the currency's issuer
    /// published, which a peg does not replace; the merge stores no peg's value.
    ///
    /// A table whose every value is the ECB's gets none: the ECB's history stays the ECB's. Values named
    /// as a peg already (stored by an earlier version, or derived before) are derived again.
    /// A table of another base than the euro is returned as it is.
    public func derivingPegs(_ pegs: [FixedParity] = FixedParity.pegs, base: CurrencyCode = .euro) -> DayTable {
        // Most days of a long history are the ECB's own figures, with no source named: nothing to do.
        guard base == .euro, storage.sourceCount > 0 else { return self }
        // Each source's provider read once (a day has a few dozen), then each value's by its position.
        let sourceProviders = (0...storage.sourceCount).map { $0 == 0 ? nil : storage.source(numbered: $0).provider }
        let providers = codes.indices.map { sourceProviders[storage.position(at: $0)] }
        let isPeg = providers.map { $0 == FixedParity.pegProvider }
        let speaks = codes.indices.contains { !isPeg[$0] && providers[$0].map { $0 != ProviderKey.ecb } == true }
        var derived: [(code: CurrencyCode, value: ExactDecimal, source: RateSource)] = []
        if speaks {
            for peg in pegs where peg.since <= day {
                if let index = index(of: peg.currency), !isPeg[index] { continue }
                let anchor = peg.anchor == .euro ? nil : index(of: peg.anchor)
                guard peg.anchor == .euro || anchor.map({ !isPeg[$0] }) == true,
                      let value = peg.perEuro(anchorPerEuro: anchor.map(rate(at:)))
                else { continue }
                derived.append((peg.currency, value, RateSource(provider: FixedParity.pegProvider, day: anchor.map { source(at: $0).day } ?? day)))
            }
        }
        guard !derived.isEmpty || isPeg.contains(true) else { return self }

        // The kept values and the derived ones, in code order; no text is written or read.
        var rows: [Row] = codes.indices.compactMap { index in
            let origin = storage.position(at: index) == 0 ? nil : source(at: index)
            return isPeg[index] ? nil : (codes[index], storage.significand(at: index), storage.exponent(at: index), origin)
        }
        for (code, value, source) in derived {
            guard let significand = value.smallSignificand, let exponent = Int8(exactly: value.exponent) else { continue }
            rows.append((code, significand, exponent, source))
        }
        rows.sort { $0.code < $1.code }
        return DayTable(day: day, rows: rows)
    }
}
