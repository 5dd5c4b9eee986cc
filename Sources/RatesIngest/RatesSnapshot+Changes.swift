import RatesCore
import RatesStore

extension RatesSnapshot {
    /// This snapshot with `changes` applied in order, at dataset `version`.
    ///
    /// Only the days the changes touch are rebuilt; every other day is shared with this
    /// snapshot (copy-on-write), so an ingest costs memory for what it changed, not for the
    /// whole history. A day left without rates disappears.
    public func applying(_ changes: [ChangeLogEntry], version: Int64) -> RatesSnapshot {
        guard !changes.isEmpty else {
            return version == self.version ? self : RatesSnapshot(epoch: epoch, version: version, days: days, base: base)
        }
        // The touched days with their new rates, starting from what this snapshot holds.
        var touched: [Day: DailyRates] = [:]
        for change in changes {
            if touched[change.day] == nil {
                let table = publication(on: change.day)
                touched[change.day] = DailyRates(day: change.day, rates: table?.texts ?? [:], sources: table?.nonDefaultSources ?? [:])
            }
            touched[change.day]!.rates[change.currency] = change.value
            touched[change.day]!.sources[change.currency] = change.source
        }
        // The untouched days and the rebuilt ones, in day order.
        let rebuilt = touched.values.filter { !$0.rates.isEmpty }.map { DayTable(day: $0.day, rates: $0.rates, sources: $0.sources).derivingPegs(base: base) }
        let merged = (days.filter { touched[$0.day] == nil } + rebuilt).sorted { $0.day < $1.day }
        return RatesSnapshot(epoch: epoch, version: version, days: merged, base: base)
    }

    /// The publication of exactly `day`, if there is one.
    func publication(on day: Day) -> DayTable? {
        publication(onOrBefore: day).flatMap { $0.day == day ? $0 : nil }
    }
}
