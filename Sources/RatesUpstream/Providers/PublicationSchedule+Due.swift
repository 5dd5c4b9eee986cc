import Foundation
import RatesCore

extension PublicationSchedule {
    /// How many publications the schedule expected after the one of `latest`, as of `now`.
    ///
    /// Daily: the publication weekdays after `latest` whose expected local time has passed in the
    /// publisher's time zone (public holidays are not known here, so one counts as due); weekly and
    /// monthly: the whole weeks and months since. Counted up to a year.
    public func publicationsDue(after latest: Day, asOf now: Date) -> Int {
        let zone = TimeZone(identifier: timeZone) ?? .gmt
        let offset = zone.secondsFromGMT(for: now)
        let localNow = Day(containing: now, utcOffset: offset)
        let minuteNow = ((Int(now.timeIntervalSince1970) + offset) % 86_400 + 86_400) % 86_400 / 60
        // The newest local day whose publication is due by now.
        let dueThrough = minuteNow >= expectedMinute ? localNow : localNow.adding(days: -1)
        let elapsed = min(dueThrough.dayNumber - latest.dayNumber, 366)
        guard elapsed > 0 else { return 0 }
        switch cadence {
        case .daily: return (1...elapsed).count { weekdays.contains(latest.adding(days: $0).isoWeekday) }
        case .weekly: return elapsed / 7
        case .monthly: return elapsed / 31
        }
    }
}
