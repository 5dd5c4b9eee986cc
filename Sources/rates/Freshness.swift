import Foundation
import RatesClient
import RatesCore

/// How old the cached rates are, in words: "rates of 2026-10-30, synced 3 minutes ago".
enum Freshness {
    static func line(for status: CacheStatus, date: Day? = nil, now: Date = Date(), advice: Bool = true) -> String {
        guard let synced = status.lastSuccessfulSync else {
            if let latest = status.latestDate { return "rates of \(date ?? latest), sync incomplete: run `rates sync`" }
            return "never synced: run `rates sync`"
        }
        var text = "rates of \((date ?? status.latestDate)?.description ?? "-"), synced \(ago(synced, now: now))"
        if status.isStale && advice { text += "; newer rates are due: run `rates sync`" }
        return text
    }

    /// "just now", "3 minutes ago", "5 hours ago", "2 days ago".
    static func ago(_ date: Date, now: Date = Date()) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return plural(seconds / 60, "minute") + " ago"
        case ..<(48 * 3600): return plural(seconds / 3600, "hour") + " ago"
        default: return plural(seconds / 86_400, "day") + " ago"
        }
    }

    static func plural(_ count: Int, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s")" }

    /// `2026-11-02 15:00 UTC`.
    static func instant(_ date: Date) -> String {
        var style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
        style = style.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon)
        let text = date.formatted(style)   // 2026-11-02T15:00:00
        return text.replacingOccurrences(of: "T", with: " ").dropLast(3) + " UTC"
    }
}

/// Failures of a command, each with the message the user sees.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}
