/// The declared pegs derived when a merged day is read, not stored (docs/MERGE.md#pegs).
extension DayTable {
    /// This table with the values `pegs` give it: for each peg holding on ``day`` whose currency has no
    /// value from a source, the anchor's value times the declared rate (the rate itself for a peg to
    /// the euro), rounded once to ``RateText/maxSignificantDigits``, named with ``FixedParity/pegProvider``
    /// and the anchor's own day. What the merge stored is what the ECB or the currency's issuer
    /// published, which a peg does not replace; the merge stores no peg's value.
    ///
    /// A table whose every value is the ECB's gets none: the ECB's history stays the ECB's. Values named
    /// as a peg already (stored by an earlier version, or derived before) are derived again.
    /// A table of another base than the euro is returned as it is.
    public func derivingPegs(_ pegs: [FixedParity] = FixedParity.pegs, base: CurrencyCode = .euro) -> DayTable {
        // Most days of a long history are the ECB's own figures, with no source named: nothing to do.
        guard base == .euro, !sourceIndices.isEmpty else { return self }
        let kept = codes.indices.filter { source(at: $0).provider != FixedParity.pegProvider }
        let stripped = kept.count == count ? self : DayTable(day: day, entries: kept.map(entry(at:)))
        guard kept.contains(where: { position(at: $0) != 0 && source(at: $0).provider != ProviderKey.ecb }) else { return stripped }
        let valued = Set(kept.map { codes[$0] })
        var derived: [Entry] = []
        for peg in pegs where peg.since <= day && !valued.contains(peg.currency) {
            guard let rate = ExactDecimal(peg.rate) else { continue }
            guard peg.anchor != .euro else {
                derived.append(Entry(code: peg.currency, text: Substring(rate.description), source: RateSource(provider: FixedParity.pegProvider, day: day)))
                continue
            }
            guard let anchor = stripped.index(of: peg.anchor),
                  let value = stripped.rate(at: anchor).multiplied(by: rate)?.rounded(significantDigits: RateText.maxSignificantDigits)
            else { continue }
            let source = RateSource(provider: FixedParity.pegProvider, day: stripped.source(at: anchor).day)
            derived.append(Entry(code: peg.currency, text: Substring(value.description), source: source))
        }
        return derived.isEmpty ? stripped : DayTable(day: day, entries: kept.map(entry(at:)) + derived)
    }

    /// Where the value at `index` has its source in ``sourceList`` (1-based), or 0 for the ECB's figure of the day.
    private func position(at index: Int) -> Int { sourceIndices.isEmpty ? 0 : Int(sourceIndices[index]) }

    /// The value at `index` as an entry, its source named only when it is not the table's default.
    private func entry(at index: Int) -> Entry {
        Entry(code: codes[index], text: Substring(rate(at: index).description), source: position(at: index) == 0 ? nil : source(at: index))
    }
}
