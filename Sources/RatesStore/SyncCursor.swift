import Foundation
import RatesCore

/// Where a client stands in the delta feed; opaque to clients, who send back what they got.
///
/// A cursor names the database epoch and a change-log sequence number (never a timestamp:
/// clocks drift, sequence numbers do not), the client's window (`from`), and — while a full
/// snapshot is being paged — the last day already sent.
public struct SyncCursor: Hashable, Sendable {
    public enum Position: Hashable, Sendable {
        /// Paging a full snapshot taken at `sequence`: days after `afterDay` come next.
        case snapshot(afterDay: Day)
        /// Up to date with every change through `sequence`.
        case changes
    }

    public var epoch: String
    public var sequence: Int64
    public var from: Day?
    public var position: Position

    public init(epoch: String, sequence: Int64, from: Day?, position: Position) {
        self.epoch = epoch
        self.sequence = sequence
        self.from = from
        self.position = position
    }

    /// The opaque text form: base64url of `1.<kind>.<epoch>.<sequence>.<afterDay|->.<from|->`.
    public var encoded: String {
        let kind: String
        let after: String
        switch position {
        case .snapshot(let day): (kind, after) = ("s", day.description)
        case .changes: (kind, after) = ("c", "-")
        }
        let text = ["1", kind, epoch, String(sequence), after, from?.description ?? "-"].joined(separator: ".")
        return Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Decodes a cursor this server produced; `nil` for anything else.
    public init?(encoded text: String) {
        guard text.utf8.count <= 128, text.utf8.allSatisfy({ Self.base64URLAlphabet.contains($0) }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let plain = String(data: data, encoding: .utf8) else { return nil }
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "1", !parts[2].isEmpty, parts[2].count <= 32,
              parts[2].utf8.allSatisfy({ Self.hexDigits.contains($0) }),
              let sequence = Int64(parts[3]), sequence >= 0
        else { return nil }
        let from: Day?
        if parts[5] == "-" { from = nil } else if let day = Day(parts[5]) { from = day } else { return nil }
        let position: Position
        switch (parts[1], parts[4]) {
        case ("c", "-"):
            position = .changes
        case ("s", let after):
            guard let day = Day(after) else { return nil }
            position = .snapshot(afterDay: day)
        default:
            return nil
        }
        self.init(epoch: String(parts[2]), sequence: sequence, from: from, position: position)
    }

    private static let hexDigits = Set("0123456789abcdef".utf8)
    private static let base64URLAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
