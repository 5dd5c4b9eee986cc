/// The files the ECB publishes its euro reference rates in.
public enum ECBFile: String, CaseIterable, Sendable {
    /// The latest publication only.
    case daily = "eurofxref-daily.xml"
    /// The last 90 days of publications, to catch up after downtime.
    case ninetyDays = "eurofxref-hist-90d.xml"
    /// Every publication since 1999-01-04, to fill an empty database.
    case history = "eurofxref-hist.xml"
}
