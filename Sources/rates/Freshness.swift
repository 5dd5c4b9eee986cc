import Foundation
import RatesClient
import RatesCore

/// How old the cached rates are, in words: "rates of 2026-10-30, synced 3 minutes ago".
enum Freshness {
    static func line(for status: CacheStatus, date: Day? = nil, now: Date = Date(), advice: Bool = true) -> String {
        guard let synced = status.lastSuccessfulSync else {
            if let latest = status.latestDate, status.isBundled { return "rates of \(date ?? latest) shipped with the app, never synced: run `rates sync`" }
            if let latest = status.latestDate { return "rates of \(date ?? latest), sync incomplete: run `rates sync`" }
            return "never synced: run `rates sync`"
        }
        var text = "rates of \((date ?? status.latestDate)?.description ?? "-"), synced \(ago(synced, now: now))"
        if status.isStale && advice { text += "; newer rates are due: run `rates sync`" }
        return text
    }

    /// Why the cached rates are behind (`CacheStatus.isBehind`), or `nil` when they are not or none are cached.
    ///
    /// "2026-11-20 should be out by now, but the server did not have it at the last sync".
    static func behindReason(for status: CacheStatus) -> String? {
        guard status.isBehind, let latest = status.latestDate else { return nil }
        let missing = status.expectedLatestDate.flatMap { $0 > latest ? $0 : nil }
        if status.serverReportedStale == true {
            let what = missing.map { ", and \($0) should be out by now" } ?? " (not yet confirmed by its source)"
            return "the server reported its data stale at the last sync" + what
        }
        guard let missing else { return nil }
        if let synced = status.lastSuccessfulSync, synced >= PublicationSchedule.ecbReferenceRates.expectedTime(of: missing) {
            return "\(missing) should be out by now, but the server did not have it at the last sync"
        }
        return "\(missing) should be out by now: run `rates sync`"
    }

    /// Says on standard error that the rates are behind, when they are; standard output stays as it was.
    static func warnIfBehind(_ status: CacheStatus) {
        guard let reason = behindReason(for: status), let latest = status.latestDate else { return }
        FileHandle.standardError.write(Data("warning: the rates of \(latest) are behind: \(reason).\n".utf8))
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
